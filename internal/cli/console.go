package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/mcphost/mcphost/internal/sysproc"
	"github.com/mcphost/mcphost/internal/ui"
)

// errReaderGone ends a run whose stdout or stderr reader went away
// (mcphost ... | head -1): its servers are shut down and it exits quietly.
var errReaderGone = errors.New("the reader of the output went away")

// console is the process's standard streams and the context every command
// runs under, which ends when a reader of its output goes away.
type console struct {
	in       *os.File
	out, err *pipeGuard
	ctx      context.Context
}

func newConsole(stdin, stdout, stderr *os.File) (*console, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	gone := func() { cancel(errReaderGone) }
	return &console{in: stdin, out: &pipeGuard{f: stdout, gone: gone}, err: &pipeGuard{f: stderr, gone: gone}, ctx: ctx},
		func() { cancel(nil) }
}

// readerGone reports whether the run ended because nobody reads its output.
func (c *console) readerGone() bool { return errors.Is(context.Cause(c.ctx), errReaderGone) }

// fail reports err on stderr, masked and on one line, and returns code:
// an interrupted run says only that, and one nobody reads says nothing.
func (c *console) fail(ctx context.Context, code int, err error, mask func(string) string) int {
	if c.readerGone() {
		return exitReaderGone
	}
	if ctx.Err() != nil {
		fmt.Fprintln(c.err, "mcphost: interrupted")
		return exitInterrupted
	}
	fmt.Fprintf(c.err, "mcphost: %s\n", ui.Sanitize(mask(errorText(err))))
	return code
}

// pipeGuard writes to f until its reader goes away: then it ends the run,
// once, and drops what follows instead of failing every write.
type pipeGuard struct {
	f    *os.File
	gone func()
	shut atomic.Bool
}

func (g *pipeGuard) Write(p []byte) (int, error) {
	if g.shut.Load() {
		return len(p), nil
	}
	n, err := g.f.Write(p)
	if err != nil && sysproc.IsBrokenPipe(err) {
		if !g.shut.Swap(true) {
			g.gone()
		}
		return len(p), nil
	}
	return n, err
}
