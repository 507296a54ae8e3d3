package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/guard/secret"
	"github.com/mcphost/mcphost/internal/servers"
)

const (
	envSecret    = "env-value-that-is-secret-1"
	headerSecret = "header-token-xyz-2"
)

// manager is a real manager connected to an in-process server with an
// echo tool (read-only) and a failing write tool.
func manager(t *testing.T) *servers.Manager {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			b, _ := json.Marshal(in)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "write"},
		func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk full, token=" + headerSecret}}}, nil, nil
		})
	m := servers.NewManager([]config.ServerSpec{{Name: "srv", Transport: config.TransportBuiltin, Builtin: "t"}},
		servers.Options{Builtin: func(context.Context, config.ServerSpec) (*mcp.Server, error) { return srv, nil }})
	t.Cleanup(func() { m.Close() })
	if errs := m.Start(context.Background()); len(errs) > 0 {
		t.Fatal(errs)
	}
	return m
}

func readEntries(t *testing.T, path string) ([]Entry, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		entries = append(entries, e)
	}
	return entries, string(data)
}

func TestLogRecordsEveryCallMasked(t *testing.T) {
	m := manager(t)
	mask := secret.FromServers([]config.ServerSpec{{
		Env:     map[string]string{"DB_PASSWORD": envSecret},
		Headers: map[string]string{"Authorization": "Bearer " + headerSecret},
	}})
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := Open(path, mask, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tb := approval.New(m, approval.Options{Info: m, Observer: log})
	ctx := context.Background()
	args := map[string]any{"message": "connect with " + envSecret, "api_key": "sk-live-123", "auth": map[string]any{"header": "Bearer " + headerSecret}}
	if _, err := tb.Call(ctx, "srv__echo", args); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Call(ctx, "srv__write", map[string]any{"path": "a.txt"}); err != nil {
		t.Fatal(err)
	}
	tb = approval.New(m, approval.Options{Info: m, Observer: log, Policy: approval.Policy{Allow: []string{"srv__write"}}})
	if _, err := tb.Call(ctx, "srv__write", map[string]any{"path": "b.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}

	entries, raw := readEntries(t, path)
	for _, leak := range []string{envSecret, headerSecret, "sk-live-123"} {
		if strings.Contains(raw, leak) {
			t.Errorf("the audit log holds the secret %q:\n%s", leak, raw)
		}
	}
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3:\n%s", len(entries), raw)
	}
	echo, refused, failed := entries[0], entries[1], entries[2]
	if echo.Server != "srv" || echo.Tool != "echo" || echo.Name != "srv__echo" || echo.Decision != "allowed" ||
		!echo.OK || echo.ResultBytes == 0 || echo.Time.IsZero() || echo.DurationMS <= 0 {
		t.Errorf("echo entry = %+v", echo)
	}
	if echo.Arguments["message"] != "connect with ***" || echo.Arguments["api_key"] != "***" {
		t.Errorf("echo arguments = %v", echo.Arguments)
	}
	// The result is kept as the model saw it, masked.
	if echo.Result == nil || !strings.Contains(*echo.Result, `connect with ***`) {
		t.Errorf("echo result = %v", echo.Result)
	}
	if refused.Result != nil {
		t.Errorf("a call that did not run has a result: %q", *refused.Result)
	}
	if refused.Decision != "policy" || refused.OK || refused.ResultBytes != 0 || refused.DurationMS != 0 || refused.Arguments["path"] != "a.txt" {
		t.Errorf("refused entry = %+v", refused)
	}
	if failed.Decision != "allowed" || failed.OK || !strings.HasPrefix(failed.Error, "disk full") {
		t.Errorf("failed entry = %+v", failed)
	}
	// Arguments are masked in the log only: the call got them as they were.
	if args["api_key"] != "sk-live-123" {
		t.Error("logging modified the arguments")
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "missing", "audit.jsonl"), nil, nil, 0)
	if err == nil || !strings.Contains(err.Error(), "cannot open the audit log") || !strings.Contains(err.Error(), "--audit") {
		t.Errorf("err = %v", err)
	}
}

func TestLogAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := range 2 {
		log, err := Open(path, nil, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		log.Observe(approval.Record{Name: "x__y", Outcome: approval.Denied, Arguments: map[string]any{"i": i}})
		log.Close()
	}
	entries, _ := readEntries(t, path)
	if len(entries) != 2 || entries[1].Arguments["i"] != 1.0 || entries[0].Decision != "denied" {
		t.Errorf("entries = %+v", entries)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600: the log holds arguments", info.Mode(), err)
	}
}

func TestResultIsCutToTheCap(t *testing.T) {
	m := manager(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := Open(path, nil, nil, 64)
	if err != nil {
		t.Fatal(err)
	}
	tb := approval.New(m, approval.Options{Info: m, Observer: log})
	if _, err := tb.Call(context.Background(), "srv__echo", map[string]any{"message": strings.Repeat("x", 500)}); err != nil {
		t.Fatal(err)
	}
	log.Close()
	entries, _ := readEntries(t, path)
	if r := entries[0].Result; r == nil || len(*r) > 120 || !strings.Contains(*r, "bytes cut") {
		t.Errorf("result = %v, want it cut to about 64 bytes with the cut marked", r)
	}
}

// TestALinkAsTheLogIsRefused: a symbolic link planted as the audit log
// would have the log's lines appended to its target.
func TestALinkAsTheLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	log, err := Open(path, nil, nil, 0)
	if err == nil {
		log.Observe(approval.Record{Name: "x__y", Outcome: approval.Denied})
		log.Close()
	}
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "--audit") {
		t.Errorf("err = %v, want one naming %s as a link and saying what to do", err, path)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target was written: %q", data)
	}
}

// TestALinkToADeviceIsFollowed: --audit /dev/stderr (a link on Linux)
// goes on working; such a link leads to no file that could be spoilt.
func TestALinkToADeviceIsFollowed(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "audit")
	if err := os.Symlink(os.DevNull, path); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	log, err := Open(path, nil, nil, 0)
	if err != nil {
		t.Fatalf("a link to %s: %v", os.DevNull, err)
	}
	log.Close()
}
