package configload

import (
	"strings"
	"testing"
)

// --think is unset unless a flag, an MCPHOST_THINK variable or a config
// file sets it: unset leaves thinking to the model.
func TestLoadThink(t *testing.T) {
	no, yes := false, true
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		file  string
		want  *bool
		error bool
	}{
		{name: "unset"},
		{name: "flag false", args: []string{"--think=false"}, want: &no},
		{name: "flag", args: []string{"--think"}, want: &yes},
		{name: "env", env: map[string]string{"MCPHOST_THINK": "false"}, want: &no},
		{name: "file", file: "think: false\n", want: &no},
		{name: "flag over file", args: []string{"--think=true"}, file: "think: false\n", want: &yes},
		{name: "bad", env: map[string]string{"MCPHOST_THINK": "maybe"}, error: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			fx.args = tt.args
			for k, v := range tt.env {
				fx.env[k] = v
			}
			if tt.file != "" {
				write(t, fx.work, ".mcphost.yml", tt.file)
			}
			s, err := fx.load(t)
			if tt.error {
				if err == nil || !strings.Contains(err.Error(), "THINK") {
					t.Fatalf("err = %v, want one naming think", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == nil && s.Think != nil:
				t.Errorf("Think = %v, want unset", *s.Think)
			case tt.want != nil && (s.Think == nil || *s.Think != *tt.want):
				t.Errorf("Think = %v, want %v", s.Think, *tt.want)
			}
		})
	}
}
