// Package corpus reads the replies of local models kept under
// toolcall/testdata/replies, one file per model family, which the toolcall,
// runner and end-to-end tests replay against server-everything.
//
// A file is a list of cases:
//
//	# comment lines before the first case
//	=== what the case shows
//	source: where the shape comes from (a chat template, an issue)
//	want: everything__echo {"message": "hi"}
//	--- thinking
//	the model's thinking, when it has any
//	--- reply
//	the reply's text, to the next === line
//
// Each want line is a call the reply must make: the tool's exposed name
// and its arguments as JSON, as they reach the server. A case without want
// lines must make no call and earn no tool error.
package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Call is a call a reply must make.
type Call struct {
	Name string
	// Args is the arguments as compact JSON with sorted keys.
	Args string
}

// Reply is one case.
type Reply struct {
	// Family is the file the case is in, less ".txt".
	Family string
	Name   string
	Source string
	// Thinking and Content are the reply as the model streams them.
	Thinking, Content string
	// Want is nil for a reply that makes no call.
	Want []Call
}

// Load reads every .txt file in dir, in name order.
func Load(dir string) ([]Reply, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Reply
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		replies, err := parse(strings.TrimSuffix(filepath.Base(f), ".txt"), string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, replies...)
	}
	return out, nil
}

func parse(family, text string) ([]Reply, error) {
	var out []Reply
	var cur *Reply
	var section *string // the text section being read, if any
	var buf []string
	flush := func() {
		if section != nil {
			*section = strings.TrimRight(strings.Join(buf, "\n"), "\n")
		}
		section, buf = nil, nil
	}
	for n, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "=== "):
			flush()
			out = append(out, Reply{Family: family, Name: strings.TrimSpace(line[4:])})
			cur = &out[len(out)-1]
		case cur == nil:
			if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
				return nil, fmt.Errorf("line %d: text before the first === case", n+1)
			}
		case line == "--- thinking":
			flush()
			section = &cur.Thinking
		case line == "--- reply":
			flush()
			section = &cur.Content
		case section != nil:
			buf = append(buf, line)
		case strings.HasPrefix(line, "source:"):
			cur.Source = strings.TrimSpace(line[len("source:"):])
		case strings.HasPrefix(line, "want:"):
			c, err := parseWant(strings.TrimSpace(line[len("want:"):]))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
			cur.Want = append(cur.Want, c)
		case strings.TrimSpace(line) != "":
			return nil, fmt.Errorf("line %d: expected source:, want:, --- thinking or --- reply, got %q", n+1, line)
		}
	}
	flush()
	return out, nil
}

func parseWant(s string) (Call, error) {
	name, args, ok := strings.Cut(s, " ")
	if !ok {
		return Call{}, fmt.Errorf("want needs a tool name and its arguments as JSON: %q", s)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return Call{}, fmt.Errorf("want %s: arguments are not a JSON object: %w", name, err)
	}
	return Call{Name: name, Args: Canonical(v)}, nil
}

// Canonical writes arguments as compact JSON with sorted keys and without
// HTML escaping, the form Call.Args is compared in.
func Canonical(args map[string]any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return fmt.Sprintf("%v", args)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
