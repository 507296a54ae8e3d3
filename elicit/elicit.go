// Package elicit answers MCP elicitation requests (elicitation/create: a
// server asking the user to fill in a form or visit a URL) in runs where no
// one can be asked: one-shot and piped runs, scripts and "mcphost tools
// call". The answer follows the --elicitation setting: decline every
// request, or accept a form with the defaults the server proposed
// (SEP-1034). The chat asks the user instead.
package elicit

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The modes of --elicitation.
const (
	// Decline answers every request with "decline": nothing is sent
	// without a person agreeing to it.
	Decline = "decline"
	// AcceptDefaults accepts a form request with the server's defaults
	// when every required field has one, and declines otherwise.
	AcceptDefaults = "accept-defaults"
)

// Modes lists the values --elicitation accepts, the default first.
func Modes() []string { return []string{Decline, AcceptDefaults} }

// Handler returns the elicitation handler for mode (one of Modes; anything
// else declines). note, when not nil, receives one sentence per request
// saying what was asked and how it was answered; the server's message is
// passed on as is, for the caller to sanitise.
func Handler(mode string, note func(string)) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if note == nil {
		note = func(string) {}
	}
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var p mcp.ElicitParams
		if req != nil && req.Params != nil {
			p = *req.Params
		}
		res, why := answer(mode, p)
		note(fmt.Sprintf("a server asked for input (%q) and this run cannot ask anyone: %s", p.Message, why))
		return res, nil
	}
}

// answer decides the reply to one request and says why, for the note.
func answer(mode string, p mcp.ElicitParams) (*mcp.ElicitResult, string) {
	decline := &mcp.ElicitResult{Action: "decline"}
	if mode != AcceptDefaults {
		return decline, "declined; run with --elicitation accept-defaults to accept the server's defaults"
	}
	if p.Mode == "url" {
		return decline, "declined, since it asks to open a URL"
	}
	content, missing, err := defaults(p.RequestedSchema)
	if err != nil {
		return decline, fmt.Sprintf("declined, since its form cannot be read: %v", err)
	}
	if len(missing) > 0 {
		return decline, fmt.Sprintf("declined, since the required %s %s no default", plural(missing), hasHave(missing))
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, "accepted with the server's defaults"
}

// defaults returns the default value of every property of a form schema
// that has one, and the required properties that have none.
func defaults(wire any) (content map[string]any, missing []string, err error) {
	content = map[string]any{}
	if wire == nil {
		return content, nil, nil
	}
	data, err := json.Marshal(wire)
	if err != nil {
		return nil, nil, err
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(data, &schema); err != nil {
		return nil, nil, err
	}
	for name, prop := range schema.Properties {
		if prop == nil || len(prop.Default) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(prop.Default, &v); err != nil {
			return nil, nil, fmt.Errorf("the default of %q: %w", name, err)
		}
		content[name] = v
	}
	for _, name := range schema.Required {
		if _, ok := content[name]; !ok {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	return content, missing, nil
}

// plural words the field names of a note: field "a" or fields "a", "b".
func plural(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	if len(names) == 1 {
		return "field " + quoted[0]
	}
	return "fields " + strings.Join(quoted, ", ")
}

func hasHave(names []string) string {
	if len(names) == 1 {
		return "has"
	}
	return "have"
}
