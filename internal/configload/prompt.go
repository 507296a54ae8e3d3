package configload

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcphost/mcphost/internal/termtext"
)

// ReadPrompt combines -p with piped stdin: stdin alone is the prompt; with
// -p it is attached to the prompt as context. Input longer than limit
// bytes is refused, having read no more than one byte past it, before
// anything starts. A terminal or /dev/null on stdin is not read, so a
// script that leaves stdin alone is not blocked.
func ReadPrompt(flagPrompt string, stdin *os.File, limit int) (string, error) {
	flagPrompt = strings.TrimSpace(flagPrompt)
	if !isPiped(stdin) {
		return flagPrompt, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, int64(limit)+1))
	if err != nil {
		return "", fmt.Errorf("reading the prompt from stdin: %w", err)
	}
	if len(data) > limit {
		return "", fmt.Errorf("stdin holds more than %s, the limit (--max-stdin-bytes): nothing was sent; pipe in less, or raise --max-stdin-bytes", termtext.Bytes(limit))
	}
	piped := strings.TrimSpace(string(data))
	switch {
	case piped == "":
		return flagPrompt, nil
	case flagPrompt == "":
		return piped, nil
	default:
		return flagPrompt + "\n\n" + piped, nil
	}
}

// isPiped is true for a pipe or a redirected file, and false for a
// terminal or /dev/null.
func isPiped(f *os.File) bool {
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular()
}
