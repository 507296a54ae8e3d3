package e2e

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
	t.Parallel()
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

// TestOpenAIToolImagesReachAVisionModel: the image a real MCP tool returns
// reaches a llama.cpp vision model in a user message after the tool
// result, which keeps its text.
func TestOpenAIToolImagesReachAVisionModel(t *testing.T) {
	t.Parallel()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, TemplateTools: openaitest.Bool(true), Models: []openaitest.Model{{ID: "gemma-3-4b-it.gguf", Vision: true}}})
	defer llama.Close()
	llama.Enqueue(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "call_1", Name: "everything__get-tiny-image", Arguments: `{}`}}},
		openaitest.Reply{Content: "A tiny logo."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "llamacpp:gemma", "--provider-url", llama.BaseURL, "-p", "show me the tiny image"}, dir: dir})
	if out.code != 0 || out.stdout != "A tiny logo.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := llama.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	res, img := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if res.Role != "tool" || res.ToolCallID != "call_1" || !strings.Contains(res.Text(), "[image image/png") {
		t.Errorf("tool result = %+v", res)
	}
	urls := img.ImageURLs()
	if img.Role != "user" || img.Text() != "Images from the result of everything__get-tiny-image:" ||
		len(urls) != 1 || !strings.HasPrefix(urls[0], "data:image/png;base64,iVBOR") {
		t.Errorf("after the result: role %q, text %q, images %d", img.Role, img.Text(), len(urls))
	}
}
