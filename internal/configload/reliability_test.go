package configload

import (
	"errors"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
)

// TestReliabilityKeys reads toolTimeout, maxRestarts and maxResultBytes in
// the forms JSON and YAML give them, and names the field of a bad value.
func TestReliabilityKeys(t *testing.T) {
	tests := []struct {
		name   string
		fields map[string]any
		want   config.ServerSpec // only the three fields are compared
		bad    string            // the field an error must name
	}{
		{"absent", nil, config.ServerSpec{}, ""},
		{"seconds", map[string]any{"toolTimeout": 90.0, "maxRestarts": 3.0, "maxResultBytes": 2000.0},
			config.ServerSpec{ToolTimeout: 90 * time.Second, MaxRestarts: 3, MaxResultBytes: 2000}, ""},
		{"yaml ints and strings", map[string]any{"tool-timeout": "2m", "max_restarts": 1, "maxresultbytes": "500"},
			config.ServerSpec{ToolTimeout: 2 * time.Minute, MaxRestarts: 1, MaxResultBytes: 500}, ""},
		{"fractional seconds", map[string]any{"toolTimeout": "0.5"}, config.ServerSpec{ToolTimeout: 500 * time.Millisecond}, ""},
		{"no restarts", map[string]any{"maxRestarts": 0}, config.ServerSpec{MaxRestarts: -1}, ""},
		{"zero timeout", map[string]any{"toolTimeout": 0}, config.ServerSpec{}, "toolTimeout"},
		{"bad duration", map[string]any{"toolTimeout": "soon"}, config.ServerSpec{}, "toolTimeout"},
		{"negative restarts", map[string]any{"maxRestarts": -2}, config.ServerSpec{}, "maxRestarts"},
		{"fractional restarts", map[string]any{"maxRestarts": 1.5}, config.ServerSpec{}, "maxRestarts"},
		{"zero result bytes", map[string]any{"maxResultBytes": 0}, config.ServerSpec{}, "maxResultBytes"},
		{"list", map[string]any{"maxResultBytes": []any{1}}, config.ServerSpec{}, "maxResultBytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entry := map[string]any{"command": "srv"}
			for k, v := range tt.fields {
				entry[k] = v
			}
			specs, err := ServersFromMap(map[string]any{"s": entry}, "mcp.json", "/proj", func(string) (string, bool) { return "", false })
			if tt.bad != "" {
				var ce *config.Error
				if !errors.As(err, &ce) || ce.Field != tt.bad || ce.Server != "s" {
					t.Errorf("err = %v, want an error for field %s of server s", err, tt.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := specs[0]
			if got.ToolTimeout != tt.want.ToolTimeout || got.MaxRestarts != tt.want.MaxRestarts || got.MaxResultBytes != tt.want.MaxResultBytes {
				t.Errorf("got toolTimeout %v, maxRestarts %d, maxResultBytes %d; want %v, %d, %d",
					got.ToolTimeout, got.MaxRestarts, got.MaxResultBytes, tt.want.ToolTimeout, tt.want.MaxRestarts, tt.want.MaxResultBytes)
			}
		})
	}
}
