package configload

import "testing"

func TestExpand(t *testing.T) {
	vars := map[string]string{"A": "alpha", "EMPTY": "", "B_2": "beta"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	tests := []struct {
		in, want string
		unset    string // the variable the error must name
		syntax   bool
	}{
		{in: "plain", want: "plain"},
		{in: "${A}", want: "alpha"},
		{in: "x-${A}-${B_2}-y", want: "x-alpha-beta-y"},
		{in: "${env://A}", want: "alpha"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${env://MISSING:-fall back}", want: "fall back"},
		{in: "${A:-fallback}", want: "alpha"},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${EMPTY}", want: ""},
		{in: "${MISSING:-}", want: ""},
		{in: "cost $5 and $", want: "cost $5 and $"},
		{in: "a$$b", want: "a$$b"},
		{in: "$${A}", want: "$${A}"},
		{in: "$A", want: "$A"},
		{in: "${MISSING}", unset: "MISSING"},
		{in: "${env://MISSING}", unset: "MISSING"},
		{in: "ok ${A} ${NOPE}", unset: "NOPE"},
		{in: "${A", syntax: true},
		{in: "${}", syntax: true},
		{in: "${1A}", syntax: true},
		{in: "${A-B}", syntax: true},
	}
	for _, tt := range tests {
		got, p := expand(tt.in, lookup)
		switch {
		case tt.unset != "":
			if p == nil || p.variable != tt.unset {
				t.Errorf("expand(%q) = %q, %+v; want unset %s", tt.in, got, p, tt.unset)
			}
		case tt.syntax:
			if p == nil || p.syntax == "" {
				t.Errorf("expand(%q) = %q, %+v; want a syntax problem", tt.in, got, p)
			}
		case p != nil:
			t.Errorf("expand(%q) failed: %+v", tt.in, p)
		case got != tt.want:
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandProblemMessage(t *testing.T) {
	p := &expandProblem{variable: "GH_PAT"}
	want := "env GITHUB_TOKEN uses ${GH_PAT}, which is not set: export GH_PAT or write ${GH_PAT:-default}"
	if got := p.message("env GITHUB_TOKEN"); got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}
