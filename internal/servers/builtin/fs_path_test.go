package builtin

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAbsolute: how a path from the model becomes absolute, on this
// system's rules (drive letters and both slashes on Windows).
func TestAbsolute(t *testing.T) {
	type tc struct{ p, base, want string }
	cases := []tc{
		{"a/b", filepath.FromSlash("/base"), filepath.FromSlash("/base/a/b")},
		{"a/../../x", filepath.FromSlash("/base"), filepath.FromSlash("/x")},
		{filepath.FromSlash("/etc/x"), filepath.FromSlash("/base"), filepath.FromSlash("/etc/x")},
	}
	errs := []string{}
	if runtime.GOOS == "windows" {
		cases = []tc{
			{`a\b`, `C:\base`, `C:\base\a\b`},
			{`a/b`, `C:\base`, `C:\base\a\b`},
			{`\etc\x`, `D:\base`, `D:\etc\x`},
			{`/etc/x`, `D:\base`, `D:\etc\x`},
			{`c:/base/f`, `C:\base`, `c:\base\f`},
			{`\\srv\share\f`, `C:\base`, `\\srv\share\f`},
		}
		errs = []string{`D:x`, `c:`}
	}
	for _, c := range cases {
		got, err := absolute(c.p, c.base)
		if err != nil || got != c.want {
			t.Errorf("absolute(%q, %q) = %q, %v; want %q", c.p, c.base, got, err, c.want)
		}
	}
	for _, p := range errs {
		if _, err := absolute(p, `C:\base`); err == nil || !strings.Contains(err.Error(), "ambiguous") {
			t.Errorf("absolute(%q) = %v, want the drive-relative error", p, err)
		}
	}
}

func TestQuotePath(t *testing.T) {
	for p, want := range map[string]string{
		`C:\Users\me`: `"C:\Users\me"`,
		"/home/me":    `"/home/me"`,
		"a\nb":        `"a\nb"`,
		`say "hi"`:    `"say \"hi\""`,
	} {
		if got := quotePath(p); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", p, got, want)
		}
	}
}
