// Command batch answers each line of its standard input with a local model
// and the MCP tools of the mcphost configuration, several lines at once on
// one Host: the servers start once and every conversation shares them.
//
//	printf 'What is in README.md?\nHow many Go files are there?\n' | go run ./examples/batch -m ollama:qwen3:8b -n 4
//
// The answers are printed in the order of the questions, one block each.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/mcphost/mcphost/host"
)

func main() {
	model := flag.String("m", "", "model, e.g. ollama:qwen3:8b (default: the config's)")
	parallel := flag.Int("n", 4, "questions answered at once")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The user's mcphost configuration, with the model of -m if given.
	cfg, err := host.LoadConfig(host.LoadOptions{})
	if err == nil {
		if *model != "" {
			cfg.Model = *model
		}
		err = run(ctx, host.Options{Config: cfg}, *parallel, os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "batch:", err)
		os.Exit(1)
	}
}

// run answers every line of in, n at a time, and writes the answers to out
// in the order of the lines.
func run(ctx context.Context, opts host.Options, n int, in io.Reader, out io.Writer) error {
	var questions []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if q := strings.TrimSpace(sc.Text()); q != "" {
			questions = append(questions, q)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	h, err := host.New(ctx, opts)
	if err != nil {
		return err
	}
	defer h.Close()

	answers := make([]string, len(questions))
	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, q := range questions {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			// A conversation of its own: the questions do not see each
			// other's history.
			res, err := h.NewConversation().Prompt(ctx, q)
			if err != nil {
				answers[i] = "error: " + err.Error()
				return
			}
			answers[i] = res.Answer
		})
	}
	wg.Wait()
	for i, q := range questions {
		fmt.Fprintf(out, "## %s\n%s\n\n", q, answers[i])
	}
	return ctx.Err()
}
