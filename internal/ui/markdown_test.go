package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// goBlock is gofmt'd Go: tab indentation, a line longer than 120 columns.
const goBlock = `package main

import "fmt"

// main prints a greeting; the next line is longer than any terminal width in these tests, to see that nothing wraps it.
func main() {
	for i := 0; i < 3; i++ {
		if i%2 == 0 {
			fmt.Println("even", i) // a comment
		}
	}
}`

func TestCodeBlocksAreTheModelsBytes(t *testing.T) {
	md := "Here is the code:\n\n```go\n" + goBlock + "\n```\n\nAnd a command:\n\n```\ngo run . --with-a-long-flag-name=value --and-another-one=value --and-a-third-one=value\n```\n"
	for _, width := range []int{60, 80, 120} {
		for _, noColor := range []bool{true, false} {
			out := ansi.Strip(RenderMarkdown(md, width, noColor, Dark))
			if !strings.Contains(out, "\n\n"+goBlock+"\n\n") {
				t.Errorf("width %d, noColor %v: the Go block is not byte for byte what the model wrote:\n%q", width, noColor, out)
			}
			if !strings.Contains(out, "\ngo run . --with-a-long-flag-name=value --and-another-one=value --and-a-third-one=value\n") {
				t.Errorf("width %d: a one-line command was wrapped:\n%s", width, out)
			}
			for i, line := range strings.Split(out, "\n") {
				if strings.TrimRight(line, " \t") != line {
					t.Errorf("width %d: line %d ends in spaces: %q", width, i+1, line)
				}
			}
		}
	}
}

func TestAWideTableFitsWithItsHeader(t *testing.T) {
	md := "| Setting | What it does | Default |\n|---|---|--:|\n" +
		"| toolTimeout | How long a tool call may run before it is cancelled and reported to the model as an error | 30s |\n" +
		"| `excludedTools` | Tools of the server that the model never sees, by name, even when the server lists them | none |\n" +
		"| **allowedTools** | Only these tools, as `everything__echo` | all |\n"
	for _, width := range []int{60, 80, 120} {
		out := ansi.Strip(RenderMarkdown(md, width, false, Dark))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if !strings.Contains(lines[0], "Setting") || !strings.Contains(lines[0], "What it does") || !strings.Contains(lines[0], "Default") {
			t.Errorf("width %d: the header is not the first line:\n%s", width, out)
		}
		if !strings.Contains(lines[1], "─┼─") {
			t.Errorf("width %d: no rule under the header:\n%s", width, out)
		}
		for _, l := range lines {
			if w := runewidth.StringWidth(l); w > width {
				t.Errorf("width %d: a line is %d columns wide:\n%s", width, w, out)
			}
			if strings.TrimRight(l, " ") != l {
				t.Errorf("width %d: trailing spaces in %q", width, l)
			}
		}
		for _, word := range []string{"cancelled", "excludedTools", "even", "none", "30s", "allowedTools", "everything__echo"} {
			if !strings.Contains(out, word) {
				t.Errorf("width %d: %q is missing:\n%s", width, word, out)
			}
		}
	}
}

func TestASmallTableStaysSmall(t *testing.T) {
	md := "| a | b |\n|---|:-:|\n| 1 | 22 |\n"
	for _, width := range []int{60, 80, 120} {
		out := ansi.Strip(RenderMarkdown(md, width, true, Dark))
		if want := "  a │ b\n  ──┼───\n  1 │ 22\n"; out != want {
			t.Errorf("width %d: got\n%s\nwant\n%s", width, out, want)
		}
	}
}

func TestProseHasNoTrailingSpaces(t *testing.T) {
	md := "# Title\n\nA paragraph long enough to be wrapped at sixty columns, with *emphasis* and `code`.\n\n- one\n- two\n"
	for _, width := range []int{60, 80, 120} {
		out := RenderMarkdown(md, width, false, Dark)
		for _, line := range strings.Split(ansi.Strip(out), "\n") {
			if strings.TrimRight(line, " ") != line || runewidth.StringWidth(line) > width {
				t.Errorf("width %d: line %q", width, line)
			}
		}
	}
}
