package config

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorString(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"all parts", &Error{File: "/etc/mcp.json", Server: "fs", Message: "boom"}, `/etc/mcp.json: server "fs": boom`},
		{"no server", &Error{File: "/etc/mcp.json", Message: "boom"}, `/etc/mcp.json: boom`},
		{"no file", &Error{Server: "fs", Message: "boom"}, `server "fs": boom`},
		{"message only", &Error{Message: "--max-steps must be at least 1"}, `--max-steps must be at least 1`},
		{"home", &Error{File: "/home/u/.mcp.json", Message: "boom", HomeDir: "/home/u", WorkDir: "/srv/p"}, `~/.mcp.json: boom`},
		{"work dir wins", &Error{File: "/home/u/p/.mcp.json", Message: "boom", HomeDir: "/home/u", WorkDir: "/home/u/p"}, `.mcp.json: boom`},
		{"work dir is home", &Error{File: "/home/u/.mcp.json", Message: "boom", HomeDir: "/home/u", WorkDir: "/home/u"}, `~/.mcp.json: boom`},
		{"elsewhere", &Error{File: "/home/uu/.mcp.json", Message: "boom", HomeDir: "/home/u", WorkDir: "/srv"}, `/home/uu/.mcp.json: boom`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestErrorUnwrap(t *testing.T) {
	err := error(&Error{Message: "x", Err: fs.ErrNotExist})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is does not see the wrapped error")
	}
}
