package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMaskRawResultKeepsBinaryContent: the text and structured content of
// a tools call result are masked, an image's base64 data is not (masking
// would spoil it), and a result with nothing to mask is printed as sent.
func TestMaskRawResultKeepsBinaryContent(t *testing.T) {
	mask := func(s string) string { return strings.ReplaceAll(s, "AAA", "***") }
	raw := json.RawMessage(`{"content":[{"type":"text","text":"key AAA"},{"type":"image","mimeType":"image/png","data":"iVBAAAORw0"},` +
		`{"type":"resource","resource":{"uri":"x://y","blob":"AAAA"}}],"structuredContent":{"token":"abc","n":12345678901234567890}}`)
	got, err := json.Marshal(maskRawResult(raw, mask))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"text":"key ***"`, `"data":"iVBAAAORw0"`, `"blob":"AAAA"`, `"token":"***"`, `"n":12345678901234567890`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("masked result lacks %s: %s", want, got)
		}
	}
	plain := json.RawMessage(`{"content":[{"type":"text","text":"hello"}],"isError":false}`)
	if out, ok := maskRawResult(plain, mask).(json.RawMessage); !ok || string(out) != string(plain) {
		t.Errorf("a result with nothing to mask was changed: %v", out)
	}
}
