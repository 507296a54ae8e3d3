// Command ask-server answers questions over HTTP with a local model and
// the MCP tools of the mcphost configuration:
//
//	go run ./examples/ask-server -m ollama:qwen3:8b -addr 127.0.0.1:8080
//	curl -s localhost:8080/ask -d '{"question": "What is in README.md?"}'
//
// Each request is a conversation of its own; requests are answered at the
// same time, on one Host whose servers start once. Tools that need
// approval are refused, as in a one-shot run: a web request has no one to
// ask.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"

	"github.com/mcphost/mcphost/host"
)

func main() {
	model := flag.String("m", "", "model, e.g. ollama:qwen3:8b (default: the config's)")
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The user's mcphost configuration, with the model of -m if given.
	cfg, err := host.LoadConfig(host.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if *model != "" {
		cfg.Model = *model
	}
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	srv := &http.Server{Addr: *addr, Handler: handler(h)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		log.Print(err)
	}
}

// question and answer are the JSON bodies of /ask.
type question struct {
	Question string `json:"question"`
}

type answer struct {
	Answer    string   `json:"answer"`
	ToolCalls []string `json:"tool_calls"`
	Error     string   `json:"error,omitempty"`
}

// handler serves POST /ask.
func handler(h *host.Host) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /ask", func(w http.ResponseWriter, r *http.Request) {
		var q question
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || q.Question == "" {
			http.Error(w, `send {"question": "..."}`, http.StatusBadRequest)
			return
		}
		// The request's context: a client that goes away cancels the turn
		// and its tool calls.
		res, err := h.NewConversation().Prompt(r.Context(), q.Question)
		a := answer{Answer: res.Answer, ToolCalls: []string{}}
		for _, c := range res.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, c.Call.Name)
		}
		status := http.StatusOK
		if err != nil && !errors.Is(err, host.ErrMaxSteps) {
			a.Error, status = err.Error(), http.StatusBadGateway
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if err := json.NewEncoder(w).Encode(a); err != nil {
			fmt.Fprintln(os.Stderr, "ask-server:", err)
		}
	})
	return mux
}
