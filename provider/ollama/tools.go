package ollama

import (
	"bytes"
	"encoding/json"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// maxCachedTools bounds the tool cache; past it the cache starts over, so a
// long session whose servers keep changing their tools cannot grow it
// without end.
const maxCachedTools = 4096

// cachedTool is a converted declaration and its wire form.
type cachedTool struct {
	tool api.Tool
	json []byte
}

// toAPITools translates tool declarations, and returns them also as the
// JSON array sent to Ollama. Both come from the cache when the same tool was
// sent before: the runner sends the same catalogue on every step, and
// decoding and encoding each schema again would cost more than the rest of
// the request together.
func (p *Provider) toAPITools(tools []provider.Tool) (api.Tools, json.RawMessage) {
	if len(tools) == 0 {
		return nil, nil
	}
	out := make(api.Tools, len(tools))
	p.toolsMu.Lock()
	defer p.toolsMu.Unlock()
	if p.tools == nil {
		p.tools = make(map[string]cachedTool)
	}
	size := 1
	entries := make([]cachedTool, len(tools))
	for i, t := range tools {
		key := t.Name + "\x00" + t.Description + "\x00" + string(t.Parameters)
		ct, ok := p.tools[key]
		if !ok {
			ct.tool = toAPITool(t)
			b, err := json.Marshal(ct.tool)
			if err != nil {
				// Cannot happen for values decoded from JSON; send the tool
				// with no parameters rather than not at all.
				ct.tool = toAPITool(provider.Tool{Name: t.Name, Description: t.Description})
				b, _ = json.Marshal(ct.tool)
			}
			ct.json = b
			if len(p.tools) >= maxCachedTools {
				clear(p.tools)
			}
			p.tools[key] = ct
		}
		entries[i] = ct
		out[i] = ct.tool
		size += len(ct.json) + 1
	}
	raw := make([]byte, 0, size)
	raw = append(raw, '[')
	for i, ct := range entries {
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = append(raw, ct.json...)
	}
	raw = append(raw, ']')
	return out, raw
}

// toAPITool translates one declaration. It never fails: a schema Ollama's
// types cannot hold is kept as far as it goes, because one odd tool must
// not cost the model all the others.
func toAPITool(t provider.Tool) api.Tool {
	var params api.ToolFunctionParameters
	raw := bytes.TrimSpace(t.Parameters)
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &params); err != nil {
			params = lenientParameters(raw)
		}
	}
	if params.Type == "" {
		params.Type = "object"
	}
	if params.Properties == nil {
		// Ollama renders a null properties map into some templates as
		// "null"; an empty object is what an argument-less tool means.
		params.Properties = api.NewToolPropertiesMap()
	}
	return api.Tool{
		Type: "function",
		Function: api.ToolFunction{
			Name:        t.Name,
			Description: t.Description,
			Parameters:  params,
		},
	}
}

// lenientParameters decodes an object schema field by field and property
// by property, dropping what does not fit Ollama's types (a boolean schema,
// a "type" that is not a string) instead of the whole schema.
func lenientParameters(raw []byte) api.ToolFunctionParameters {
	params := api.ToolFunctionParameters{Type: "object", Properties: api.NewToolPropertiesMap()}
	fields, ok := orderedObject(raw)
	if !ok {
		return params
	}
	for _, f := range fields {
		switch f.key {
		case "type":
			var s string
			if json.Unmarshal(f.value, &s) == nil && s != "" {
				params.Type = s
			}
		case "required":
			var req []string
			if json.Unmarshal(f.value, &req) == nil {
				params.Required = req
			}
		case "$defs":
			var defs any
			if json.Unmarshal(f.value, &defs) == nil {
				params.Defs = defs
			}
		case "properties":
			props, _ := orderedObject(f.value)
			for _, pr := range props {
				var tp api.ToolProperty
				if json.Unmarshal(pr.value, &tp) != nil {
					// Keep the description, the one part a model can use
					// without a type.
					var d struct {
						Description string `json:"description"`
					}
					_ = json.Unmarshal(pr.value, &d)
					tp = api.ToolProperty{Description: d.Description}
				}
				params.Properties.Set(pr.key, tp)
			}
		}
	}
	return params
}

type field struct {
	key   string
	value json.RawMessage
}

// orderedObject splits a JSON object into its members in document order,
// which a Go map would lose (and property order guides the model).
func orderedObject(raw []byte) ([]field, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var fields []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fields, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fields, false
		}
		fields = append(fields, field{key: key, value: v})
	}
	return fields, true
}
