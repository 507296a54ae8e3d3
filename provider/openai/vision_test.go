package openai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/openaitest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/openai"
)

// tinyPNG and tinyJPEG start as their formats do, which is all MIME
// sniffing reads.
const (
	tinyPNG  = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
	tinyJPEG = "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"
)

func dataURL(mime, data string) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString([]byte(data))
}

func TestMessagesWithoutImagesKeepStringContent(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindOpenAI, nil)
	req := chatReq("model")
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "fs__read"}}},
		provider.Message{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "fs__read", Content: "text only"})
	if _, err := p.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[0].Messages
	if len(msgs) != 3 || msgs[0].Content != "hi" || msgs[2].Content != "text only" {
		t.Errorf("messages = %+v", msgs)
	}
}

func TestUserImagesSentAsImageURLParts(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindOpenAI, nil)
	req := provider.Request{Model: "model", Messages: []provider.Message{{Role: provider.RoleUser,
		Content: "what is in these?", Images: [][]byte{[]byte(tinyPNG), []byte(tinyJPEG)}}}}
	if _, err := p.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	m := srv.Requests()[0].Messages[0]
	want := []string{dataURL("image/png", tinyPNG), dataURL("image/jpeg", tinyJPEG)}
	if m.Role != "user" || m.Text() != "what is in these?" || strings.Join(m.ImageURLs(), " ") != strings.Join(want, " ") {
		t.Errorf("message = role %q, text %q, images %q", m.Role, m.Text(), m.ImageURLs())
	}
	// The text comes first, as the engines expect.
	if parts, _ := m.Content.([]any); len(parts) != 3 || parts[0].(map[string]any)["type"] != "text" {
		t.Errorf("parts = %v", m.Content)
	}
}

func TestToolResultImagesFollowInAUserMessage(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindOpenAI, nil)
	req := chatReq("model")
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "fs__read_image"}, {ID: "c2", Name: "fs__list"}}},
		provider.Message{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "fs__read_image", Content: "[image image/png, 33 B, attached]", Images: [][]byte{[]byte(tinyPNG)}},
		provider.Message{Role: provider.RoleTool, ToolCallID: "c2", ToolName: "fs__list", Content: "a.png"},
		provider.Message{Role: provider.RoleAssistant, Content: "It is a pixel."})
	if _, err := p.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[0].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	// The images come after the whole run of results: nothing may sit
	// between an assistant's calls and their results.
	if strings.Join(roles, " ") != "user assistant tool tool user assistant" {
		t.Fatalf("roles = %v", roles)
	}
	if msgs[2].Content != "[image image/png, 33 B, attached]" || msgs[3].Content != "a.png" {
		t.Errorf("tool results = %+v / %+v", msgs[2], msgs[3])
	}
	img := msgs[4]
	if img.Text() != "Images from the result of fs__read_image:" || len(img.ImageURLs()) != 1 || img.ImageURLs()[0] != dataURL("image/png", tinyPNG) {
		t.Errorf("image message = text %q, images %q", img.Text(), img.ImageURLs())
	}
}

func TestShowTellsVisionFromTheEngine(t *testing.T) {
	for _, tt := range []struct {
		name   string
		opts   openaitest.Options
		kind   openai.Kind
		vision bool
	}{
		{"llama.cpp with --mmproj", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "gemma3.gguf", Vision: true}}, TemplateTools: openaitest.Bool(true)}, openai.KindLlamaCpp, true},
		{"llama.cpp, props without caps", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "gemma3.gguf", Vision: true}}}, openai.KindOpenAI, true},
		{"llama.cpp text only", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen.gguf"}}, TemplateTools: openaitest.Bool(true)}, openai.KindLlamaCpp, false},
		{"LM Studio vlm", openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "gemma-3-4b", Vision: true}}}, openai.KindLMStudio, true},
		{"LM Studio llm", openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "qwen3-8b"}}}, openai.KindLMStudio, false},
		{"vLLM says nothing", openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen2.5-VL-7B-Instruct", Vision: true}}}, openai.KindVLLM, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(tt.opts)
			defer srv.Close()
			p, _ := newProvider(t, srv, tt.kind, nil)
			info, err := p.Show(context.Background(), tt.opts.Models[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if info.Has(provider.CapabilityVision) != tt.vision || !info.Has(provider.CapabilityTools) {
				t.Errorf("capabilities = %v, want vision %v", info.Capabilities, tt.vision)
			}
		})
	}
}

// TestShowKeepsOllamasVision: Ollama's /v1 takes image_url parts, so a
// model /api/show calls a vision model is one here too.
func TestShowKeepsOllamasVision(t *testing.T) {
	for _, caps := range [][]string{{"completion", "tools", "vision"}, {"completion", "tools"}} {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"object":"list","data":[{"id":"gemma3:latest","object":"model","owned_by":"library"}]}`)
		})
		mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, _ *http.Request) {
			json.NewEncoder(w).Encode(map[string]any{"capabilities": caps,
				"model_info": map[string]any{"general.architecture": "gemma3", "gemma3.context_length": 131072}})
		})
		srv := httptest.NewServer(mux)
		p, err := openai.New(openai.Options{Name: "ollama", Kind: openai.KindOllama, URL: srv.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		info, err := p.Show(context.Background(), "gemma3")
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := len(caps) == 3
		if info.Has(provider.CapabilityVision) != want || info.ContextLength != 131072 || info.CapabilitiesAssumed {
			t.Errorf("/api/show %v: info = %+v", caps, info)
		}
	}
}
