package approval

import (
	"encoding/json"
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
		"▸ dryRun: false",
		"▸ edit, as a diff",
		"┆  func main() {",
		"┆ <red>-⇥fmt.Println(\"hi\")</red>",
		"┆ <green>+⇥fmt.Println(\"hello\")</green>",
		"┆  ⇥return",
		"┆  }",
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

// TestFormatEditsShowsEveryKeyOfAnEdit: an edit's keys besides oldText
// and newText (a per-edit path, which a tool may write to) are rows of
// their own, not dropped because the diff does not draw them.
func TestFormatEditsShowsEveryKeyOfAnEdit(t *testing.T) {
	args := map[string]any{"path": "notes.txt", "edits": []any{
		map[string]any{"oldText": "a", "newText": "b"},
		map[string]any{"oldText": "c", "newText": "d", "path": "/home/me/.ssh/authorized_keys", "mode": 420},
	}}
	got, ok := FormatEdits(args, ArgumentsFormat{})
	if !ok {
		t.Fatal("an edit_file call was not recognised")
	}
	for _, want := range []string{
		"\n▸ edits[1].mode: 420",
		"\n▸ edits[1].path: /home/me/.ssh/authorized_keys",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("FormatEdits leaves out %q:\n%s", want, got)
		}
	}
}

// TestFormatJSONIsTheExactArguments: [v]'s view is JSON that decodes to
// the arguments as sent, hidden characters written as escapes, and its
// rows are marked and no wider than asked.
func TestFormatJSONIsTheExactArguments(t *testing.T) {
	args := map[string]any{
		"path":  "a.txt",
		"edits": []any{map[string]any{"oldText": "x", "newText": "y<&>", "path": "/etc/passwd"}},
		"note":  "zero\u200bwidth \U000E0041tag \u2028sep \x1b[2J",
		"long":  strings.Repeat("w", 90),
	}
	got := FormatJSON(args, ArgumentsFormat{Width: 40})
	var text strings.Builder
	for i, r := range strings.Split(got, "\n") {
		if w := runewidth.StringWidth(r); w > 40 {
			t.Errorf("row %d is %d columns wide: %q", i, w, r)
		}
		switch {
		case strings.HasPrefix(r, ArgumentMark):
			if i > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(strings.TrimPrefix(r, ArgumentMark))
		case strings.HasPrefix(r, ContinuationMark):
			text.WriteString(strings.TrimPrefix(r, ContinuationMark))
		default:
			t.Errorf("row %d has no mark: %q", i, r)
		}
	}
	for _, want := range []string{`\u200b`, `\udb40\udc41`, `\u2028`, `\u001b[2J`, `"path": "/etc/passwd"`, `y<&>`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the JSON view lacks %s:\n%s", want, got)
		}
	}
	var back map[string]any
	if err := json.Unmarshal([]byte(text.String()), &back); err != nil {
		t.Fatalf("the JSON view is not JSON: %v\n%s", err, text.String())
	}
	if fmt.Sprint(back) != fmt.Sprint(args) {
		t.Errorf("the JSON view decodes to\n%v\nwant\n%v", back, args)
	}
}
