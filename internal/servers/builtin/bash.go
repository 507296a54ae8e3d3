package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/sysproc"
)

// BashOptions configure the bash server.
type BashOptions struct {
	// WorkingDir is where commands run; empty means the working directory.
	WorkingDir string `json:"working_dir"`
	// Timeout is the default and the longest time a command may run.
	Timeout Duration `json:"timeout"`
	// MaxOutput caps the bytes of output returned to the model.
	MaxOutput int `json:"max_output"`
	// Shell runs the command: a POSIX shell as `SHELL -c COMMAND`, PowerShell
	// (powershell, pwsh) with -Command and cmd with /c. Empty means bash, or
	// sh where there is no bash; on Windows Git Bash, else PowerShell, else
	// cmd (see defaultShells).
	Shell string `json:"shell"`
}

// Defaults of the bash server.
const (
	bashTimeout   = 60 * time.Second
	bashMaxOutput = 30000
	// bashWaitDelay bounds the wait for the output pipe once the command's
	// processes are gone, in case one that escaped them (possible on macOS,
	// see sysproc) still holds it.
	bashWaitDelay = 2 * time.Second
	// bashEndWait bounds the wait for the command's processes to be gone
	// once they were killed.
	bashEndWait = 5 * time.Second
)

type bashServer struct {
	dir       string
	shell     shell
	timeout   time.Duration
	maxOutput int
}

// NewBash returns the bash server.
func NewBash(o BashOptions) (*mcp.Server, error) {
	s, err := newBashServer(o)
	if err != nil {
		return nil, err
	}
	return s.serve(context.Background()), nil
}

// newBashServer checks o and fills in the defaults.
func newBashServer(o BashOptions) (*bashServer, error) {
	s := &bashServer{dir: o.WorkingDir, timeout: time.Duration(o.Timeout), maxOutput: o.MaxOutput}
	if s.timeout == 0 {
		s.timeout = bashTimeout
	}
	if s.maxOutput == 0 {
		s.maxOutput = bashMaxOutput
	}
	if s.maxOutput < 0 {
		return nil, errors.New("max_output must be a positive number of bytes")
	}
	if s.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("cannot find the working directory: %v", err)
		}
		s.dir = wd
	}
	abs, err := filepath.Abs(s.dir)
	if err != nil {
		return nil, fmt.Errorf("working_dir %s: %v", quotePath(s.dir), err)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("working_dir %s is not an existing directory: create it or fix the path", quotePath(o.WorkingDir))
	}
	s.dir = abs
	if s.shell, err = findShell(o.Shell, runtime.GOOS, exec.LookPath, os.Getenv); err != nil {
		return nil, err
	}
	return s, nil
}

// serve registers the tool. Each call's command ends with its call, so
// there is nothing to release.
func (s *bashServer) serve(context.Context) *mcp.Server {
	srv := mcp.NewServer(implementation("bash"), nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "run",
		Description: fmt.Sprintf("Run a command line with %s in %s and return its output (stdout and stderr together, at most %d bytes) and exit status. It is killed after %s (less with timeout_seconds); it gets no input, and nothing it starts outlives it.",
			s.shell.describe(), s.dir, s.maxOutput, s.timeout),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.run)
	return srv
}

func (s *bashServer) close() {}

type runArgs struct {
	Command        string `json:"command" jsonschema:"the shell command line to run"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"stop the command after this many seconds (at most the configured limit)"`
}

func (s *bashServer) run(ctx context.Context, _ *mcp.CallToolRequest, in runArgs) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, errors.New("the command is empty")
	}
	timeout := s.timeout
	if in.TimeoutSeconds > 0 && time.Duration(in.TimeoutSeconds)*time.Second < timeout {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := s.shell.command(in.Command)
	cmd.Dir = s.dir
	// One pipe for stdout and stderr, so the order is kept; our own rather
	// than exec's, so that the command's end is not held up by what still
	// holds the pipe.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot run the command: %v", err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	start := time.Now()
	// A tree of its own, so that the end of the command, a timeout or an
	// interrupt ends what it started too, even what left its process group.
	tree, err := sysproc.Start(cmd)
	w.Close()
	if err != nil {
		r.Close()
		return nil, nil, fmt.Errorf("cannot run the command: %v", err)
	}
	out := &cappedBuffer{limit: s.maxOutput}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, r)
		close(copied)
	}()
	stopped := false
	select {
	case <-tree.Done():
	case <-runCtx.Done():
		stopped = true
	}
	endCtx, endCancel := context.WithTimeout(context.Background(), bashEndWait)
	tree.End(endCtx) // background jobs the command left behind go with it
	endCancel()
	<-tree.Done()
	drain := time.NewTimer(bashWaitDelay)
	select {
	case <-copied:
	case <-drain.C:
	}
	drain.Stop()
	r.Close()
	elapsed := time.Since(start).Round(time.Millisecond)

	var b strings.Builder
	b.WriteString(out.String())
	if out.total > out.limit {
		fmt.Fprintf(&b, "\n[output truncated: %d bytes in all, the first %d shown]", out.total, out.limit)
	}
	status, isErr := "exit status 0", false
	var exitErr *exec.ExitError
	switch err := tree.Err(); {
	case stopped && ctx.Err() != nil:
		status, isErr = "cancelled", true
	case stopped:
		status, isErr = fmt.Sprintf("killed after the %s timeout", timeout), true
	case errors.As(err, &exitErr):
		status, isErr = fmt.Sprintf("exit status %d", exitErr.ExitCode()), true
	case err != nil:
		return nil, nil, fmt.Errorf("cannot run the command: %v", err)
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[%s, %s]", status, elapsed)
	res := textResult(b.String())
	res.IsError = isErr
	return res, nil, nil
}

// cappedBuffer keeps the first limit bytes written and counts the rest.
type cappedBuffer struct {
	mu    sync.Mutex
	limit int
	total int
	buf   []byte
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += len(p)
	if room := c.limit - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.ToValidUTF8(string(c.buf), "�")
}
