package host_test

import (
	"context"
	"fmt"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// A Go function as a tool: its input schema comes from its argument's
// type, its result reaches the model as JSON. ReadOnly lets the model
// call it without asking, as a server's read-only tool.
func Example_goTool() {
	type forecastIn struct {
		City string `json:"city" jsonschema:"the city to forecast"`
	}
	type forecastOut struct {
		City  string  `json:"city"`
		TempC float64 `json:"temp_c"`
	}
	forecast := host.NewTool("forecast", "Tomorrow's weather in a city.",
		func(ctx context.Context, in forecastIn) (forecastOut, error) {
			return forecastOut{City: in.City, TempC: 21.5}, nil
		}, host.ReadOnly())

	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("forecast", map[string]any{"city": "Lisbon"})}},
		ollamatest.Reply{Content: "Tomorrow: 21.5 °C in Lisbon."},
	)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	h, err := host.New(ctx, host.Options{Config: cfg, Tools: []host.Tool{forecast}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Prompt(ctx, "Will it be warm in Lisbon tomorrow?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.ToolCalls[0].Call.Name, "returned", res.ToolCalls[0].Output)
	fmt.Println(res.Answer)

	// A program calls it too, without the model.
	out, err := h.CallTool(ctx, "forecast", map[string]any{"city": "Oslo"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Structured)
	// Output:
	// forecast returned {"city":"Lisbon","temp_c":21.5}
	// Tomorrow: 21.5 °C in Lisbon.
	// map[city:Oslo temp_c:21.5]
}
