package chat

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/tool"
)

// fakeMCP adds prompts and resources to fakeHost; its completions are
// the ones server-everything gives.
type fakeMCP struct {
	*fakeHost
	asked []string
}

func (f *fakeMCP) WaitStarting(context.Context) {}

func (f *fakeMCP) Prompts() []host.PromptInfo {
	return []host.PromptInfo{
		{Name: "everything__args-prompt", Server: "everything", Prompt: tool.Prompt{Name: "args-prompt", Arguments: []tool.PromptArgument{{Name: "city", Required: true}, {Name: "state"}}}},
		{Name: "everything__completable-prompt", Server: "everything", Prompt: tool.Prompt{Name: "completable-prompt", Arguments: []tool.PromptArgument{{Name: "department"}, {Name: "name"}}}},
	}
}

func (f *fakeMCP) ResolvePrompt(name string) (string, error) {
	for _, p := range f.Prompts() {
		if p.Name == name || p.Prompt.Name == name {
			return p.Name, nil
		}
	}
	return "", host.ErrUnknownPrompt
}

func (f *fakeMCP) CompletePrompt(_ context.Context, name, arg, value string, known map[string]string) (tool.Completion, error) {
	f.asked = append(f.asked, name+" "+arg+"="+value+" "+known["department"])
	var pool []string
	switch {
	case arg == "department":
		pool = []string{"Engineering", "Sales"}
	case arg == "name" && known["department"] == "Sales":
		pool = []string{"David", "Eve"}
	}
	var out []string
	for _, p := range pool {
		if strings.HasPrefix(p, value) {
			out = append(out, p)
		}
	}
	return tool.Completion{Values: out}, nil
}

func (f *fakeMCP) Resources() []host.ResourceInfo {
	return []host.ResourceInfo{{Server: "everything", Resource: tool.ResourceDef{URI: "demo://resource/static/document/features.md"}}}
}

func (f *fakeMCP) ResourceTemplates() []host.TemplateInfo {
	return []host.TemplateInfo{{Server: "everything", Template: tool.ResourceTemplate{URITemplate: "demo://resource/dynamic/text/{resourceId}"}}}
}

func (f *fakeMCP) CompleteResource(_ context.Context, server, template, variable, value string, _ map[string]string) (tool.Completion, error) {
	f.asked = append(f.asked, server+" "+template+" "+variable+"="+value)
	return tool.Completion{Values: []string{value + "1", value + "2"}}, nil
}

func TestCompleteMCP(t *testing.T) {
	c, _, fh, _ := newTestChat(t)
	f := &fakeMCP{fakeHost: fh}
	c.opts.Host = f
	tests := []struct {
		input string
		want  []string
	}{
		{"/prompt ", []string{"/prompt everything__args-prompt", "/prompt everything__completable-prompt"}},
		{"/prompt everything__a", []string{"/prompt everything__args-prompt"}},
		{"/prompt args-prompt ", []string{"/prompt args-prompt city=", "/prompt args-prompt state="}},
		{"/prompt args-prompt city=Oslo ", []string{"/prompt args-prompt city=Oslo state="}},
		{"/prompt everything__completable-prompt department=E", []string{"/prompt everything__completable-prompt department=Engineering"}},
		{"/prompt everything__completable-prompt department=Sales name=", []string{"/prompt everything__completable-prompt department=Sales name=David", "/prompt everything__completable-prompt department=Sales name=Eve"}},
		{"/prompt nope ", nil},
		{"read @ev", []string{"read @everything:"}},
		{"read @everything:demo://resource/static", []string{"read @everything:demo://resource/static/document/features.md"}},
		{"read @everything:demo://resource/dynamic/text/", []string{
			"read @everything:demo://resource/dynamic/text/1", "read @everything:demo://resource/dynamic/text/2", "read @everything:demo://resource/dynamic/text/{resourceId}"}},
		{"/mo", []string{"/model"}},
	}
	for _, tt := range tests {
		if got := c.Complete(tt.input); !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
	if !slices.Contains(f.asked, "everything__completable-prompt name= Sales") || !slices.Contains(f.asked, "everything demo://resource/dynamic/text/{resourceId} resourceId=") {
		t.Errorf("the server was asked %q", f.asked)
	}
}

func TestOnChangeSaysWhatChanged(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	c.OnChange(host.ListChange{Server: "fault", Kind: "tools", Added: []string{"sprout"}, Removed: []string{"old"}})
	c.OnChange(host.ListChange{Server: "fault", Kind: "prompts"})
	c.flushNotices()
	if got := out.String(); got != "· server fault changed its tools: new tools: sprout; gone: old\n" {
		t.Errorf("notices: %q", got)
	}
}
