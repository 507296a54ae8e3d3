package mcptest

import (
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fatalTB records the first Fatalf instead of failing the real test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatalOf runs fn with a fatalTB in its own goroutine, as Goexit needs.
func fatalOf(t *testing.T, fn func(tb testing.TB)) string {
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.msg
}

func TestNPMBin(t *testing.T) {
	for _, name := range []string{"mcp-server-everything", "mcp-server-filesystem", "mcp-server-memory"} {
		path := NPMBin(t, name)
		if !filepath.IsAbs(path) || filepath.Base(path) != name {
			t.Errorf("NPMBin(%s) = %q", name, path)
		}
	}
	msg := fatalOf(t, func(tb testing.TB) { NPMBin(tb, "no-such-server") })
	want := `no-such-server not installed: run "npm ci --prefix testdata/npm"`
	if msg != want {
		t.Errorf("missing server: %q, want %q", msg, want)
	}
}

func TestSpecs(t *testing.T) {
	fs := FilesystemSpec(t, "fs", "/a", "/b")
	mem := MemorySpec(t, "mem", "/tmp/m.json")
	if fs.Name != "fs" || len(fs.Args) != 2 || mem.Env["MEMORY_FILE_PATH"] != "/tmp/m.json" || EverythingSpec(t, "e").Command == "" {
		t.Errorf("specs: %+v %+v", fs, mem)
	}
}

func TestStartEverything(t *testing.T) {
	tests := []struct{ mode, suffix, contentType string }{
		{"streamableHttp", "/mcp", ""},
		{"sse", "/sse", "text/event-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			url := StartEverything(t, tt.mode)
			if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, tt.suffix) {
				t.Fatalf("url %q", url)
			}
			if tt.contentType == "" {
				return
			}
			client := &http.Client{Timeout: 5 * time.Second}
			req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.contentType) {
				t.Errorf("GET %s: Content-Type %q", url, got)
			}
		})
	}
	msg := fatalOf(t, func(tb testing.TB) { StartEverything(tb, "stdio") })
	if !strings.Contains(msg, `unknown everything mode "stdio"`) {
		t.Errorf("bad mode: %q", msg)
	}
}
