package chat

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcphost/mcphost/ask"
)

// TestAskShowsAnEditAsAColouredDiff: removed lines red, added lines
// green, and the tool named next to the keys.
func TestAskShowsAnEditAsAColouredDiff(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	c.opts.NoColor = false
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	w.WriteString("y")
	ans, err := c.ApproveCall(context.Background(), ask.CallRequest{Name: "fs__edit_file", Server: "fs", Tool: "edit_file",
		Arguments: map[string]any{"path": "a.txt", "edits": []any{map[string]any{"oldText": "old line", "newText": "new\tline"}}}})
	if err != nil || ans.Choice != ask.YesOnce {
		t.Fatalf("answer %+v, err %v", ans, err)
	}
	shown := out.String()
	for _, want := range []string{"\x1b[31m-old line\x1b[39m", "\x1b[32m+new\x1b[2m⇥\x1b[22mline\x1b[39m"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the question lacks %q:\n%q", want, shown)
		}
	}
	// The tool's name stands next to the keys (styled as a question).
	if want := "  fs › edit_file: [y] yes once"; !strings.Contains(ansi.Strip(shown), want) {
		t.Errorf("the question lacks %q:\n%q", want, shown)
	}
}
