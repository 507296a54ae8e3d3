package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

func TestAnswersEveryLineInOrder(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	// The scripted model repeats the question back, upper-cased.
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Content: strings.ToUpper(req.Messages[len(req.Messages)-1].Content)}
	})
	in := strings.NewReader("one\ntwo\n\nthree\nfour\nfive\n")
	var out bytes.Buffer
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:tiny", model.URL
	err := run(context.Background(), host.Options{Config: cfg}, 3, in, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "## one\nONE\n\n## two\nTWO\n\n## three\nTHREE\n\n## four\nFOUR\n\n## five\nFIVE\n\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
	// Each question was its own conversation.
	for _, req := range model.Requests() {
		if len(req.Messages) != 1 {
			t.Errorf("a request carried %d messages: the conversations were mixed", len(req.Messages))
		}
	}
}
