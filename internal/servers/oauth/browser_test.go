package oauth

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestWithURL(t *testing.T) {
	u := "http://127.0.0.1:1/authorize?a=1&b=%41"
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"firefox"}, "firefox|" + u},
		{[]string{"open", "-a", "Safari", "%s"}, "open|-a|Safari|" + u},
		{[]string{"sh", "-c", "echo 100%% %s"}, "sh|-c|echo 100% " + u},
	} {
		if got := strings.Join(withURL(tt.argv, u), "|"); got != tt.want {
			t.Errorf("withURL(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}

func TestOpenBrowserRunsTheFirstBrowserThatStarts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the browser here is a shell script")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" > "+out+".tmp && mv "+out+".tmp "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", filepath.Join(dir, "missing")+":"+script+" %s")
	url := "http://127.0.0.1:1/authorize?x=1"
	if err := OpenBrowser(url); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(out)
		if err == nil {
			if strings.TrimSpace(string(data)) != url {
				t.Errorf("the browser got %q, want %q", data, url)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the browser never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestOpenBrowserFailsWhenNoneStarts(t *testing.T) {
	t.Setenv("BROWSER", filepath.Join(t.TempDir(), "missing"))
	if err := OpenBrowser("http://x/"); err == nil {
		t.Error("no error with a $BROWSER that does not exist")
	}
}
