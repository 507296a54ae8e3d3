package servers

import (
	"errors"
	"io"
	"net"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/sysproc"
)

// Kinds of Call failure, for errors.Is.
var (
	// ErrUnknownTool means no server exposes a tool of that name.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrServerUnavailable means the tool's server is not running: it
	// failed to start, exited, is restarting, was disabled, or the manager
	// was closed.
	ErrServerUnavailable = errors.New("server unavailable")
	// ErrToolTimeout means the call got no answer within the server's
	// tool timeout; the server was told to cancel it.
	ErrToolTimeout = errors.New("tool call timed out")
	// ErrAuth means an HTTP server refused our credentials (401) or the
	// access (403).
	ErrAuth = errors.New("authentication failed")
	// ErrUnknownPrompt means no server offers a prompt of that name.
	ErrUnknownPrompt = errors.New("unknown prompt")
	// ErrPromptArguments means a prompt was asked for without an argument
	// it requires.
	ErrPromptArguments = errors.New("missing prompt arguments")
)

// StartError is the failure of one server to start, worded for the user.
type StartError struct {
	// Server is the server's name as configured.
	Server string
	// Message is one sentence naming the server and what went wrong.
	Message string
	// Err is the underlying cause, for errors.Is and errors.As.
	Err error
}

func (e *StartError) Error() string { return e.Message }

// Unwrap returns the underlying cause.
func (e *StartError) Unwrap() error { return e.Err }

// kindError is a Call failure already worded for the user, matching one of
// the sentinel kinds above under errors.Is.
type kindError struct {
	kind error
	msg  string
	err  error
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Is(target error) bool { return target == e.kind }

func (e *kindError) Unwrap() error { return e.err }

// connLost reports whether err means the connection to the server is gone,
// as opposed to the server answering with an error.
func connLost(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, os.ErrClosed) ||
		sysproc.IsBrokenPipe(err)
}

// netCause returns the network failure inside err ("connection refused",
// "no such host"), or "" when err is not one. The SDK's own wrapping
// ("calling \"initialize\": sending ...") means nothing to a user.
func netCause(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.Error()
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		var sysErr *os.SyscallError
		if errors.As(opErr.Err, &sysErr) {
			return sysErr.Err.Error()
		}
		return opErr.Err.Error()
	}
	return ""
}
