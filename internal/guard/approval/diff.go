package approval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// diffContext is how many unchanged lines a diff shows around a change.
const diffContext = 3

// FormatEdits renders the arguments of an edit call, as the reference
// filesystem server's edit_file takes them (path, edits: [{oldText,
// newText}], dryRun), for a human to judge: the path first, then each
// edit as a unified diff (removed lines "-", through f.Removed; added
// lines "+", through f.Added; unchanged context " "), then every other
// argument as FormatArguments shows it, an edit's keys besides oldText
// and newText included (as "edits[0].path"): nothing the tool gets is
// left out. Every row starts with
// ArgumentMark or ContinuationMark and every character is made visible
// as in FormatArguments, so a diff can forge no more than a value can.
// ok is false when args do not have that shape; FormatArguments then
// shows them as they are.
func FormatEdits(args map[string]any, f ArgumentsFormat) (out string, ok bool) {
	edits, extra, ok := editPairs(args)
	if !ok {
		return "", false
	}
	f = f.withDefaults()
	width := f.rowWidth()
	var rows []row
	for i, e := range edits {
		if len(edits) > 1 {
			rows = append(rows, row{text: f.Dim(fmt.Sprintf("edit %d of %d:", i+1, len(edits)))})
		}
		rows = append(rows, diffRows(e[0], e[1], width, f)...)
	}
	if f.MaxRows > 0 && len(rows) > 2*f.MaxRows {
		// A diff is what the question is for: it gets twice the rows of
		// another value before it folds.
		rows = fold(rows, 2*f.MaxRows, f.Dim)
	}
	// Every argument the diff does not show is shown as a row of its own:
	// the call's other keys, and an edit's keys besides oldText and
	// newText (as "edits[0].path"), which the tool may act on. Those that
	// fit on one row come first, with the path; longer ones after the
	// diff.
	rest := extra
	for k, v := range args {
		if k != "path" && k != "edits" {
			rest[k] = v
		}
	}
	short, long := argumentRows(rest, f)
	var b strings.Builder
	b.WriteString(FormatArguments(map[string]any{"path": args["path"]}, f))
	writeRows(&b, short)
	head := fmt.Sprintf("edits: %d, as a diff", len(edits))
	if len(edits) == 1 {
		head = "edit, as a diff"
	}
	b.WriteString("\n" + ArgumentMark + head)
	for _, r := range rows {
		b.WriteString("\n" + ContinuationMark + r.text)
	}
	writeRows(&b, long)
	return b.String(), true
}

// editPairs reads args as an edit call's: a string path and a non-empty
// list of edits, each with string oldText and newText. extra holds the
// edits' other keys, named "edits[I].KEY" (I from 0, as in the JSON).
func editPairs(args map[string]any) (pairs [][2]string, extra map[string]any, ok bool) {
	if _, ok := args["path"].(string); !ok {
		return nil, nil, false
	}
	list, ok := args["edits"].([]any)
	if !ok || len(list) == 0 {
		return nil, nil, false
	}
	pairs = make([][2]string, 0, len(list))
	extra = map[string]any{}
	for i, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			return nil, nil, false
		}
		old, ok1 := e["oldText"].(string)
		new, ok2 := e["newText"].(string)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		pairs = append(pairs, [2]string{old, new})
		for k, v := range e {
			if k != "oldText" && k != "newText" {
				extra[fmt.Sprintf("edits[%d].%s", i, k)] = v
			}
		}
	}
	return pairs, extra, true
}

// diffRows lays out the line diff of old and new, one row (or more, for
// a line wider than width) per line.
func diffRows(old, new string, width int, f ArgumentsFormat) []row {
	// Both end in a newline, so that a last line without one does not
	// show as changed when only what follows it did.
	if !strings.HasSuffix(old, "\n") || !strings.HasSuffix(new, "\n") {
		old, new = old+"\n", new+"\n"
	}
	u, err := udiff.ToUnifiedDiff("", "", old, udiff.Lines(old, new), diffContext)
	if err != nil || len(u.Hunks) == 0 {
		return []row{{text: f.Dim("(no change)")}}
	}
	var rows []row
	for i, h := range u.Hunks {
		if i > 0 {
			rows = append(rows, row{text: f.Dim("⋯")})
		}
		for _, l := range h.Lines {
			mark, paint := " ", func(s string) string { return s }
			switch l.Kind {
			case udiff.Delete:
				mark, paint = "-", f.Removed
			case udiff.Insert:
				mark, paint = "+", f.Added
			}
			line := strings.TrimSuffix(l.Content, "\n")
			for _, r := range layout(visible(mark+line), width, f.Dim) {
				rows = append(rows, row{text: paint(r.text), bytes: r.bytes})
			}
		}
	}
	return rows
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeRows writes arguments laid out by argumentRows, each row on a line
// of its own after what b holds.
func writeRows(b *strings.Builder, args [][]row) {
	for _, rows := range args {
		for i, r := range rows {
			mark := ContinuationMark
			if i == 0 {
				mark = ArgumentMark
			}
			b.WriteString("\n" + mark + r.text)
		}
	}
}
