package configload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadPrompt(t *testing.T) {
	file := func(content string) *os.File {
		path := filepath.Join(t.TempDir(), "stdin")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	tests := []struct {
		name, flag string
		stdin      *os.File
		limit      int
		want, err  string
	}{
		{name: "flag only", flag: " hi ", stdin: devNull, limit: 10, want: "hi"},
		{name: "stdin only", stdin: file("  piped\n"), limit: 10, want: "piped"},
		{name: "both", flag: "sum up", stdin: file("data"), limit: 10, want: "sum up\n\ndata"},
		{name: "empty stdin", flag: "hi", stdin: file(""), limit: 10, want: "hi"},
		{name: "at the limit", stdin: file("0123456789"), limit: 10, want: "0123456789"},
		{name: "past the limit", stdin: file("0123456789x"), limit: 10, err: "--max-stdin-bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPrompt(tt.flag, tt.stdin, tt.limit)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ReadPrompt = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
