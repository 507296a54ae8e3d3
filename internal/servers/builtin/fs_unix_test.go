//go:build unix

package builtin

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFSRefusesSpecialFiles(t *testing.T) {
	f := newFSFixture(t)
	fifo := filepath.Join(f.allowed, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	// Opening a FIFO for reading normally blocks until a writer comes; the
	// deadline turns a hang into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "pipe"}},
		{"write_file", map[string]any{"path": "pipe", "content": "x"}},
		{"edit_file", map[string]any{"path": "pipe", "old_text": "a", "new_text": "b"}},
	} {
		text, isErr := callCtx(ctx, t, f.cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(text, "not a regular file") {
			t.Errorf("%s on a FIFO = %q (error %v)", tc.tool, text, isErr)
		}
	}
}
