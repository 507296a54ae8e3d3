package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

func TestAskUsesTheToolsAndAnswersInJSON(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "motd.txt"), []byte("all systems go"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	// The model reads the file, then answers with what the tool returned.
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			return ollamatest.Reply{Content: "The file says: " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, "motd.txt")})}}
	})
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:tiny", model.URL
	cfg.Servers = []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs", Options: map[string]any{"allowed_directories": []any{dir}}}}
	h, err := host.New(context.Background(), host.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(handler(h))
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/ask", "application/json", strings.NewReader(`{"question": "What does motd.txt say?"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a answer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if a.Answer != "The file says: all systems go" || len(a.ToolCalls) != 1 || a.ToolCalls[0] != "fs__read_file" {
		t.Errorf("answer %+v", a)
	}

	bad, err := http.Post(srv.URL+"/ask", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != http.StatusBadRequest {
		t.Errorf("empty question: status %d", bad.StatusCode)
	}
}
