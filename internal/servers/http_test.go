package servers

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRefusalReason: the reason a server gives with a 401 or 403, from a
// JSON error or plain text, on one line with hidden characters shown; the
// body stays readable for the SDK.
func TestRefusalReason(t *testing.T) {
	for _, tc := range []struct{ body, ctype, want string }{
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no access to repo x"}}`, "application/json", "no access to repo x"},
		{`{"error":"insufficient_scope","error_description":"needs write"}`, "application/json", "insufficient_scope: needs write"},
		{`{"message":"Forbidden"}`, "application/json", ""},
		{"blocked by policy\u200b\n\x1b[31mred\x1b[0m", "text/plain", "blocked by policy<U+200B> red"},
		{"<html><body>403</body></html>", "text/html", ""},
		{"Forbidden\n", "text/plain", ""},
		{strings.Repeat("y", 5000), "text/plain", strings.Repeat("y", maxReasonShown-1) + "…"},
	} {
		resp := &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"Content-Type": {tc.ctype}},
			Body: nopCloser{strings.NewReader(tc.body)}}
		if got := refusalReason(resp); got != tc.want {
			t.Errorf("refusalReason(%.40q) = %q, want %q", tc.body, got, tc.want)
		}
		rest, _ := readAll(resp)
		if rest != tc.body {
			t.Errorf("the body read after the reason is %.40q, want %.40q", rest, tc.body)
		}
	}
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func readAll(resp *http.Response) (string, error) {
	var b strings.Builder
	_, err := io.Copy(&b, resp.Body)
	return b.String(), err
}
