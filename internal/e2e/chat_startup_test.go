//go:build linux

package e2e

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// gate makes a named pipe a fault server started with -start-gate waits
// at, and returns its path and a function that lets the server through.
func (e *faultEnv) gate() (string, func()) {
	e.t.Helper()
	path := e.path("gate")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		e.t.Fatal(err)
	}
	return path, func() {
		// Opening for writing waits for the server to open the pipe for
		// reading, then lets it go on.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			e.t.Error(err)
			return
		}
		f.Close()
	}
}

// gatedServer configures one fault server, name, that waits at a gate
// before it answers initialize, and returns what opens the gate. A gate
// never opened holds the server until mcphost stops it (opening it then
// would wait for a reader forever).
func (e *faultEnv) gatedServer(name string) (open func()) {
	e.t.Helper()
	gate, open := e.gate()
	e.config(e.server(name, "", "-start-gate", gate))
	return open
}

// TestOneShotShowsServersStarting: a one-shot run on a terminal says
// which servers it is starting while a slow one holds it up, and leaves
// nothing of that line behind; piped, it says nothing of the kind.
func TestOneShotShowsServersStarting(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	gate, open := e.gate()
	e.config(e.server("fast", ""), e.server("slow", "", "-start-gate", gate))
	model := ollamatest.NewServer()
	defer model.Close()
	model.Enqueue(ollamatest.Reply{Content: "The answer."}, ollamatest.Reply{Content: "Piped answer."})

	term := startTerminalHeld(t, e.dir, chatEnv(t, model.URL), "-m", "tiny", "-p", "hello", "--no-cache")
	// The fast server is ready, the slow one still on its way.
	term.waitFor("starting fast ✓, slow… ")
	open()
	if code := term.waitExit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, term.screen())
	}
	// tmux may still be drawing what mcphost wrote before it exited.
	s := term.waitFor("The answer.")
	if strings.Contains(s, "starting") {
		t.Errorf("the start-up line was left on screen:\n%s", s)
	}

	done := make(chan outcome)
	go func() { done <- e.run(model.URL, "--no-cache") }()
	open()
	out := <-done
	if out.code != 0 || strings.Contains(out.stderr, "starting") || strings.Contains(out.stderr, "\x1b") {
		t.Errorf("a piped run shows the start-up (exit %d): %q", out.code, out.stderr)
	}
}

// TestChatTellsWhenASlowServerIsReady: the chat's prompt takes commands
// while a server waits at its gate, and says when it is ready.
func TestChatTellsWhenASlowServerIsReady(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	open := e.gatedServer("slow")
	model := ollamatest.NewServer()
	defer model.Close()
	term := startTerminal(t, e.dir, chatEnv(t, model.URL), "-m", "tiny")
	term.waitFor("(1 starting)")
	term.typeLine("/servers")
	term.waitFor("… starting")
	open()
	term.waitFor("✓ server slow is ready: ")
	term.typeLine("/quit")
	term.waitExit()
}
