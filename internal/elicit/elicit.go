// Package elicit defines the neutral form of MCP elicitation requests
// (elicitation/create: a server asking the user to fill in a form or visit
// a URL), which package servers translates, and answers them in runs where
// no one can be asked: one-shot and piped runs, scripts and "mcphost tools
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

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
)

// Func answers one request.
type Func func(ctx context.Context, req ask.FormRequest) (ask.FormAnswer, error)

// Handler returns the answer of a run that cannot ask anyone, following
// mode. note, when not nil, receives one sentence per request saying what
// was asked and how it was answered; the server's message is passed on as
// is, for the caller to sanitise.
func Handler(mode config.Elicitation, note func(string)) Func {
	if note == nil {
		note = func(string) {}
	}
	return func(_ context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
		res, why := answer(mode, req)
		who := "a server"
		if req.Server != "" {
			who = fmt.Sprintf("server %q", req.Server)
		}
		note(fmt.Sprintf("%s asked for input (%q) and this run cannot ask anyone: %s", who, req.Message, why))
		return res, nil
	}
}

// answer decides the reply to one request and says why, for the note.
func answer(mode config.Elicitation, req ask.FormRequest) (ask.FormAnswer, string) {
	decline := ask.FormAnswer{Action: ask.Decline}
	if mode != config.ElicitAcceptDefaults {
		return decline, "declined; run with --elicitation accept-defaults to accept the server's defaults"
	}
	if req.Mode == "url" {
		return decline, "declined, since it asks to open a URL"
	}
	content, missing, err := defaults(req.Schema)
	if err != nil {
		return decline, fmt.Sprintf("declined, since its form cannot be read: %v", err)
	}
	if len(missing) > 0 {
		return decline, fmt.Sprintf("declined, since the required %s %s no default", plural(missing), hasHave(missing))
	}
	return ask.FormAnswer{Action: ask.Accept, Content: content}, "accepted with the server's defaults"
}

// defaults returns the default value of every property of a form schema
// that has one, and the required properties that have none.
func defaults(data json.RawMessage) (content map[string]any, missing []string, err error) {
	content = map[string]any{}
	if len(data) == 0 || string(data) == "null" {
		return content, nil, nil
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
