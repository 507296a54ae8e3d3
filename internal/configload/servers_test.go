package configload

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
)

func TestServersFromMap(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "TOKEN": "t"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	raw := map[string]any{
		"zeta":  map[string]any{"command": "${HOME}/z", "cwd": "~/data"},
		"Alpha": map[string]any{"type": "remote", "url": "https://a.example", "headers": []any{"Authorization: Bearer ${TOKEN}"}},
		"mid":   map[any]any{"command": []any{"run", 1}, "cwd": "rel", "Allowed-Tools": []any{"x"}},
	}
	got, err := ServersFromMap(raw, "script.sh", "/proj", lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := []config.ServerSpec{
		{Name: "Alpha", Transport: config.TransportHTTP, URL: "https://a.example", Headers: map[string]string{"Authorization": "Bearer t"},
			StartTimeout: config.DefaultStartTimeout, Source: "script.sh"},
		{Name: "mid", Transport: config.TransportStdio, Command: "run", Args: []string{"1"}, Dir: "/proj/rel", AllowedTools: []string{"x"},
			StartTimeout: config.DefaultStartTimeout, Source: "script.sh"},
		{Name: "zeta", Transport: config.TransportStdio, Command: "/home/u/z", Dir: "/home/u/data", StartTimeout: config.DefaultStartTimeout, Source: "script.sh"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}

	specs, err := ServersFromMap(map[string]any{"s": map[string]any{"command": "x", "env": map[string]any{"K": "${NOPE}"}}}, "script.sh", "/proj", lookup)
	if err == nil && len(specs) == 1 {
		err = specs[0].Err
	}
	var ce *config.Error
	if !errors.As(err, &ce) || ce.File != "script.sh" || ce.Server != "s" || ce.Field != "env" {
		t.Errorf("err = %v, want *Error for script.sh, server s, field env", err)
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		in   any
		want time.Duration
		ok   bool
	}{
		{45.0, 45 * time.Second, true},
		{2, 2 * time.Second, true},
		{int64(3), 3 * time.Second, true},
		{"90", 90 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"2m", 2 * time.Minute, true},
		{"1m30s", 90 * time.Second, true},
		{"0s", 0, false},
		{-1.0, 0, false},
		{1e300, 0, false},
		{"later", 0, false},
		{true, 0, false},
	}
	p := &serverParser{source: "f"}
	for _, tt := range tests {
		got, err := p.duration("s", "timeout", tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("timeout(%v) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
