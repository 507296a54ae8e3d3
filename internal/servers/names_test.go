package servers

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"echo", "echo"},
		{"get-sum", "get-sum"},
		{"a.b c/d", "a_b_c_d"},
		{"日本", "__"},
		{"", ""},
		{"Tool_9", "Tool_9"},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExposedNames(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		name string
		refs []toolRef
		want []string // "" means: only check length and uniqueness
	}{
		{
			name: "plain",
			refs: []toolRef{{"fs", "read_file"}, {"everything", "get-sum"}},
			want: []string{"fs__read_file", "everything__get-sum"},
		},
		{
			name: "sanitised",
			refs: []toolRef{{"my server", "do.it"}},
			want: []string{"my_server__do_it"},
		},
		{
			name: "collision after sanitising gets a suffix in order",
			refs: []toolRef{{"s", "a.b"}, {"s", "a_b"}, {"s", "a b"}},
			want: []string{"s__a_b", "s__a_b_2", "s__a_b_3"},
		},
		{
			name: "suffix does not steal a later natural name",
			refs: []toolRef{{"s", "a"}, {"s", "a"}, {"s", "a_2"}},
			want: []string{"s__a", "s__a_2", "s__a_2_2"},
		},
		{
			name: "long names are cut and hashed apart",
			refs: []toolRef{{"srv", long + "1"}, {"srv", long + "2"}},
			want: []string{"", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := exposedNames(tt.refs)
			seen := map[string]bool{}
			for i, name := range got {
				if len(name) > maxNameLen {
					t.Errorf("%q is %d characters, want at most %d", name, len(name), maxNameLen)
				}
				if strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
					t.Errorf("%q holds characters outside [A-Za-z0-9_-]", name)
				}
				if seen[name] {
					t.Errorf("%q given twice", name)
				}
				seen[name] = true
				if tt.want[i] != "" && name != tt.want[i] {
					t.Errorf("name %d = %q, want %q", i, name, tt.want[i])
				}
			}
		})
	}
}

func TestExposedNameLongIsStable(t *testing.T) {
	ref := toolRef{"server", strings.Repeat("t", 100)}
	a, b := exposedName(ref), exposedName(ref)
	if a != b || len(a) != maxNameLen || !strings.HasPrefix(a, "server__ttt") {
		t.Errorf("exposedName = %q then %q; want one stable %d-character name", a, b, maxNameLen)
	}
}

func TestExposedNamesLongCollision(t *testing.T) {
	// The same long tool on two servers whose names sanitise alike:
	// the hash differs, so no "_2" suffix is needed.
	tool := strings.Repeat("t", 80)
	got := exposedNames([]toolRef{{"a.b", tool}, {"a_b", tool}})
	if got[0] == got[1] {
		t.Fatalf("both named %q", got[0])
	}
	for _, n := range got {
		if len(n) != maxNameLen {
			t.Errorf("%q: length %d, want %d", n, len(n), maxNameLen)
		}
	}
}

func TestForCall(t *testing.T) {
	specs := []config.ServerSpec{{Name: "a.b", MaxResultBytes: 10}, {Name: "a_b"}, {Name: "fs"}}
	names := func(specs []config.ServerSpec) (out []string) {
		for _, s := range specs {
			if s.MaxResultBytes != math.MaxInt32 {
				t.Errorf("%s keeps its result cut at %d bytes", s.Name, s.MaxResultBytes)
			}
			out = append(out, s.Name)
		}
		return out
	}
	for _, tt := range []struct {
		tool string
		want []string
	}{
		{"fs__read", []string{"fs"}},
		{"a_b__x", []string{"a.b", "a_b"}},
		{"read", []string{"a.b", "a_b", "fs"}},
		{"nope__read", []string{"a.b", "a_b", "fs"}},
	} {
		if got := names(ForCall(specs, tt.tool)); !slices.Equal(got, tt.want) {
			t.Errorf("ForCall(%q) starts %v, want %v", tt.tool, got, tt.want)
		}
	}
	if specs[0].MaxResultBytes != 10 {
		t.Error("ForCall changed the caller's specs")
	}
}
