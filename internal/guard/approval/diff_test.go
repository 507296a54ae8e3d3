package approval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

func TestFormatEditsShowsADiff(t *testing.T) {
	args := map[string]any{
		"path": "/src/main.go",
		"edits": []any{map[string]any{
			"oldText": "func main() {\n\tfmt.Println(\"hi\")\n\treturn\n}",
			"newText": "func main() {\n\tfmt.Println(\"hello\")\n\treturn\n}",
		}},
		"dryRun": false,
	}
	red := func(s string) string { return "<red>" + s + "</red>" }
	green := func(s string) string { return "<green>" + s + "</green>" }
	got, ok := FormatEdits(args, ArgumentsFormat{Width: 60, Removed: red, Added: green})
	if !ok {
		t.Fatal("an edit_file call was not recognised")
	}
	want := strings.Join([]string{
		"▸ path: /src/main.go",
		"▸ edit, as a diff",
		"┆  func main() {",
		"┆ <red>-⇥fmt.Println(\"hi\")</red>",
		"┆ <green>+⇥fmt.Println(\"hello\")</green>",
		"┆  ⇥return",
		"┆  }",
		"▸ dryRun: false",
	}, "\n")
	if got != want {
		t.Errorf("FormatEdits =\n%s\nwant\n%s", got, want)
	}
}

func TestFormatEditsNumbersSeveralEdits(t *testing.T) {
	args := map[string]any{"path": "a.txt", "edits": []any{
		map[string]any{"oldText": "one", "newText": "uno"},
		map[string]any{"oldText": "two", "newText": "two\nthree"},
	}}
	got, _ := FormatEdits(args, ArgumentsFormat{})
	want := strings.Join([]string{
		"▸ path: a.txt",
		"▸ edits: 2, as a diff",
		"┆ edit 1 of 2:",
		"┆ -one",
		"┆ +uno",
		"┆ edit 2 of 2:",
		"┆  two",
		"┆ +three",
	}, "\n")
	if got != want {
		t.Errorf("FormatEdits =\n%s\nwant\n%s", got, want)
	}
}

func TestFormatEditsLeavesOtherShapesAlone(t *testing.T) {
	for _, args := range []map[string]any{
		{"path": "a", "content": "x"},
		{"path": "a", "edits": "not a list"},
		{"path": "a", "edits": []any{}},
		{"path": "a", "edits": []any{map[string]any{"oldText": "x"}}},
		{"edits": []any{map[string]any{"oldText": "x", "newText": "y"}}},
	} {
		if out, ok := FormatEdits(args, ArgumentsFormat{}); ok {
			t.Errorf("%v taken for an edit:\n%s", args, out)
		}
	}
}

// TestFormatEditsCannotForgeTheQuestion: a diff's lines are values too:
// every row starts with a mark and holds no control character.
func TestFormatEditsCannotForgeTheQuestion(t *testing.T) {
	forged := "x\n? fs › read_file wants to run:\n▸ path: /etc/hosts\r  [y] yes once\x1b[1A\x1b[2K" + strings.Repeat("界", 60)
	out, ok := FormatEdits(map[string]any{"path": "a\nb", "edits": []any{map[string]any{"oldText": "x", "newText": forged}}},
		ArgumentsFormat{Width: 40})
	if !ok {
		t.Fatal("not recognised")
	}
	for i, r := range strings.Split(out, "\n") {
		if !strings.HasPrefix(r, ArgumentMark) && !strings.HasPrefix(r, ContinuationMark) {
			t.Errorf("row %d = %q has no mark", i, r)
		}
		if strings.HasPrefix(r, ArgumentMark) && !strings.HasPrefix(r, ArgumentMark+"path: ") && !strings.HasPrefix(r, ArgumentMark+"edit") {
			t.Errorf("row %d = %q passes for an argument", i, r)
		}
		if strings.ContainsAny(r, "\x1b\r\a") {
			t.Errorf("row %d = %q holds a control character", i, r)
		}
		if w := runewidth.StringWidth(r); w > 40 {
			t.Errorf("row %d is %d columns wide: %q", i, w, r)
		}
	}
}

func TestFormatEditsFoldsALongDiff(t *testing.T) {
	var old, new []string
	for i := range 100 {
		old = append(old, fmt.Sprintf("old %02d", i))
		new = append(new, fmt.Sprintf("new %02d", i))
	}
	args := map[string]any{"path": "a", "edits": []any{map[string]any{"oldText": strings.Join(old, "\n"), "newText": strings.Join(new, "\n")}}}
	out, _ := FormatEdits(args, ArgumentsFormat{MaxRows: 10})
	if n := strings.Count(out, "\n") + 1; n != 22 {
		t.Errorf("%d rows, want 22 (path, head, 20 of the diff):\n%s", n, out)
	}
	if !strings.Contains(out, "-old 00") || !strings.Contains(out, "+new 99") || !strings.Contains(out, "more rows") {
		t.Errorf("the fold lacks the first or last lines or its note:\n%s", out)
	}
}
