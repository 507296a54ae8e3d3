package servers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/sysproc"
)

// The shutdown of a stdio server, as the MCP spec describes it, applied to
// its whole process tree (see sysproc): close its stdin, wait stdinGrace
// for it to exit, ask the tree to terminate (SIGTERM; on Windows this ends
// it), wait termGrace, kill it and allow killGrace for the kernel to finish.
const (
	stdinGrace = time.Second
	termGrace  = 2 * time.Second
	killGrace  = time.Second
	// orphanDrain is how long stdout may stay open after the server itself
	// exited: a process that escaped the tree (possible on macOS, see
	// sysproc) could hold it for ever.
	orphanDrain = 500 * time.Millisecond
)

// maxStderrLine bounds one kept stderr line; the rest of a longer line is
// dropped but still read, so the server never blocks on a full pipe.
const maxStderrLine = 4096

// junkPrefix marks the lines of a server's log that came from its stdout
// but were not JSON-RPC.
const junkPrefix = "stdout: "

// errCommandNotFound marks a stdio command that is not on PATH or not a file.
var errCommandNotFound = errors.New("command not found")

// proc is a stdio server's process tree and our ends of its pipes.
type proc struct {
	mu     sync.Mutex
	tree   *sysproc.Tree // nil until started
	killed bool          // the tree must die as soon as it exists

	cmd    *exec.Cmd
	stdin  *os.File // our end
	stdout *os.File // our end
	// child holds the child's ends until it has them.
	child      []*os.File
	exited     chan struct{} // closed once the root has been reaped and the rest of the tree ended
	stderrDone chan struct{} // closed when every writer of stderr is gone
	log        *slog.Logger
}

// killTree kills the whole process tree, so that grandchildren (npx →
// node, sh → server) die with the server; a kill requested before the
// start happens as soon as the tree exists, so a start timeout cannot miss
// the process.
func (p *proc) killTree() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.killed = true
	if p.tree != nil {
		_ = p.tree.Kill()
	}
}

// terminate asks the whole tree to stop.
func (p *proc) terminate() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tree != nil && !p.killed {
		_ = p.tree.Terminate()
	}
}

func (p *proc) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tree != nil
}

// waitExit waits, at most d, for the leader to be reaped, and reports
// whether it was.
func (p *proc) waitExit(d time.Duration) bool {
	if !p.running() {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// waitStderr waits, at most d, until the last stderr line has been read.
func (p *proc) waitStderr(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
}

// exitStatus describes how the process ended ("exit status 3"), or "" while
// it has not been reaped.
func (p *proc) exitStatus() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	if p.cmd.ProcessState == nil {
		return ""
	}
	return p.cmd.ProcessState.String()
}

// ending describes how the process ended, for a message: "exited (exit
// status 3)", "was killed (signal: killed)"; "exited" while it has not
// been reaped.
func (p *proc) ending() string {
	st := p.exitStatus()
	switch {
	case st == "":
		return "exited"
	case p.cmd.ProcessState.Exited():
		return "exited (" + st + ")"
	default:
		return "was killed (" + st + ")"
	}
}

// exitedNormally reports whether the process ended by itself with an exit
// code, rather than by a signal.
func (p *proc) exitedNormally() bool {
	select {
	case <-p.exited:
		return p.cmd.ProcessState != nil && p.cmd.ProcessState.Exited()
	default:
		return false
	}
}

// start starts the process tree and the goroutine that reaps it.
func (p *proc) start() error {
	tree, err := sysproc.Start(p.cmd)
	for _, f := range p.child {
		f.Close() // the child has its own copies now
	}
	p.child = nil
	if err != nil {
		p.stdin.Close()
		p.stdout.Close()
		return err
	}
	p.mu.Lock()
	p.tree = tree
	if p.killed {
		_ = tree.Kill()
	}
	p.mu.Unlock()
	go p.reap(tree)
	return nil
}

// reap waits for the root to exit, then ends what is left of its tree: a
// server that is gone must not leave workers behind. Once the tree is dead
// its stdout reaches EOF; a process that escaped it may still hold it, so
// it is closed after orphanDrain regardless.
func (p *proc) reap(tree *sysproc.Tree) {
	<-tree.Done()
	ctx, cancel := context.WithTimeout(context.Background(), killGrace)
	tree.End(ctx)
	cancel()
	close(p.exited)
	time.Sleep(orphanDrain)
	p.stdout.Close()
}

// shutdown ends the server gracefully, and at worst by force, in at most
// stdinGrace + termGrace + killGrace.
func (p *proc) shutdown() {
	p.stdin.Close()
	if p.waitExit(stdinGrace) {
		return
	}
	p.log.Debug("server still running after its stdin closed: asking it to terminate", "after", stdinGrace)
	p.terminate()
	if p.waitExit(termGrace) {
		return
	}
	p.log.Debug("server still running after it was asked to terminate: killing it", "after", termGrace)
	p.killTree()
	p.waitExit(killGrace)
}

// stdinPipe is the SDK's writer: closing it shuts the server down.
type stdinPipe struct{ p *proc }

func (s stdinPipe) Write(b []byte) (int, error) { return s.p.stdin.Write(b) }

// Close runs the whole shutdown sequence. The SDK closes the connection
// when the server's stdout ends or when we close the session.
func (s stdinPipe) Close() error {
	s.p.shutdown()
	return nil
}

// stdioTransport starts the server in Connect and speaks newline-delimited
// JSON-RPC with it through the SDK's IOTransport, with a filter in front of
// stdout (see stdoutFilter).
type stdioTransport struct {
	proc       *proc
	maxMessage int
	junk       func(string)
}

// Connect implements mcp.Transport.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	if err := t.proc.start(); err != nil {
		return nil, err
	}
	tr := &mcp.IOTransport{
		Reader: newStdoutFilter(t.proc.stdout, t.maxMessage, t.junk),
		Writer: stdinPipe{t.proc},
		// The filter bounds messages itself, and answers a call whose
		// response is too long instead of ending the session.
		MaxLineLength: -1,
	}
	return tr.Connect(ctx)
}

// newStdio prepares the process of a stdio server without starting it, and
// starts reading its stderr into logs. Lines on stdout that are not
// JSON-RPC go to logs too, marked with junkPrefix.
func newStdio(spec config.ServerSpec, logs *lineRing, logger *slog.Logger, maxMessage int) (*stdioTransport, error) {
	path, err := resolveCommand(spec.Command, spec.Dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = os.Environ()
	// Later entries win in exec's environment, so the spec overrides ours.
	for _, k := range slices.Sorted(maps.Keys(spec.Env)) {
		cmd.Env = append(cmd.Env, k+"="+spec.Env[k])
	}

	// Pipes of our own rather than cmd.StdoutPipe and friends: exec.Cmd.Wait
	// would close them as soon as the leader exits, before we read its last
	// lines, and with an io.Writer it would wait for grandchildren holding
	// them.
	var files []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err1 := pipe()
	outR, outW, err2 := pipe()
	errR, errW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		for _, f := range files {
			f.Close()
		}
		return nil, fmt.Errorf("creating pipes: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	log := logger.With("server", spec.Name)
	p := &proc{
		cmd: cmd, stdin: inW, stdout: outR, child: []*os.File{inR, outW, errW},
		exited: make(chan struct{}), stderrDone: make(chan struct{}), log: log,
	}
	go func() {
		defer close(p.stderrDone)
		defer errR.Close()
		readLines(errR, func(line string) {
			logs.add(line)
			log.Debug("server stderr", "line", line)
		})
	}()
	junk := func(line string) {
		logs.add(junkPrefix + line)
		log.Debug("server stdout is not JSON-RPC: skipped", "line", line)
	}
	return &stdioTransport{proc: p, maxMessage: maxMessage, junk: junk}, nil
}

// release closes the pipes of a process that was never started.
func (p *proc) release() {
	p.mu.Lock()
	started := p.tree != nil
	p.mu.Unlock()
	if started {
		return
	}
	for _, f := range p.child {
		f.Close()
	}
	p.child = nil
	p.stdin.Close()
	p.stdout.Close()
}

// resolveCommand finds the executable of a stdio server up front, so that
// a typo fails at once with "not found" instead of as a broken connection.
func resolveCommand(command, dir string) (string, error) {
	if command == "" {
		return "", fmt.Errorf("no command given: %w", errCommandNotFound)
	}
	if strings.ContainsRune(command, '/') || strings.ContainsRune(command, os.PathSeparator) {
		// exec resolves a relative path against Dir; check the same file.
		check := command
		if dir != "" && !filepath.IsAbs(command) {
			check = filepath.Join(dir, command)
		}
		info, err := os.Stat(check)
		if err != nil || info.IsDir() {
			return "", fmt.Errorf("%s: %w", command, errCommandNotFound)
		}
		return command, nil
	}
	path, err := exec.LookPath(command)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", command, errCommandNotFound)
		}
		return "", err
	}
	return path, nil
}

// readLines calls fn for every line read from r until EOF, cutting lines
// longer than maxStderrLine.
func readLines(r io.Reader, fn func(string)) {
	br := bufio.NewReader(r)
	var line []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(line) < maxStderrLine {
			line = append(line, chunk[:min(len(chunk), maxStderrLine-len(line))]...)
		}
		if err != nil {
			if len(line) > 0 {
				fn(strings.TrimRight(string(line), "\r"))
			}
			return
		}
		if !isPrefix {
			fn(strings.TrimRight(string(line), "\r"))
			line = line[:0]
		}
	}
}
