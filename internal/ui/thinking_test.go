package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
)

func TestWordWrapStreamed(t *testing.T) {
	text := "Okay, the user wants the weather in Paris. I should call the weather tool with city=Paris\n\nand then answer briefly. A supercalifragilisticexpialidocious word is longer than a row."
	for _, width := range []int{20, 33, 80} {
		for _, piece := range []int{1, 3, 7, 1000} {
			t.Run(fmt.Sprintf("width %d piece %d", width, piece), func(t *testing.T) {
				ww := wordWrap{width: width}
				var out strings.Builder
				for i := 0; i < len(text); i += piece {
					out.WriteString(ww.Write(text[i:min(i+piece, len(text))]))
				}
				out.WriteString(ww.Flush())
				lines := strings.Split(out.String(), "\n")
				if ww.rows != len(lines) {
					t.Errorf("counted %d rows, wrote %d:\n%s", ww.rows, len(lines), out.String())
				}
				for _, l := range lines {
					if runewidth.StringWidth(l) > width {
						t.Errorf("row %q is wider than %d", l, width)
					}
					if strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") {
						t.Errorf("row %q starts or ends with a space", l)
					}
				}
				// Only the word longer than a row is cut; every other word
				// stays whole, and the text is the same but for where the
				// rows break.
				joined := strings.Join(strings.Fields(out.String()), " ")
				if want := strings.Join(strings.Fields(text), " "); width >= 35 && joined != want {
					t.Errorf("text changed:\n got %q\nwant %q", joined, want)
				}
				if width < 35 && !strings.Contains(out.String(), "weather tool") && !strings.Contains(out.String(), "weather\ntool") {
					t.Errorf("a word was cut:\n%s", out.String())
				}
			})
		}
	}
}

func TestThinkingCollapses(t *testing.T) {
	var out strings.Builder
	start := time.Unix(100, 0)
	v := newThinkingView(&out, 20, true, start)
	v.write("\n")
	v.write("\none two three four five six seven eight nine ten")
	v.end("", start.Add(3200*time.Millisecond))
	got := out.String()
	// "thinking: one two" and 2 more rows: the cursor goes up 2 rows and the
	// screen is cleared from there.
	if !strings.Contains(got, "\r\x1b[2A\x1b[J") {
		t.Errorf("the thinking is not erased: %q", got)
	}
	if !strings.HasSuffix(got, "\x1b[Jthought for 3.2 s\n") {
		t.Errorf("no summary line: %q", got)
	}
}

// A long thinking shows its last rows only, redrawn in place, so that it
// can still be erased whole once the answer comes.
func TestLongThinkingKeepsToItsLastRows(t *testing.T) {
	var out strings.Builder
	start := time.Unix(100, 0)
	v := newThinkingView(&out, 20, true, start)
	for i := range 40 {
		v.write(fmt.Sprintf("step %d of the reasoning. ", i))
	}
	v.end("", start.Add(65*time.Second))
	got := out.String()
	for _, up := range regexp.MustCompile(`\x1b\[(\d+)A`).FindAllStringSubmatch(got, -1) {
		if n, _ := strconv.Atoi(up[1]); n > maxThinkingRows-1 {
			t.Fatalf("the cursor went up %d rows, past the %d-row block: %q", n, maxThinkingRows, got)
		}
	}
	// What the terminal ends with: each erase clears what follows it.
	last := got[strings.LastIndex(got, "\x1b[J")+len("\x1b[J"):]
	if last != "thought for 1 min 5 s\n" {
		t.Errorf("the block ends as %q", last)
	}
	if !strings.Contains(got, "step 39 of the\nreasoning.") {
		t.Errorf("the last rows were not shown: %q", got[max(0, len(got)-300):])
	}
}
