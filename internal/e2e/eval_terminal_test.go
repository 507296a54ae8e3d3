//go:build linux

package e2e

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestEvalInATerminal checks what a person at a terminal gets: the
// question whether to trust a task file that sets approval rules (yes
// records it, so the next run, piped, needs no asking), a progress line
// on stderr while the runs go, and the report after it.
func TestEvalInATerminal(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels)
	dir, home := t.TempDir(), t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", "approval:\n  allow: [fs__read_file]\ntasks:\n  - name: polite\n    prompt: hi\n    expect: {answer: rather}\n    repeat: 2\n")
	inv := invocation{args: []string{"eval", tasks, "-m", "ollama:silent"}, dir: dir, home: home, host: ollama.URL, untrusted: true}

	st := newSilentTerminal(t)
	cmd := inv.command(t)
	st.start(t, cmd)
	st.waitFor(t, "Trust tasks.yaml and run it? [y/N] ")
	st.type_(t, "y\n")
	err := cmd.Wait()
	// With the program gone and the test's end closed, the reader gets
	// what was left in the terminal.
	st.pts.Close()
	<-st.closed
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	out := st.output()
	if err != nil {
		t.Fatalf("exit %v: %q", err, out)
	}
	for _, want := range []string{"tasks.yaml runs the tools fs__read_file without asking.", "Trusted tasks.yaml.", "\r\x1b[Keval 1/2  ollama:silent  ✓ polite", "\r\x1b[Keval 2/2", "ollama:silent: passes every task"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, out)
		}
	}
	if strings.Index(out, "eval 2/2") > strings.Index(out, "TASK ") {
		t.Errorf("the progress line came after the report:\n%q", out)
	}

	// Trusted now: a piped run needs no question, and shows no progress.
	piped := runBinary(t, inv)
	if piped.code != 0 || strings.Contains(piped.stderr, "eval 1/") || !strings.Contains(piped.stdout, "polite  2/2") {
		t.Errorf("piped after trusting: exit %d, stdout %q, stderr %q", piped.code, piped.stdout, piped.stderr)
	}
}

// TestEvalInterruptedReportsWhatRan checks that Ctrl-C stops an eval at
// once, with the report of the runs that ended and exit 130.
func TestEvalInterruptedReportsWhatRan(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	never := make(chan struct{})
	defer close(never)
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if req.Model == "stuck" {
			return ollamatest.Reply{Hold: never}
		}
		return scriptedModels(req)
	})
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", echoTasks(t, 2))
	cmd := invocation{args: []string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:stuck", "-m", "ollama:text"}, dir: dir, host: ollama.URL}.command(t)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// right's two runs take two requests each; the fifth is stuck's.
	waitFor(t, func() bool { return ollama.RequestCount() >= 5 })
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.Contains(stderr.String(), "mcphost: interrupted") {
		t.Fatalf("exit %v, stderr %q", err, stderr.String())
	}
	out := stdout.String()
	if !regexp.MustCompile(`(?m)^echo-kiwi +2/2 +0/0$`).MatchString(out) || strings.Contains(out, "ollama:text") {
		t.Errorf("the report of what ran:\n%s", out)
	}
}
