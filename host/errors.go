package host

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// The errors a program can branch on with errors.Is. The mcphost command
// maps exactly these to its exit codes.
var (
	// ErrConfig is a problem in the configuration or the options: a bad
	// config file, setting, model name, built-in server option, audit log
	// path or session file. errors.As with *[config.Error] names the file
	// and field where one is at fault.
	ErrConfig = errors.New("configuration error")
	// ErrNoModel is returned (wrapped, matching [ErrConfig] too) by a turn
	// on a [Host] that has no model.
	ErrNoModel = &noModelError{}
	// ErrModelNotFound: the engine does not have the model.
	ErrModelNotFound = errors.New("model not found")
	// ErrUnreachable: the model's engine did not answer at all.
	ErrUnreachable = errors.New("provider unreachable")
	// ErrProvider: any other failure the engine reported.
	ErrProvider = errors.New("provider error")
	// ErrPromptBlocked: a UserPromptSubmit hook blocked the prompt; the
	// error says why. Nothing was sent to the model.
	ErrPromptBlocked = errors.New("the prompt was blocked by a hook")
	// ErrNoServers: MCP servers were configured and none could start.
	// The error wraps each server's *[ServerError]: errors.As finds the
	// first, and its Unwrap() []error lists them all.
	ErrNoServers = errors.New("no MCP server could start")
	// ErrServerStart matches the failure of one server to start (in [New],
	// or at its first call when it started lazily, see [StartMode]):
	// errors.As with *[ServerError] gives the server's name.
	ErrServerStart = errors.New("an MCP server could not start")
	// ErrMaxSteps: the model was still calling tools at the step limit, or
	// repeated a call ([ErrLoop]), and was asked for a final answer
	// without tools; the [Result] returned with it holds that answer.
	ErrMaxSteps = errors.New("stopped after the maximum number of steps")
	// ErrLoop: the model made the same call with the same arguments
	// several times in a row; errors.Is(err, [ErrMaxSteps]) is also true.
	ErrLoop = errors.New("stopped a repeated tool call")
	// ErrPromptTooLarge: what a model call must send (the system prompt,
	// the tools offered, the user's message with its attachments, the
	// latest tool results) does not fit the context window less the room
	// kept for the answer, even with the older turns left out, so the
	// model was not called: an engine cuts such a prompt itself, losing
	// its start. The error names the biggest part (errors.As with
	// *[runner.PromptTooLargeError] gives it). When it is the turn's first
	// model call, the turn's messages are not added to the conversation.
	ErrPromptTooLarge = errors.New("the prompt does not fit the context window")
	// ErrUnknownTool: [Host.CallTool] was given a name that matches no
	// tool, or several.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrServerUnavailable: the tool's server could not start, exited, or
	// is disabled.
	ErrServerUnavailable = errors.New("server unavailable")
	// ErrUnknownPrompt matches the error of a prompt name no server
	// offers.
	ErrUnknownPrompt = errors.New("unknown prompt")
	// ErrPromptArguments matches the error of a prompt asked for without
	// an argument it requires.
	ErrPromptArguments = errors.New("missing prompt arguments")
	// ErrSignIn: a remote server needs an OAuth sign-in (none is stored,
	// the stored one cannot be refreshed, or the server wants more
	// scopes) and no one could be asked to sign in (see [ask.Asker]);
	// sign in with [Host.Login].
	ErrSignIn = errors.New("sign-in needed")
	// ErrNoSignIn: [Host.Login] was asked to sign in to a server that did
	// not ask for a sign-in.
	ErrNoSignIn = errors.New("the server did not ask for a sign-in")
)

// hostError is err as the Host returns it: when it carries an error of
// the packages the Host is built on that a program may branch on, it is
// wrapped so that errors.Is matches the Host's own error too. Its message
// and its chain (errors.As, the other errors.Is) are err's.
func hostError(err error) error {
	if err == nil {
		return nil
	}
	var he *matchError
	if errors.As(err, &he) {
		return err
	}
	for _, m := range errorMatches() {
		if errors.Is(err, m.inner) {
			return &matchError{err}
		}
	}
	return err
}

// errorMatches pairs each error of the Host with the error of the package
// underneath that it stands for.
func errorMatches() []struct{ host, inner error } {
	return []struct{ host, inner error }{
		{ErrModelNotFound, provider.ErrModelNotFound},
		{ErrUnreachable, provider.ErrUnreachable},
		{ErrProvider, provider.ErrProvider},
		{ErrMaxSteps, runner.ErrMaxSteps},
		{ErrLoop, runner.ErrLoop},
		{ErrPromptTooLarge, runner.ErrPromptTooLarge},
		{ErrUnknownTool, servers.ErrUnknownTool},
		{ErrServerUnavailable, servers.ErrServerUnavailable},
		{ErrUnknownPrompt, servers.ErrUnknownPrompt},
		{ErrPromptArguments, servers.ErrPromptArguments},
		{ErrSignIn, oauth.ErrSignIn},
		{ErrNoSignIn, servers.ErrNoSignIn},
	}
}

// matchError is an error of a package underneath that matches the Host's
// own errors: see hostError.
type matchError struct{ err error }

func (e *matchError) Error() string { return e.err.Error() }
func (e *matchError) Unwrap() error { return e.err }
func (e *matchError) Is(target error) bool {
	for _, m := range errorMatches() {
		if target == m.host {
			return errors.Is(e.err, m.inner)
		}
	}
	return false
}

// noModelError is ErrNoModel: a configuration error of its own.
type noModelError struct{}

func (*noModelError) Error() string {
	return `no model: give one with -m MODEL or the model setting (model: in a config file), e.g. -m ollama:qwen3:8b`
}
func (*noModelError) Is(target error) bool { return target == ErrConfig }

// configError marks err as a configuration error, keeping it for
// errors.As (a *config.Error names the file and field).
func configError(err error) error {
	if err == nil || errors.Is(err, ErrConfig) {
		return err
	}
	return &cfgError{err}
}

type cfgError struct{ err error }

func (e *cfgError) Error() string        { return e.err.Error() }
func (e *cfgError) Unwrap() error        { return e.err }
func (e *cfgError) Is(target error) bool { return target == ErrConfig }

// blockedError is ErrPromptBlocked with the hook's reason.
type blockedError struct{ reason string }

func (e *blockedError) Error() string {
	return "a UserPromptSubmit hook blocked the prompt: " + e.reason
}
func (e *blockedError) Is(target error) bool { return target == ErrPromptBlocked }

// ServerError is the failure of one MCP server to start. It matches
// [ErrServerStart]; a server whose failure was found by a call also
// matches [ErrServerUnavailable].
type ServerError struct {
	// Server is the server's name, as configured.
	Server string
	// Err says what went wrong, as one sentence that names the server:
	// the command that was not found, the exit status with the first
	// lines the server wrote to stderr, the start timeout, the HTTP
	// status or the network failure. A timeout matches
	// context.DeadlineExceeded.
	Err error
}

func (e *ServerError) Error() string { return e.Err.Error() }

// Unwrap returns [ServerError.Err].
func (e *ServerError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrServerStart].
func (e *ServerError) Is(target error) bool { return target == ErrServerStart }

// serverError is err as a *ServerError when it holds a server's start
// failure, and err otherwise.
func serverError(err error) error {
	var se *servers.StartError
	var own *ServerError
	if err == nil || errors.As(err, &own) || !errors.As(err, &se) {
		return err
	}
	return &ServerError{Server: se.Server, Err: err}
}

// noServersError is ErrNoServers with every server's *ServerError.
type noServersError struct {
	configured int
	errs       []error
	// warned is true when the errors went to Options.Warn already (the
	// mcphost command prints them there), so the message refers to them.
	warned bool
}

func (e *noServersError) Error() string {
	if e.warned || len(e.errs) == 0 {
		return fmt.Sprintf("%v (%d configured): fix the errors above or run without them", ErrNoServers, e.configured)
	}
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return fmt.Sprintf("%v (%d configured): %s", ErrNoServers, e.configured, strings.Join(msgs, "; "))
}

// Unwrap returns each server's *ServerError.
func (e *noServersError) Unwrap() []error { return e.errs }

// Is reports whether target is ErrNoServers.
func (e *noServersError) Is(target error) bool { return target == ErrNoServers }
