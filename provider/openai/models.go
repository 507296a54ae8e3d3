package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcphost/mcphost/provider"
)

// modelEntry is one model of /v1/models, with the fields engines add:
// vLLM's max_model_len, llama.cpp's meta, and context_length (LocalAI,
// OpenRouter and others).
type modelEntry struct {
	ID            string `json:"id"`
	OwnedBy       string `json:"owned_by"`
	MaxModelLen   int    `json:"max_model_len"`
	ContextLength int    `json:"context_length"`
	Meta          *struct {
		NCtxTrain int   `json:"n_ctx_train"`
		Size      int64 `json:"size"`
	} `json:"meta"`
}

// Show describes a model from what the server says about it: whether it
// serves the model at all (/v1/models), and the model's context window
// (llama.cpp's /props, vLLM's max_model_len, LM Studio's /api/v0/models)
// and whether it sees images (/props, /api/v0/models, Ollama's /api/show)
// where the server says. A server that lists no models (or has no
// /v1/models) is taken at its word when the model is asked for.
func (p *Provider) Show(ctx context.Context, model string) (provider.ModelInfo, error) {
	infos, err := p.catalog(ctx, model)
	if err != nil {
		return provider.ModelInfo{}, err
	}
	if infos == nil {
		return assumed(model), nil
	}
	if i := find(infos, model); i >= 0 {
		info := infos[i]
		info.Name = model
		if p.Kind() == KindOllama {
			p.ollamaShow(ctx, &info)
		}
		return info, nil
	}
	if len(infos) == 1 && p.Kind() == KindLlamaCpp {
		// llama-server serves the one model it was started with, under
		// any name a request gives.
		info := infos[0]
		info.Name = model
		return info, nil
	}
	return provider.ModelInfo{}, p.notFound(ctx, model, nil)
}

// ListModels lists the server's models with what it says about each.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	infos, err := p.catalog(ctx, "")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(infos, func(a, b provider.ModelInfo) int { return strings.Compare(a.Name, b.Name) })
	return infos, nil
}

// find returns the index of model in infos, matched exactly, then without
// regard to case, then as Ollama names it (with ":latest"); -1 if none.
func find(infos []provider.ModelInfo, model string) int {
	if i := slices.IndexFunc(infos, func(m provider.ModelInfo) bool { return m.Name == model }); i >= 0 {
		return i
	}
	return slices.IndexFunc(infos, func(m provider.ModelInfo) bool {
		return strings.EqualFold(m.Name, model) || strings.EqualFold(m.Name, model+":latest")
	})
}

// assumed is what a model is taken to be when the server does not say.
func assumed(name string) provider.ModelInfo {
	return provider.ModelInfo{
		Name:                name,
		Capabilities:        []string{provider.CapabilityCompletion, provider.CapabilityTools},
		CapabilitiesAssumed: true,
	}
}

// modelIDs lists the names of the server's models, for a "not served"
// error.
func (p *Provider) modelIDs(ctx context.Context) ([]string, error) {
	var list struct {
		Data []modelEntry `json:"data"`
	}
	if err := p.getJSON(ctx, p.base.String()+"/models", &list); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	return ids, nil
}

// catalog describes the server's models; nil (without an error) when the
// server lists none it can tell about. model, when not empty, is the one
// a caller wants, for engines that describe one model at a time.
func (p *Provider) catalog(ctx context.Context, model string) ([]provider.ModelInfo, error) {
	var list struct {
		Data []modelEntry `json:"data"`
	}
	err := p.withRetry(ctx, model, func() (bool, error) {
		return false, p.getJSON(ctx, p.base.String()+"/models", &list)
	})
	if err != nil {
		var se *statusError
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &se) && (se.Status == http.StatusNotFound || se.Status == http.StatusMethodNotAllowed):
			// A server without a model list: nothing to tell.
			return nil, nil
		case errors.As(err, &syntax):
			return nil, nil
		}
		return nil, err
	}
	if len(list.Data) == 0 {
		return nil, nil
	}
	p.detect(list.Data)
	infos := make([]provider.ModelInfo, len(list.Data))
	for i, m := range list.Data {
		info := assumed(m.ID)
		switch {
		case m.MaxModelLen > 0:
			// vLLM's window, fixed when it started.
			info.ContextLength, info.FixedContext = m.MaxModelLen, true
		case m.Meta != nil && m.Meta.NCtxTrain > 0:
			info.ContextLength = m.Meta.NCtxTrain
		case m.ContextLength > 0:
			info.ContextLength = m.ContextLength
		}
		if m.Meta != nil {
			info.Size = m.Meta.Size
		}
		infos[i] = info
	}
	switch p.Kind() {
	case KindLlamaCpp:
		p.llamaProps(ctx, infos)
	case KindLMStudio:
		p.lmStudioModels(ctx, infos)
	}
	return infos, nil
}

// detect tells the server's kind from its model list, when it was not
// configured: llama.cpp, vLLM and LM Studio sign their entries.
func (p *Provider) detect(models []modelEntry) {
	if p.opts.Kind != KindOpenAI {
		return
	}
	owner := strings.ToLower(models[0].OwnedBy)
	var k Kind
	for _, e := range provider.Engines() {
		if slices.Contains(e.OwnedBy, owner) {
			k = Kind(e.Name)
			break
		}
	}
	if k == "" {
		return
	}
	p.kind.Store(&k)
}

// llamaProps reads llama-server's /props: the window its slots have
// (--ctx-size), which no request can change, whether its chat template
// takes tools, and whether it can see images (started with --mmproj).
func (p *Provider) llamaProps(ctx context.Context, infos []provider.ModelInfo) {
	var props struct {
		DefaultGenerationSettings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		ChatTemplateCaps map[string]any `json:"chat_template_caps"`
		Modalities       struct {
			Vision bool `json:"vision"`
		} `json:"modalities"`
	}
	if p.getJSON(ctx, p.root.String()+"/props", &props) != nil {
		return
	}
	tools, known := props.ChatTemplateCaps["supports_tools"].(bool)
	if !known {
		tools, known = props.ChatTemplateCaps["supports_tool_calls"].(bool)
	}
	for i := range infos {
		if n := props.DefaultGenerationSettings.NCtx; n > 0 {
			infos[i].ContextLength, infos[i].FixedContext = n, true
		}
		if known {
			infos[i].CapabilitiesAssumed = false
			infos[i].Capabilities = []string{provider.CapabilityCompletion}
			if tools {
				infos[i].Capabilities = append(infos[i].Capabilities, provider.CapabilityTools)
			}
		}
		if props.Modalities.Vision {
			infos[i].Capabilities = append(infos[i].Capabilities, provider.CapabilityVision)
		}
	}
}

// lmStudioModels reads LM Studio's own model list: each model's type
// ("vlm" for one that sees images), its
// trained window (max_context_length) and, for a loaded model, the window
// it was loaded with, which is the one that counts.
func (p *Provider) lmStudioModels(ctx context.Context, infos []provider.ModelInfo) {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			Type                string `json:"type"`
			State               string `json:"state"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if p.getJSON(ctx, p.root.String()+"/api/v0/models", &list) != nil {
		return
	}
	for _, m := range list.Data {
		i := find(infos, m.ID)
		if i < 0 {
			continue
		}
		info := &infos[i]
		switch {
		case m.State == "loaded" && m.LoadedContextLength > 0:
			info.ContextLength, info.FixedContext = m.LoadedContextLength, true
		case m.MaxContextLength > 0:
			info.ContextLength = m.MaxContextLength
		}
		// LM Studio gives every language model tools (in its own prompt
		// format when the model was not trained for them); embedding
		// models cannot chat at all.
		info.CapabilitiesAssumed = false
		info.Capabilities = []string{provider.CapabilityCompletion, provider.CapabilityTools}
		switch m.Type {
		case "embeddings":
			info.Capabilities = nil
		case "vlm":
			info.Capabilities = append(info.Capabilities, provider.CapabilityVision)
		}
	}
}

// ollamaShow asks Ollama's own /api/show what a model it serves at /v1
// can do: its capabilities (a model without "tools" is then sent none, as
// on the native path; one with "vision" is sent images, which /v1 takes as
// image_url parts) and its trained context length.
func (p *Provider) ollamaShow(ctx context.Context, info *provider.ModelInfo) {
	body, _ := json.Marshal(map[string]string{"model": info.Name})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.root.String()+"/api/show", bytes.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	p.header(req.Header)
	resp, err := p.http.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	var show struct {
		Capabilities []string       `json:"capabilities"`
		ModelInfo    map[string]any `json:"model_info"`
		Parameters   string         `json:"parameters"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&show) != nil || len(show.Capabilities) == 0 {
		return
	}
	info.Capabilities = show.Capabilities
	info.CapabilitiesAssumed = false
	arch, _ := show.ModelInfo["general.architecture"].(string)
	if n, ok := show.ModelInfo[arch+".context_length"].(float64); ok && n > 0 {
		info.ContextLength = int(n)
	}
	// /v1 takes no num_ctx: a model whose Modelfile sets one is served
	// with that window, whatever a request would ask for.
	if n := modelfileNumCtx(show.Parameters); n > 0 {
		info.ContextLength, info.FixedContext = n, true
	}
}

// modelfileNumCtx is the num_ctx of the parameters /api/show lists, one
// "name value" a line; 0 when none is set.
func modelfileNumCtx(params string) int {
	for line := range strings.SplitSeq(params, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// getJSON GETs u and decodes its JSON answer into v; an error answer is a
// *statusError.
func (p *Provider) getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	p.header(req.Header)
	resp, err := p.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= http.StatusBadRequest {
		return readStatusError(resp)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s did not answer with JSON: %w", (&url.URL{Path: req.URL.Path}).String(), err)
	}
	return nil
}
