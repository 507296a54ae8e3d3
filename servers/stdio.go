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
	"syscall"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// terminateDuration is how long the SDK waits after closing a server's
// stdin before it sends SIGTERM, and again before SIGKILL. Servers that
// exit on EOF do so at once; the rest should not hold up shutdown.
const terminateDuration = time.Second

// maxStderrLine bounds one kept stderr line; the rest of a longer line is
// dropped but still read, so the server never blocks on a full pipe.
const maxStderrLine = 4096

// errCommandNotFound marks a stdio command that is not on PATH or not a file.
var errCommandNotFound = errors.New("command not found")

// proc is a stdio server's process group and the reader of its stderr.
type proc struct {
	mu     sync.Mutex
	pid    int  // the group leader, 0 until started
	killed bool // the group must die as soon as it exists

	cmd        *exec.Cmd
	stderrDone chan struct{} // closed when every writer of stderr is gone
}

// started records the leader's pid; a kill requested before the start
// happens now, so a start timeout cannot miss the process.
func (p *proc) started(pid int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pid = pid
	if p.killed {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// killGroup sends SIGKILL to the whole process group, so that grandchildren
// (npx → node, sh → server) die with the server.
func (p *proc) killGroup() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.killed = true
	if p.pid > 0 {
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
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
// it has not been reaped. Only call it after the SDK closed the connection,
// which is when it reaps the process.
func (p *proc) exitStatus() string {
	if p.cmd.ProcessState == nil {
		return ""
	}
	return p.cmd.ProcessState.String()
}

// exitedNormally reports whether the process ended by itself with an exit
// code, rather than by a signal.
func (p *proc) exitedNormally() bool {
	return p.cmd.ProcessState != nil && p.cmd.ProcessState.Exited()
}

// stdioTransport is mcp.CommandTransport plus what the SDK leaves to us:
// recording the process group and closing our copy of the stderr pipe once
// the child holds its own.
type stdioTransport struct {
	inner   *mcp.CommandTransport
	stderrW *os.File
	proc    *proc
}

// Connect implements mcp.Transport.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	// Ours must be closed for the reader to see EOF when the server exits.
	t.stderrW.Close()
	if err != nil {
		return nil, err
	}
	t.proc.started(t.inner.Command.Process.Pid)
	return conn, nil
}

// newStdio prepares the command of a stdio server without starting it, and
// starts reading its stderr into logs.
func newStdio(spec config.ServerSpec, logs *lineRing, logger *slog.Logger) (*stdioTransport, error) {
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	// A pipe of our own rather than cmd.StderrPipe: exec.Cmd.Wait (which the
	// SDK calls) would close that pipe before we read the last lines, and
	// with an io.Writer it would wait for grandchildren holding stderr.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("creating stderr pipe: %w", err)
	}
	cmd.Stderr = w
	p := &proc{cmd: cmd, stderrDone: make(chan struct{})}
	go func() {
		defer close(p.stderrDone)
		defer r.Close()
		readLines(r, func(line string) {
			logs.add(line)
			logger.Debug("server stderr", "server", spec.Name, "line", line)
		})
	}()
	return &stdioTransport{
		inner:   &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateDuration},
		stderrW: w,
		proc:    p,
	}, nil
}

// resolveCommand finds the executable of a stdio server up front, so that
// a typo fails at once with "not found" instead of as a broken connection.
func resolveCommand(command, dir string) (string, error) {
	if command == "" {
		return "", fmt.Errorf("no command given: %w", errCommandNotFound)
	}
	if strings.ContainsRune(command, os.PathSeparator) {
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
