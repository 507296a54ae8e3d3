package e2e

// "mcphost servers" and "mcphost tools", through the real binary, against
// the real server-everything over stdio, Streamable HTTP and SSE.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/mcptest"
)

// brokenServer is a stdio server that exits before it says anything.
const brokenServer = `"broken": {"command": "sh", "args": ["-c", "echo 'cannot open database' >&2; exit 3"]}`

func TestServersReportsEachServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {%s, "everything": {"command": %q}, "off": {"command": "x", "disabled": true}}}`,
		brokenServer, mcptest.NPMBin(t, "mcp-server-everything")))

	out := runBinary(t, invocation{args: []string{"servers"}, dir: dir})
	if out.code != 5 || !strings.Contains(out.stderr, "1 of 3 servers could not start") {
		t.Errorf("exit %d, stderr %q; want 5 and a count of the failures", out.code, out.stderr)
	}
	lines := strings.Split(out.stdout, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "SERVER") ||
		!strings.Contains(lines[0], "~TOKENS") {
		t.Fatalf("stdout = %q", out.stdout)
	}
	fields := func(prefix string) []string {
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == prefix {
				return f
			}
		}
		return nil
	}
	if f := fields("everything"); len(f) != 6 || f[1] != "ready" || f[2] != "stdio" || f[3] == "0" || !strings.HasSuffix(f[4], "s") || f[5] == "0" {
		t.Errorf("everything's row = %q", f)
	}
	if f := fields("broken"); len(f) < 2 || f[1] != "failed" {
		t.Errorf("broken's row = %q", f)
	}
	if f := fields("off"); len(f) < 2 || f[1] != "disabled" {
		t.Errorf("off's row = %q", f)
	}
	if !strings.Contains(out.stdout, "cannot open database") {
		t.Errorf("the failure's reason is not shown: %q", out.stdout)
	}

	out = runBinary(t, invocation{args: []string{"servers", "--output", "json"}, dir: dir})
	var doc struct {
		Servers []ui.ServerRecord
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil || out.code != 5 {
		t.Fatalf("exit %d, stdout is not JSON (%v): %q", out.code, err, out.stdout)
	}
	byName := map[string]ui.ServerRecord{}
	for _, s := range doc.Servers {
		byName[s.Name] = s
	}
	if e := byName["everything"]; e.State != "ready" || e.Tools < 10 || e.Tokens < 100 || e.StartMS <= 0 {
		t.Errorf("everything = %+v", e)
	}
	if b := byName["broken"]; b.State != "failed" || !strings.Contains(b.Error, "cannot open database") {
		t.Errorf("broken = %+v", b)
	}
}

func TestServersAllGoodExitsZero(t *testing.T) {
	t.Parallel()
	url := mcptest.StartEverything(t, "streamableHttp")
	out := runBinary(t, invocation{args: []string{"servers", "--url", url}})
	if out.code != 0 || !strings.Contains(out.stdout, "ready") || !strings.Contains(out.stdout, "http") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

func TestToolsList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"tools", "list"}, dir: dir})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	for _, want := range []string{"everything__echo  (~", "Echoes back the input", "message  string, required  Message to echo",
		"everything__get-sum", "a  number, required"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("tools list lacks %q:\n%s", want, out.stdout)
		}
	}

	out = runBinary(t, invocation{args: []string{"tools", "list", "everything", "--output", "json"}, dir: dir})
	var doc struct {
		Tools []struct {
			Name, Server string
			Tokens       int
			Tool         struct {
				Name        string
				InputSchema struct {
					Type       string
					Properties map[string]any
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil || out.code != 0 {
		t.Fatalf("exit %d, stdout is not JSON (%v): %q", out.code, err, out.stdout)
	}
	var echo bool
	for _, tool := range doc.Tools {
		if tool.Name == "everything__echo" {
			echo = tool.Server == "everything" && tool.Tool.Name == "echo" && tool.Tokens > 0 &&
				tool.Tool.InputSchema.Type == "object" && tool.Tool.InputSchema.Properties["message"] != nil
		}
	}
	if !echo {
		t.Errorf("echo is missing or incomplete in %s", out.stdout)
	}

	out = runBinary(t, invocation{args: []string{"tools", "list", "nope"}, dir: dir})
	if out.code != 2 || !strings.Contains(out.stderr, `no server named "nope"; configured: everything`) {
		t.Errorf("unknown server: exit %d, stderr %q", out.code, out.stderr)
	}
}

// TestToolsCallTransports calls get-sum over each transport, with the
// arguments given each way.
func TestToolsCallTransports(t *testing.T) {
	t.Parallel()
	bin := mcptest.NPMBin(t, "mcp-server-everything")
	httpURL := mcptest.StartEverything(t, "streamableHttp")
	sseURL := mcptest.StartEverything(t, "sse")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"config, full name", []string{"tools", "call", "everything__get-sum", `{"a": 2, "b": 3}`}, ""},
		{"stdio, bare name", []string{"tools", "call", "--stdio", fmt.Sprintf("sh -c 'exec \"%s\"'", bin), "get-sum", `{"a":2,"b":3}`}, ""},
		{"http", []string{"tools", "call", "--url", httpURL, "get-sum", `{"a":2,"b":3}`}, ""},
		{"sse, found after http fails", []string{"tools", "call", "--url", sseURL, "get-sum", "-"}, `{"a": 2, "b": 3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runBinary(t, invocation{args: tt.args, stdin: tt.stdin, dir: dir})
			// The text as the server sent it: no newline added.
			if out.code != 0 || out.stdout != "The sum of 2 and 3 is 5." {
				t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
		})
	}

	t.Run("json output is the raw result", func(t *testing.T) {
		out := runBinary(t, invocation{args: []string{"tools", "call", "--url", httpURL, "get-tiny-image", "--output", "json"}})
		var res struct {
			Content []struct{ Type, Text, Data, MimeType string }
			IsError bool
		}
		if err := json.Unmarshal([]byte(out.stdout), &res); err != nil || out.code != 0 {
			t.Fatalf("exit %d, stdout is not JSON (%v): %q", out.code, err, out.stdout)
		}
		if len(res.Content) != 3 || res.Content[1].Type != "image" || res.Content[1].MimeType != "image/png" || res.Content[1].Data == "" {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("text output summarises other content", func(t *testing.T) {
		out := runBinary(t, invocation{args: []string{"tools", "call", "--url", httpURL, "get-tiny-image"}})
		if out.code != 0 || !strings.Contains(out.stdout, "[image image/png, ") || strings.Contains(out.stdout, "iVBOR") {
			t.Errorf("exit %d, stdout %q", out.code, out.stdout)
		}
	})
	t.Run("isError exits 6", func(t *testing.T) {
		out := runBinary(t, invocation{args: []string{"tools", "call", "--url", httpURL, "get-sum", `{"a": "two"}`}})
		if out.code != 6 || !strings.Contains(out.stdout, "expected number") || !strings.Contains(out.stderr, "server__get-sum reported an error") {
			t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
	})
	t.Run("elicitation is declined unless accept-defaults", func(t *testing.T) {
		// server-everything's form has a required field without a
		// default, so even accept-defaults declines it.
		for _, mode := range []string{"", "accept-defaults"} {
			args := []string{"tools", "call", "--url", httpURL, "trigger-elicitation-request"}
			if mode != "" {
				args = append(args, "--elicitation", mode)
			}
			out := runBinary(t, invocation{args: args})
			if out.code != 0 || !strings.Contains(out.stdout, "declined") || !strings.Contains(out.stderr, `server "server" asked for input`) {
				t.Errorf("--elicitation %q: exit %d, stdout %q, stderr %q", mode, out.code, out.stdout, out.stderr)
			}
		}
	})
}

func TestToolsCallPicksTheServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := mcptest.NPMBin(t, "mcp-server-everything")
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"a": {"command": %q}, "b": {"command": %q}, %s}}`, bin, bin, brokenServer))

	out := runBinary(t, invocation{args: []string{"tools", "call", "a__echo", `{"message": "hi"}`}, dir: dir})
	if out.code != 0 || out.stdout != "Echo: hi" || out.stderr != "" {
		t.Errorf("a__echo: exit %d, stdout %q, stderr %q (only a should start)", out.code, out.stdout, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"tools", "call", "echo", `{"message": "hi"}`}, dir: dir})
	if out.code != 2 || !strings.Contains(out.stderr, `tool name "echo" is ambiguous: it could be "a__echo" or "b__echo"`) {
		t.Errorf("ambiguous: exit %d, stderr %q", out.code, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"tools", "call", "broken__x"}, dir: dir})
	if out.code != 5 || !strings.Contains(out.stderr, "cannot open database") {
		t.Errorf("broken server: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestInspectUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tools"}, "tools needs list or call"},
		{[]string{"tools", "frob"}, `unknown command tools "frob"`},
		{[]string{"tools", "call"}, "needs the name of a tool"},
		{[]string{"servers", "extra"}, `unexpected argument "extra"`},
		{[]string{"servers", "--url", "http://x", "--stdio", "y"}, "not both"},
		{[]string{"servers", "--url", "ftp://x"}, "not an http:// or https:// URL"},
		{[]string{"servers", "--stdio", "'unclosed"}, "not closed"},
		{[]string{"tools", "call", "--stdio", "true", "t", "{bad"}, "must be one JSON object"},
		{[]string{"servers", "--output", "stream-json"}, "use --output json"},
		{[]string{"--url", "http://x", "-p", "hi"}, "--url and --stdio"},
		{[]string{"frob"}, `unexpected argument "frob"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := runBinary(t, invocation{args: tt.args, host: closedPort(t)})
			if out.code != 2 || !strings.Contains(out.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q, want exit 2 and %q", out.code, out.stderr, tt.want)
			}
		})
	}
}
