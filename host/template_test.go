package host

import "testing"

func TestTemplateMatches(t *testing.T) {
	tests := []struct {
		template, uri string
		want          bool
	}{
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/5", true},
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/5/more", false},
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/5", false},
		{"file:///{+path}", "file:///a/b/c.txt", true},
		{"repo://{owner}/{name}/issues{?state}", "repo://me/app/issues?state=open", true},
		{"plain://no.vars", "plain://no.vars", true},
		{"plain://no.vars", "plain://no-vars", false},
	}
	for _, tt := range tests {
		if got := templateMatches(tt.template, tt.uri); got != tt.want {
			t.Errorf("templateMatches(%q, %q) = %v, want %v", tt.template, tt.uri, got, tt.want)
		}
	}
}
