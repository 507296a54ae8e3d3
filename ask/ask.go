// Package ask is everything mcphost puts to a person, in one interface:
// whether a tool call may run, a server's form to fill in (MCP
// elicitation), whether a server may have the model complete its
// messages (MCP sampling), and the URL of an OAuth sign-in to open.
//
// A program gives its [Asker] to host.Options.Asker (or Host.SetAsker);
// the mcphost chat is one. A program that asks only some of these
// questions embeds [Nobody] for the rest:
//
//	type approver struct{ ask.Nobody }
//
//	func (approver) ApproveCall(ctx context.Context, req ask.CallRequest) (ask.Approval, error) {
//		...
//	}
//
// A question no one can be asked (the method returns [ErrNoOne], as
// Nobody's do) gets the answer of a run without a person: the call is
// refused and the user told how to allow it, the form is answered as the
// elicitation setting says (declined by default), the sampling request as
// the sampling setting says (denied by default), and no sign-in happens,
// so the server fails with an error matching host.ErrSignIn.
//
// The package holds only these types: it is what the host, its approval
// layer and its servers agree on, and what a program implements.
package ask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/tool"
)

// Asker is whoever answers the questions mcphost puts to a person. The
// host asks one approval question at a time, even when the model makes
// several calls at once; the other questions may come concurrently, from
// different servers. Each method returns ctx's error when the person
// interrupts, and [ErrNoOne], at once, when it cannot ask anyone.
type Asker interface {
	// ApproveCall asks whether a tool call that needs approval may run.
	ApproveCall(ctx context.Context, req CallRequest) (Approval, error)
	// Elicit has a server's form filled in, or its URL opened (MCP
	// elicitation).
	Elicit(ctx context.Context, req FormRequest) (FormAnswer, error)
	// ApproveSampling asks whether a server may have the model complete
	// its messages (MCP sampling); an approved request is answered by the
	// host's current model, without tools.
	ApproveSampling(ctx context.Context, req SamplingRequest) (bool, error)
	// SignIn shows the URL of an OAuth sign-in a remote server asks for,
	// and opens it in a browser where it can; it returns once the URL is
	// shown, and the host then waits for the browser to come back.
	SignIn(ctx context.Context, req SignInRequest) error
}

// ErrNoOne is what an [Asker] returns for a question no one can be asked:
// the host then answers it as a run without a person does.
var ErrNoOne = errors.New("no one can be asked")

// Nobody is the Asker of a run without a person: every question returns
// [ErrNoOne]. Embed it in a type that asks only some of the questions.
type Nobody struct{}

// ApproveCall returns ErrNoOne: the call is refused.
func (Nobody) ApproveCall(context.Context, CallRequest) (Approval, error) {
	return Approval{}, ErrNoOne
}

// Elicit returns ErrNoOne: the form is answered as configured.
func (Nobody) Elicit(context.Context, FormRequest) (FormAnswer, error) {
	return FormAnswer{}, ErrNoOne
}

// ApproveSampling returns ErrNoOne: the request is decided as configured.
func (Nobody) ApproveSampling(context.Context, SamplingRequest) (bool, error) {
	return false, ErrNoOne
}

// SignIn returns ErrNoOne: no sign-in happens.
func (Nobody) SignIn(context.Context, SignInRequest) error { return ErrNoOne }

// CallRequest is a tool call waiting for a person's yes or no.
type CallRequest struct {
	// Name is the tool as the model calls it ("server__tool"); Server and
	// Tool are the server's name and the server's own tool name.
	Name, Server, Tool string
	// Arguments are the model's, unmodified: the model and the server
	// chose them, so show them as data, never as terminal output.
	Arguments map[string]any
	// Info is the tool's MCP definition, nil when unknown.
	Info *tool.Def
	// Why says why the call is asked rather than allowed.
	Why string
}

// Choice is a person's answer to a [CallRequest].
type Choice int

// The answers to an approval question.
const (
	// No refuses this call; with Approval.Reason set, the model is told
	// why.
	No Choice = iota
	// YesOnce runs this call only.
	YesOnce
	// YesSession runs this call and every later call of the same tool
	// until the Host's session ends.
	YesSession
)

// Approval is a person's decision about one tool call.
type Approval struct {
	Choice Choice
	// Reason, for No, is passed to the model ("use the staging branch").
	Reason string
}

// FormRequest is a server's request for input (MCP elicitation): a form
// to fill in, or a URL to open.
type FormRequest struct {
	// Server is the name of the server that asks.
	Server string
	// Message says what the server wants, in its own words (not cleaned
	// for a terminal: show it as data).
	Message string
	// Mode is "form" or "url".
	Mode string
	// URL is the address to visit, for a URL request.
	URL string
	// ElicitationID identifies a URL request, for the server's later
	// notification that it completed.
	ElicitationID string
	// Schema is the form's JSON Schema: a flat object of primitive
	// properties. Nil for a URL request.
	Schema json.RawMessage
	// Completed, for a URL request with an id, is closed when the server
	// says the person finished what the URL was for
	// (notifications/elicitation/complete); it may never be.
	Completed <-chan struct{}
}

// The actions of a [FormAnswer], as MCP names them.
const (
	// Accept sends Content to the server.
	Accept = "accept"
	// Decline says no to the request.
	Decline = "decline"
	// Cancel dismisses the request without an answer.
	Cancel = "cancel"
)

// FormAnswer is the answer to a [FormRequest].
type FormAnswer struct {
	// Action is Accept, Decline or Cancel.
	Action string
	// Content is the filled-in form, with Accept in "form" mode.
	Content map[string]any
}

// SamplingMessage is one message of a [SamplingRequest]: Role is "user"
// or "assistant"; Content holds text, images or audio.
type SamplingMessage struct {
	Role    string
	Content []tool.Content
}

// SamplingRequest is a server's request for a completion by the model
// (MCP sampling).
type SamplingRequest struct {
	// Server is the name of the server that asks.
	Server string
	// Messages are the conversation the server wants completed.
	Messages []SamplingMessage
	// SystemPrompt is the server's system prompt; empty for none.
	SystemPrompt string
	// MaxTokens bounds the completion, in tokens; 0 when unbounded.
	MaxTokens int
	// Temperature is the server's wish, nil when it has none.
	Temperature *float64
	// StopSequences end the completion early.
	StopSequences []string
	// ModelHints are the models the server would prefer, best first
	// (advisory: the host answers with its current model).
	ModelHints []string
}

// Summary is the request's last message, its text cut to about n
// characters on one line and quoted, for notes and questions.
func (r SamplingRequest) Summary(n int) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		for _, c := range r.Messages[i].Content {
			if text := strings.Join(strings.Fields(c.Describe()), " "); text != "" {
				if len([]rune(text)) > n {
					text = string([]rune(text)[:n]) + "…"
				}
				return fmt.Sprintf("%q", text)
			}
		}
	}
	return "no message"
}

// SignInRequest is an OAuth sign-in a remote server asks for.
type SignInRequest struct {
	// Server is the server's name.
	Server string
	// URL is the authorization URL the person opens in a browser.
	URL string
}
