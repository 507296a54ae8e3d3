package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
)

// formField is one field of an elicitation form (only flat properties are
// allowed by the protocol).
type formField struct {
	name, title, description, typ string
	// choices are the allowed values (enum, or oneOf/anyOf of consts);
	// for an array, the allowed items.
	choices  []choice
	def      any
	required bool
}

// choice is one allowed value and the label a person reads.
type choice struct {
	value any
	label string
}

// schemaProp is the part of a property schema a form uses.
type schemaProp struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Enum        []any    `json:"enum"`
	EnumNames   []string `json:"enumNames"`
	OneOf       []struct {
		Const any    `json:"const"`
		Title string `json:"title"`
	} `json:"oneOf"`
	AnyOf []struct {
		Const any    `json:"const"`
		Title string `json:"title"`
	} `json:"anyOf"`
	Items   *schemaProp `json:"items"`
	Default any         `json:"default"`
}

// choices lists the values a property allows, labelled.
func (p schemaProp) choices() []choice {
	var out []choice
	for i, e := range p.Enum {
		label := fmt.Sprint(e)
		if i < len(p.EnumNames) {
			label = p.EnumNames[i]
		}
		out = append(out, choice{e, label})
	}
	for _, o := range append(p.OneOf, p.AnyOf...) {
		if o.Const != nil {
			out = append(out, choice{o.Const, cmp.Or(o.Title, fmt.Sprint(o.Const))})
		}
	}
	return out
}

// Elicit lets the user answer a server's request for input (MCP
// elicitation) in the terminal: a form is filled field by field (Enter
// keeps the default; "-" leaves an optional field out), then sent,
// declined or cancelled. A URL request shows the URL and asks whether the
// user will open it. The question says which server asks, and during
// which of its tool calls when one runs; it waits for the questions
// before it to be answered (see question). A request that comes while a
// prompt is being typed is declined, with a notice: the line editor has
// the keys.
func (c *Chat) Elicit(ctx context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
	c.mu.Lock()
	editing := c.editor != nil
	c.mu.Unlock()
	if editing {
		// The line editor has the keys: a form drawn now would share them
		// with the prompt being typed.
		who := "a server"
		if req.Server != "" {
			who = "server " + termtext.Reveal(req.Server)
		}
		c.notice(fmt.Sprintf("%s asked for input (%s) while you were typing a prompt; declined", who, termtext.RevealText(ui.Preview(req.Message, 60))))
		return ask.FormAnswer{Action: ask.Decline}, nil
	}
	// The screen and the keys are the form's until it is done: not another
	// question's, nor typed ahead.
	done, err := c.question(ctx)
	if err != nil {
		return ask.FormAnswer{}, err
	}
	defer func() {
		c.resumeTurn()
		done()
	}()
	w := c.opts.Err
	who := "a server"
	if req.Server != "" {
		who = "server " + termtext.Reveal(req.Server)
	}
	// The keys are named after the server again, as a long form may
	// have pushed the header off screen.
	who += c.during(req.Server)
	fmt.Fprintf(w, "\n%s\n", c.style().Question(fmt.Sprintf("? %s asks: %s", who, termtext.RevealText(req.Message))))
	if req.Mode == "url" {
		fmt.Fprintf(w, "    open %s\n", termtext.Reveal(req.URL))
		res, err := c.confirm(ctx, fmt.Sprintf("  %s: [y] I will open it  [n] decline  [c/Esc] cancel: ", who), nil)
		if err == nil && res.Action == ask.Accept {
			c.awaitURL(req)
		}
		return res, err
	}
	fields := formFields(req.Schema)
	content := map[string]any{}
	for _, f := range fields {
		for {
			fmt.Fprintf(w, "  %s: ", f.prompt())
			line, err := c.readReason(ctx)
			if err != nil {
				fmt.Fprintln(w)
				return ask.FormAnswer{}, err
			}
			v, ok, problem := f.parse(line)
			if problem != "" {
				fmt.Fprintf(w, "    %s\n", problem)
				continue
			}
			if ok {
				content[f.name] = v
			}
			break
		}
	}
	return c.confirm(ctx, fmt.Sprintf("  %s: [y] send  [n] decline  [c/Esc] cancel: ", who), content)
}

// confirm asks for the final y/n/c and builds the result.
func (c *Chat) confirm(ctx context.Context, question string, content map[string]any) (ask.FormAnswer, error) {
	w := c.opts.Err
	fmt.Fprint(w, question)
	for {
		key, err := c.readKey(ctx)
		if err != nil {
			fmt.Fprintln(w)
			return ask.FormAnswer{}, err
		}
		switch key {
		case 'y', 'Y':
			fmt.Fprintln(w, "sent")
			return ask.FormAnswer{Action: ask.Accept, Content: content}, nil
		case 'n', 'N':
			fmt.Fprintln(w, "declined")
			return ask.FormAnswer{Action: ask.Decline}, nil
		case 'c', 'C', 3, escKey:
			fmt.Fprintln(w, "cancelled")
			return ask.FormAnswer{Action: ask.Cancel}, nil
		}
	}
}

// formFields reads the flat object schema of a form request, required
// fields first, each group in name order.
func formFields(schema json.RawMessage) []formField {
	var s struct {
		Properties map[string]schemaProp `json:"properties"`
		Required   []string              `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var fields []formField
	for name, prop := range s.Properties {
		f := formField{
			name: name, title: prop.Title, description: prop.Description, typ: prop.Type,
			choices: prop.choices(), def: prop.Default, required: slices.Contains(s.Required, name),
		}
		if prop.Type == "array" && prop.Items != nil {
			f.choices = prop.Items.choices()
		}
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool {
		if fields[i].required != fields[j].required {
			return fields[i].required
		}
		return fields[i].name < fields[j].name
	})
	return fields
}

// prompt describes the field: its title or name, what it is, and its
// default.
func (f formField) prompt() string {
	label := f.name
	if f.title != "" {
		label = f.title
	}
	var hints []string
	if f.description != "" {
		hints = append(hints, ui.Preview(f.description, 60))
	}
	var labels []string
	for _, c := range f.choices {
		labels = append(labels, c.label)
	}
	switch {
	case f.typ == "array" && len(labels) > 0:
		hints = append(hints, "some of "+strings.Join(labels, ", ")+", separated by commas")
	case len(labels) > 0:
		hints = append(hints, "one of "+strings.Join(labels, ", "))
	case f.typ == "array":
		hints = append(hints, "values separated by commas")
	case f.typ != "" && f.typ != "string":
		hints = append(hints, f.typ)
	}
	if f.def != nil {
		hints = append(hints, fmt.Sprintf("Enter for %v", f.def))
	} else if !f.required {
		hints = append(hints, "optional")
	}
	if len(hints) == 0 {
		return ui.Sanitize(label)
	}
	return ui.Sanitize(label + " (" + strings.Join(hints, "; ") + ")")
}

// pick finds the choice typed as its label or its value; without choices
// any text is a value.
func (f formField) pick(typed string) (any, bool) {
	if len(f.choices) == 0 {
		return typed, true
	}
	for _, c := range f.choices {
		if strings.EqualFold(c.label, typed) || fmt.Sprint(c.value) == typed {
			return c.value, true
		}
	}
	return nil, false
}

// parse turns the typed line into the field's value. ok is false when the
// field is left out; problem explains an answer that must be typed again.
func (f formField) parse(line string) (v any, ok bool, problem string) {
	if line == "" {
		switch {
		case f.def != nil:
			return f.def, true, ""
		case f.required:
			return nil, false, "this field is required"
		default:
			return nil, false, ""
		}
	}
	if line == "-" && !f.required {
		return nil, false, ""
	}
	if f.typ == "array" {
		var items []any
		for _, part := range strings.Split(line, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			v, ok := f.pick(part)
			if !ok {
				return nil, false, fmt.Sprintf("%q is not one of the listed values", part)
			}
			items = append(items, v)
		}
		return items, true, ""
	}
	if len(f.choices) > 0 {
		v, ok := f.pick(line)
		if !ok {
			return nil, false, "choose one of the listed values"
		}
		return v, true, ""
	}
	switch f.typ {
	case "number":
		n, err := strconv.ParseFloat(line, 64)
		if err != nil {
			return nil, false, "type a number"
		}
		return n, true, ""
	case "integer":
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, false, "type a whole number"
		}
		return n, true, ""
	case "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return true, true, ""
		case "n", "no", "false":
			return false, true, ""
		}
		return nil, false, "type yes or no"
	}
	return line, true, ""
}
