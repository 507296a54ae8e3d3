package e2e

// The commands without a model as a program reads them (issue 30's second
// sweep of real servers): --output json is one document whatever happens,
// prompts and resources keep MCP's shape, text keeps its bytes, and
// "SERVER:URI" takes a URI without a scheme.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/internal/faultserver"
	"github.com/mcphost/mcphost/mcptest"
)

// contentServer is a config entry for the fault server with its -content
// resources, prompt and tool, named name.
func contentServer(e *faultEnv, name string) string { return e.server(name, "", "-content") }

// oneJSON parses stdout as exactly one JSON document.
func oneJSON(t *testing.T, what string, out outcome) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out.stdout))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: exit %d, stdout is not JSON (%v): %q, stderr %q", what, out.code, err, out.stdout, out.stderr)
	}
	var more any
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		t.Errorf("%s: stdout holds more than one JSON document: %q", what, out.stdout)
	}
	return doc
}

func TestJSONOutputIsOneDocumentWhateverFails(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(contentServer(e, "docs"), e.server("down", "", "-exit-at-start", "-message", "fault: no database"))
	run := func(args ...string) outcome {
		return runBinary(t, invocation{args: append(args, "--output", "json"), dir: e.dir})
	}

	// A tool that reports an error: its result, as the server sent it,
	// is the document; the exit code says it failed.
	out := run("tools", "call", "docs__fail")
	doc := oneJSON(t, "tools call docs__fail", out)
	content, _ := doc["content"].([]any)
	if out.code != 6 || doc["isError"] != true || len(content) != 1 || !strings.Contains(out.stdout, faultserver.FailureText) || doc["error"] != nil {
		t.Errorf("tools call docs__fail: exit %d, stdout %q; want the result with isError alone, exit 6", out.code, out.stdout)
	}
	if !strings.Contains(out.stderr, "docs__fail reported an error") {
		t.Errorf("tools call docs__fail: stderr %q does not say the tool reported an error", out.stderr)
	}

	// Every other failure: {"error", "exit_code"}, and nothing more.
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"servers"}, 5, ""}, // the report itself, which shows "down" failed
		{[]string{"tools", "list", "nope"}, 2, `no server named \"nope\"`},
		{[]string{"tools", "call", "docs__echo", "{bad"}, 2, "one JSON object"},
		{[]string{"tools", "call", "docs__nope"}, 2, `unknown tool`},
		{[]string{"prompts", "get", "nope"}, 2, `unknown prompt`},
		{[]string{"prompts", "list", "nope"}, 2, `no server named \"nope\"`},
		{[]string{"resources", "read", "docs:/docs/nothing"}, 6, "/docs/nothing"},
		{[]string{"resources", "list", "nope"}, 2, `no server named \"nope\"`},
		// A config that cannot be read, with --output json given.
		{[]string{"tools", "list", "--config", filepath.Join(e.dir, "missing.json")}, 2, "does not exist"},
	} {
		what := strings.Join(c.args, " ")
		out := run(c.args...)
		doc := oneJSON(t, what, out)
		if out.code != c.code || !strings.Contains(out.stdout, c.want) {
			t.Errorf("%s: exit %d (want %d), stdout %q, want it to hold %q", what, out.code, c.code, out.stdout, c.want)
		}
		if c.want != "" && doc["exit_code"] != float64(c.code) {
			t.Errorf("%s: exit_code %v, want %d", what, doc["exit_code"], c.code)
		}
	}
}

func TestResourceURIWithoutASchemeAfterTheServer(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(contentServer(e, "terraform"), contentServer(e, "docs"))
	run := func(args ...string) outcome { return runBinary(t, invocation{args: args, dir: e.dir}) }

	// The server, then a URI that has no scheme, as the terraform
	// server lists its guides.
	out := run("resources", "read", "terraform:"+faultserver.StyleGuideURI)
	if out.code != 0 || out.stdout != faultserver.StyleGuideText {
		t.Errorf("terraform:%s: exit %d, stdout %q, stderr %q", faultserver.StyleGuideURI, out.code, out.stdout, out.stderr)
	}
	// A whole URI whose scheme is a server's name: the server lists the
	// whole, not what follows the ':'.
	out = run("resources", "read", faultserver.IndexURI)
	if out.code != 0 || out.stdout != "the index" {
		t.Errorf("%s: exit %d, stdout %q, stderr %q", faultserver.IndexURI, out.code, out.stdout, out.stderr)
	}
	// Both readings listed: an error naming both, and how to give each.
	out = run("resources", "read", faultserver.ShadowURI)
	for _, want := range []string{"ambiguous", `"` + faultserver.StyleGuideURI + `" of server "docs"`, `"` + faultserver.ShadowURI + `" of server "docs"`, `"docs:` + faultserver.ShadowURI + `"`} {
		if out.code != 2 || !strings.Contains(out.stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want it to hold %q", faultserver.ShadowURI, out.code, out.stderr, want)
		}
	}
	out = run("resources", "read", "docs:"+faultserver.ShadowURI)
	if out.code != 0 || out.stdout != "the shadow" {
		t.Errorf("docs:%s: exit %d, stdout %q, stderr %q", faultserver.ShadowURI, out.code, out.stdout, out.stderr)
	}
}

func TestPromptAndResourceJSONKeepMCPShape(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(contentServer(e, "guides"))
	run := func(args ...string) outcome { return runBinary(t, invocation{args: args, dir: e.dir}) }

	out := run("prompts", "get", "guides__embedded", "--output", "json")
	var prompt struct {
		Name     string
		Messages []struct {
			Role    string
			Content map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out.stdout), &prompt); err != nil || out.code != 0 || len(prompt.Messages) != 3 {
		t.Fatalf("prompts get: exit %d, %v, stdout %q, stderr %q", out.code, err, out.stdout, out.stderr)
	}
	wantText := map[string]any{"type": "text", "text": "Follow the style guide."}
	wantGuide := map[string]any{"type": "resource", "resource": map[string]any{"uri": faultserver.StyleGuideURI, "mimeType": "text/markdown", "text": faultserver.StyleGuideText}}
	wantEmpty := map[string]any{"type": "resource", "resource": map[string]any{"uri": faultserver.EmptyURI, "mimeType": "text/markdown", "text": ""}}
	for i, want := range []map[string]any{wantText, wantGuide, wantEmpty} {
		if got, _ := json.Marshal(prompt.Messages[i].Content); !jsonEqual(got, want) {
			t.Errorf("message %d: content %s, want MCP's %v", i, got, want)
		}
	}

	for _, c := range []struct{ uri, text string }{{faultserver.EmptyURI, ""}, {faultserver.StyleGuideURI, faultserver.StyleGuideText}} {
		out = run("resources", "read", "guides:"+c.uri, "--output", "json")
		var read struct {
			Server   string
			Contents []map[string]any
		}
		if err := json.Unmarshal([]byte(out.stdout), &read); err != nil || out.code != 0 || read.Server != "guides" || len(read.Contents) != 1 {
			t.Fatalf("resources read %s: exit %d, %v, stdout %q", c.uri, out.code, err, out.stdout)
		}
		want := map[string]any{"uri": c.uri, "mimeType": "text/markdown", "text": c.text}
		if got, _ := json.Marshal(read.Contents[0]); !jsonEqual(got, want) {
			t.Errorf("resources read %s: contents %s, want MCP's ResourceContents %v", c.uri, got, want)
		}
	}
}

func TestBlobResourceJSONIsMCPsShape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"resources", "read", "demo://resource/dynamic/blob/1", "--output", "json"}, dir: dir})
	var read struct {
		Contents []map[string]any
	}
	if err := json.Unmarshal([]byte(out.stdout), &read); err != nil || out.code != 0 || len(read.Contents) != 1 {
		t.Fatalf("exit %d, %v, stdout %q", out.code, err, out.stdout)
	}
	c := read.Contents[0]
	if blob, _ := c["blob"].(string); blob == "" || c["uri"] != "demo://resource/dynamic/blob/1" || c["type"] != nil || c["data"] != nil {
		t.Errorf("contents %v, want MCP's BlobResourceContents: uri, mimeType, blob", c)
	}
}

// jsonEqual reports whether the JSON got says what want does.
func jsonEqual(got []byte, want any) bool {
	w, _ := json.Marshal(want)
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal(w, &b) == nil && fmt.Sprint(a) == fmt.Sprint(b)
}

func TestTextOutputKeepsTheBytes(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	data := filepath.Join(e.dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	// 318,000 bytes, the size measured, without a final newline.
	big := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\n"), 318000/64+1)[:318000]
	big[len(big)-1] = '.'

	if err := os.WriteFile(filepath.Join(data, "big.txt"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, _ := json.Marshal(map[string]any{"command": mcptest.NPMBin(t, "mcp-server-filesystem"), "args": []string{data}})
	e.config(contentServer(e, "guides"), `"fs": `+string(fs))
	run := func(args ...string) outcome { return runBinary(t, invocation{args: args, dir: e.dir}) }

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resources", "read", "guides:" + faultserver.StyleGuideURI}, faultserver.StyleGuideText},
		{[]string{"resources", "read", "guides:" + faultserver.EmptyURI}, ""},
		{[]string{"tools", "call", "guides__echo", `{"message": "hi"}`}, "Echo: hi"},
		{[]string{"tools", "call", "fs__read_text_file", fmt.Sprintf(`{"path": %q}`, filepath.Join(data, "big.txt"))}, string(big)},
	} {
		out := run(c.args...)
		if out.code != 0 || out.stdout != c.want {
			t.Errorf("%s: exit %d, %d bytes on stdout (%.40q…), want the %d bytes the server sent; stderr %q",
				strings.Join(c.args, " "), out.code, len(out.stdout), out.stdout, len(c.want), out.stderr)
		}
	}
}

func TestUnsetSecretVariableHintIsTheConfigForm(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// The leaky server writes "${MY_API_KEY:-sk-live-…}" on stderr as it
	// fails; its command line spells "${" apart, which the config would
	// expand.
	leaky := `printf '%s{MY_API_KEY:-sk-live-4f9a8b7c6d}\n' '$' >&2; exit 3`
	e.config(e.server("needs", `"env": {"MY_API_KEY": "${MCPHOST_TEST_UNSET_API_KEY}"}`),
		fmt.Sprintf(`"leaky": {"command": "sh", "args": ["-c", %q]}`, leaky))
	out := runBinary(t, invocation{args: []string{"servers"}, dir: e.dir})
	all := out.stdout + out.stderr
	if out.code != 5 || !strings.Contains(all, "write ${MCPHOST_TEST_UNSET_API_KEY:-default}") {
		t.Errorf("servers: exit %d, output %q: want the hint ${MCPHOST_TEST_UNSET_API_KEY:-default}, as the user can type it", out.code, all)
	}
	// A default written out is a value, and stays masked.
	if strings.Contains(all, "sk-live-4f9a8b7c6d") || !strings.Contains(all, "${MY_API_KEY:***}") {
		t.Errorf("servers: output %q shows a secret default, or not the line that held it", all)
	}
}
