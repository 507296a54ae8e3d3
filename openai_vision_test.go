package main

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/openaitest"
)

// TestOpenAIAttachesImagesForVisionModels: "@pic.png" in -p reaches a
// model its OpenAI-compatible engine says can see (llama-server with
// --mmproj, an LM Studio "vlm") as an image_url part with the file's
// bytes; a model without vision gets it described in text.
func TestOpenAIAttachesImagesForVisionModels(t *testing.T) {
	dir := t.TempDir()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
	writeConfig(t, dir, "pic.png", png)
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	wantURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(png))

	for _, tt := range []struct {
		name   string
		opts   openaitest.Options
		model  string
		vision bool
	}{
		{"llama.cpp with --mmproj", openaitest.Options{Flavor: openaitest.LlamaCpp, TemplateTools: openaitest.Bool(true), Models: []openaitest.Model{{ID: "gemma-3-4b-it.gguf", Vision: true}}}, "llamacpp:gemma", true},
		{"LM Studio vlm", openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "gemma-3-4b", Vision: true}}}, "lmstudio:gemma-3-4b", true},
		{"llama.cpp without vision", openaitest.Options{Flavor: openaitest.LlamaCpp, TemplateTools: openaitest.Bool(true), Models: []openaitest.Model{{ID: "qwen.gguf"}}}, "llamacpp:qwen", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(tt.opts)
			defer srv.Close()
			srv.Enqueue(openaitest.Reply{Content: "A single pixel."})
			out := runBinary(t, invocation{args: []string{"-m", tt.model, "--provider-url", srv.BaseURL, "-p", "what is in @pic.png"}, dir: dir})
			if out.code != 0 || out.stdout != "A single pixel.\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d model requests, want 1", len(reqs))
			}
			msg := reqs[0].Messages[len(reqs[0].Messages)-1]
			if !strings.Contains(msg.Text(), "what is in @pic.png") {
				t.Errorf("the prompt's text is missing: %q", msg.Text())
			}
			urls := msg.ImageURLs()
			if tt.vision {
				if len(urls) != 1 || urls[0] != wantURL {
					t.Errorf("the model got images %q, want pic.png as a data URL", urls)
				}
				return
			}
			if len(urls) != 0 || !strings.Contains(msg.Text(), "[file pic.png: image image/png") || !strings.Contains(msg.Text(), "this model cannot see images") {
				t.Errorf("a model without vision got images %q and text %q, want the image described", urls, msg.Text())
			}
		})
	}
}
