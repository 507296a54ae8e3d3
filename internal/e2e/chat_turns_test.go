//go:build linux

package e2e

// The chat's commands on turns (/undo, /retry, /compact, /copy), the
// status line after an answer and an interrupted answer, as a user sees
// them in tmux, with what the scripted model was sent.

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// lastSent is the contents of the messages of the model's last request
// that are not the system prompt.
func lastSent(ollama *ollamatest.Server) []string {
	reqs := ollama.Requests()
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role != "system" {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestChatUndoRetryCompactAndTheStatusLine(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{Content: "Answer one."},
		ollamatest.Reply{Content: "Answer two."},
		ollamatest.Reply{Content: "Answer three.", EvalCount: 40, PromptEvalCount: 1000},
		ollamatest.Reply{Content: "Answer three again."},
		ollamatest.Reply{Content: "They talked about numbers."},
		ollamatest.Reply{Content: "Answer four."},
	)
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("first")
	term.waitFor("Answer one.")
	term.typeLine("second")
	term.waitFor("Answer two.")
	term.typeLine("/undo")
	term.waitFor("Dropped the last turn (2 messages): you: second")
	term.typeLine("third")
	term.waitFor("Answer three.")
	if got := strings.Join(lastSent(ollama), "|"); got != "first|Answer one.|third" {
		t.Errorf("after /undo the model was sent %q, want the undone turn left out", got)
	}
	// The status line, which follows the answer: speed and how full the
	// window is (1,040 tokens).
	term.waitForMatch(regexp.MustCompile(`\d+ tok/s · 1k/[\d.]+k context \(\d+%\)`))

	term.typeLine("/retry")
	term.waitFor("Retrying: third")
	term.waitFor("Answer three again.")
	if got := strings.Join(lastSent(ollama), "|"); got != "first|Answer one.|third" {
		t.Errorf("/retry sent %q, want the last prompt again without its answer", got)
	}

	term.typeLine("/compact")
	s := term.waitFor("Compacted 2 messages into a summary")
	if !regexp.MustCompile(`about \d+ → \d+ tokens; the last 1 turn\(s\) stay as they were`).MatchString(s) {
		t.Errorf("/compact does not report the tokens before and after:\n%s", s)
	}
	if sent := lastSent(ollama); len(sent) != 3 || sent[0] != "first" || !strings.Contains(sent[2], "Summarise our conversation") {
		t.Errorf("the summary request held %q, want the older turn and the request to summarise", sent)
	}
	term.typeLine("fourth")
	term.waitFor("Answer four.")
	got := strings.Join(lastSent(ollama), "|")
	want := "Summary of the conversation so far:\n\nThey talked about numbers.|Understood: I will go on from this summary.|third|Answer three again.|fourth"
	if got != want {
		t.Errorf("after /compact the model was sent\n%q\nwant\n%q", got, want)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatCopiesTheLastAnswerByOSC52(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Copy me: `go test ./...`"})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	// tmux takes OSC 52 into its paste buffer with set-clipboard on.
	term.tmux("set", "-g", "set-clipboard", "on")
	term.waitFor("servers ready")
	term.typeLine("/copy")
	term.waitFor("There is no answer to copy yet.")
	term.typeLine("give me the command")
	term.waitFor("Copy me")
	term.typeLine("/copy")
	term.waitFor("Copied the last answer (1 lines")
	if got := term.tmux("show-buffer"); got != "Copy me: `go test ./...`" {
		t.Errorf("tmux's buffer holds %q, want the last answer", got)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatInterruptedAnswerStaysInHistory(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Chunks: []string{"The first half ", "of a long answer"}, Stall: true}, ollamatest.Reply{Content: "Going on."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	term.typeLine("tell me a long story")
	term.waitFor("of a long answer")
	term.keys("C-c")
	term.waitFor("(cancelled: the conversation goes on)")
	term.typeLine("/history")
	term.waitFor("assistant: The first half of a long answer [interrupted]")
	term.typeLine("go on")
	term.waitFor("Going on.")
	if sent := lastSent(ollama); len(sent) != 3 || sent[1] != "The first half of a long answer\n\n[interrupted]" {
		t.Errorf("the model was sent %q, want its interrupted answer marked", sent)
	}
	term.keys("C-d")
	term.waitExit()
}

// TestChatCtrlCCancelsACompaction is Ctrl-C while the model summarises
// the conversation for /compact: the compaction is given up, the
// conversation is left whole and the chat goes on.
func TestChatCtrlCCancelsACompaction(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	defer close(hold)
	ollama.Enqueue(
		ollamatest.Reply{Content: "Answer one."},
		ollamatest.Reply{Content: "Answer two."},
		ollamatest.Reply{Content: "never", Hold: hold},
		ollamatest.Reply{Content: "Still here."},
	)
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	term.typeLine("first")
	term.waitFor("Answer one.")
	term.typeLine("second")
	term.waitFor("Answer two.")

	term.typeLine("/compact")
	term.waitFor("(Ctrl-C cancels)")
	waitFor(t, func() bool { return ollama.RequestCount() == 3 })
	term.keys("C-c")
	term.waitFor("(compacting cancelled: the conversation is unchanged)")
	term.typeLine("third")
	term.waitFor("Still here.")
	if got := strings.Join(lastSent(ollama), "|"); got != "first|Answer one.|second|Answer two.|third" {
		t.Errorf("after the cancelled /compact the model was sent %q, want the whole conversation", got)
	}
	term.typeLine("/quit")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
