package builtin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BashOptions configure the bash server.
type BashOptions struct {
	// WorkingDir is where commands run; empty means the working directory.
	WorkingDir string `json:"working_dir"`
	// Timeout is the default and the longest time a command may run.
	Timeout Duration `json:"timeout"`
	// MaxOutput caps the bytes of output returned to the model.
	MaxOutput int `json:"max_output"`
	// Shell runs the command as `SHELL -c COMMAND`; empty means bash, or
	// sh where there is no bash.
	Shell string `json:"shell"`
}

// Defaults of the bash server.
const (
	bashTimeout   = 60 * time.Second
	bashMaxOutput = 30000
	// bashWaitDelay bounds the wait for output pipes once the command is
	// done or killed, in case something it started still holds them.
	bashWaitDelay = 2 * time.Second
)

type bashServer struct {
	dir, shell string
	timeout    time.Duration
	maxOutput  int
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
	s := &bashServer{dir: o.WorkingDir, timeout: time.Duration(o.Timeout), maxOutput: o.MaxOutput, shell: o.Shell}
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
		return nil, fmt.Errorf("working_dir %q: %v", s.dir, err)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("working_dir %q is not an existing directory: create it or fix the path", o.WorkingDir)
	}
	s.dir = abs
	if s.shell == "" {
		s.shell = "bash"
		if _, err := exec.LookPath("bash"); err != nil {
			s.shell = "sh"
		}
	}
	if _, err := exec.LookPath(s.shell); err != nil {
		return nil, fmt.Errorf("shell %q not found: install it or set the shell option", s.shell)
	}
	return s, nil
}

// serve registers the tool. Each call's command ends with its call, so
// there is nothing to release.
func (s *bashServer) serve(context.Context) *mcp.Server {
	srv := mcp.NewServer(implementation("bash"), nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "run",
		Description: fmt.Sprintf("Run a shell command with %s -c in %s and return its output (stdout and stderr together, at most %d bytes) and exit status. It is killed after %s (less with timeout_seconds); it gets no input, and nothing it starts outlives it.",
			s.shell, s.dir, s.maxOutput, s.timeout),
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

	cmd := exec.CommandContext(runCtx, s.shell, "-c", in.Command)
	cmd.Dir = s.dir
	// Its own process group, so that a timeout or an interrupt kills what
	// the command started too, not only the shell.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = bashWaitDelay
	out := &cappedBuffer{limit: s.maxOutput}
	cmd.Stdout, cmd.Stderr = out, out // one pipe, so the order is kept

	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		// Background jobs the command left behind go with it.
		_ = killGroup(cmd)
	}
	elapsed := time.Since(start).Round(time.Millisecond)

	var b strings.Builder
	b.WriteString(out.String())
	if out.total > out.limit {
		fmt.Fprintf(&b, "\n[output truncated: %d bytes in all, the first %d shown]", out.total, out.limit)
	}
	status, isErr := "exit status 0", false
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		status, isErr = "cancelled", true
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		status, isErr = fmt.Sprintf("killed after the %s timeout", timeout), true
	case errors.As(err, &exitErr):
		status, isErr = fmt.Sprintf("exit status %d", exitErr.ExitCode()), true
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
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

// killGroup kills the command's whole process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
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
