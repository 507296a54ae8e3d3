package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/internal/termtext"
)

// HTTP retries: a request that failed in a way worth another try is sent
// again after httpRetryDelay, then after twice that, httpRetries times at
// most. A Retry-After header is honoured up to maxRetryAfter.
const (
	httpRetries    = 3
	httpRetryDelay = 250 * time.Millisecond
	maxRetryAfter  = 5 * time.Second
)

// headerTransport adds the configured headers (an API key, usually) to
// every request the SDK makes to the configured server: the POSTs, the SSE
// GETs and the DELETE. A request to any other origin (a redirect to another
// host, port or scheme, or an SSE endpoint elsewhere) goes without them: the
// credentials were given for that server alone.
// It also remembers the last HTTP error status, because the SDK's error for
// a refused initialize ("sending \"initialize\": Unauthorized") reads badly.
type headerTransport struct {
	base    http.RoundTripper
	origin  oauth.Origin
	headers map[string]string
	failed  atomic.Int32 // last status >= 400, 0 if none
	// reason is what the server said with its last refusal (401 or
	// 403), shown as refusalReason words it; "" when it said nothing.
	reason atomic.Pointer[string]
	// bound bounds every answer's body (see boundedTransport).
	bound *boundedTransport
}

// RoundTrip implements http.RoundTripper.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && oauth.OriginOf(req.URL) == t.origin {
		// A RoundTripper must not modify the caller's request.
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	switch {
	case err != nil:
	case resp.StatusCode >= 400:
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			reason := refusalReason(resp)
			t.reason.Store(&reason)
		}
		t.failed.Store(int32(resp.StatusCode))
	case resp.StatusCode < 300:
		t.failed.Store(0)
	}
	return resp, err
}

// authFailed reports whether the last answer refused our credentials
// (401) or the access (403).
func (t *headerTransport) authFailed() bool {
	code := t.failed.Load()
	return code == http.StatusUnauthorized || code == http.StatusForbidden
}

// forbidden reports whether the last answer was 403: the server knew who
// we are, or did not care, and refused the access all the same.
func (t *headerTransport) forbidden() bool {
	return t.failed.Load() == http.StatusForbidden
}

// lastReason is what the server gave as the reason of its last refusal,
// or "".
func (t *headerTransport) lastReason() string {
	if r := t.reason.Load(); r != nil {
		return *r
	}
	return ""
}

// Bounds of the reason quoted from a refusal's body.
const (
	maxReasonRead  = 4 << 10
	maxReasonShown = 300
)

// refusalReason reads the reason a server gave with a refusal from the
// start of its body, which is put back for the SDK: the message of a JSON
// error (JSON-RPC's error.message, OAuth's error and error_description,
// or a message or detail field), else the text itself. HTML pages and
// text that repeats the status say nothing. The reason is one line, cut
// to maxReasonShown characters, hidden characters shown by their code,
// since it is the server's word, quoted to a person.
func refusalReason(resp *http.Response) string {
	if resp.Body == nil || resp.Body == http.NoBody {
		return ""
	}
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxReasonRead))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil && len(head) == 0 {
		return ""
	}
	text := strings.TrimSpace(string(head))
	if reason := jsonReason(head); reason != "" {
		text = reason
	} else if strings.HasPrefix(text, "{") || strings.HasPrefix(text, "<") || strings.Contains(resp.Header.Get("Content-Type"), "html") {
		return ""
	}
	text = strings.TrimSpace(termtext.Reveal(text))
	if strings.EqualFold(strings.Trim(text, ".! "), http.StatusText(resp.StatusCode)) {
		return ""
	}
	return termtext.Truncate(text, maxReasonShown)
}

// jsonReason is the message of a JSON error body, or "".
func jsonReason(body []byte) string {
	var doc struct {
		Error            json.RawMessage `json:"error"`
		ErrorDescription string          `json:"error_description"`
		Message          string          `json:"message"`
		Detail           string          `json:"detail"`
		Title            string          `json:"title"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return ""
	}
	var parts []string
	var code string
	var inner struct {
		Message string `json:"message"`
	}
	switch {
	case json.Unmarshal(doc.Error, &code) == nil && code != "":
		parts = append(parts, code)
	case json.Unmarshal(doc.Error, &inner) == nil && inner.Message != "":
		parts = append(parts, inner.Message)
	}
	for _, p := range []string{doc.ErrorDescription, doc.Message, doc.Detail} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 && doc.Title != "" {
		parts = append(parts, doc.Title)
	}
	return strings.Join(parts, ": ")
}

// lastFailure describes the last HTTP error status ("HTTP 401
// Unauthorized"), or returns "".
func (t *headerTransport) lastFailure() string {
	code := int(t.failed.Load())
	if code == 0 {
		return ""
	}
	return fmt.Sprintf("HTTP %d %s", code, http.StatusText(code))
}

// newHTTPClient returns a client of its own for one server, so that closing
// the server can drop its idle connections without touching the others.
// It has no overall timeout: an SSE stream stays open for the session.
// Requests are retried as retryTransport says; log receives the retries.
// The headers go only to endpoint's origin, and so does the token of the
// server's sign-in, auth (nil when it has none), which sits between the
// retries and the headers: a 401 it answers by refreshing or signing in is
// sent again with the new token, and the retries see only its outcome.
// No answer's body holds more than maxMessage bytes (see boundedTransport;
// 0 or less means defaultMaxMessage): everything above reads bounded bodies.
func newHTTPClient(endpoint string, headers map[string]string, log *slog.Logger, raw *rawTools, auth *oauth.Client, maxMessage int) (*http.Client, *headerTransport, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	bound := &boundedTransport{base: base, max: positive(maxMessage, defaultMaxMessage)}
	ht := &headerTransport{base: bound, headers: maps.Clone(headers), bound: bound}
	if raw != nil {
		ht.base = &rawTap{base: bound, raw: raw}
	}
	if u, err := url.Parse(endpoint); err == nil {
		ht.origin = oauth.OriginOf(u)
	} else {
		// Headers for a URL that cannot be read go nowhere; the request
		// fails on the URL anyway.
		ht.headers = nil
	}
	var signed http.RoundTripper = ht
	if auth != nil {
		signed = auth.Transport(ht)
	}
	rt := &retryTransport{base: signed, retries: httpRetries, delay: httpRetryDelay, log: log}
	return &http.Client{Transport: rt}, ht, base
}

// retryTransport sends a request again, with exponential backoff, when it
// failed in a way another try can fix and the retry cannot do harm:
//
//   - the connection could not be made (refused, no route): the server
//     never saw the request, so any request is retried;
//   - 429 or 503: the server says it did not take the request on;
//   - 500, 502, 504 or a connection broken mid-request: retried only for
//     requests that are safe to repeat, which is all but tools/call (a
//     tool may have acted before it failed, and must not act twice).
//
// A request that failed for want of a sign-in is not retried.
//
// Streams the SDK reads (SSE) are resumed by the SDK itself.
type retryTransport struct {
	base    http.RoundTripper
	retries int
	delay   time.Duration
	log     *slog.Logger
}

// RoundTrip implements http.RoundTripper.
func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rewindable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	if !rewindable || t.retries <= 0 {
		return t.base.RoundTrip(req)
	}
	for attempt := 0; ; attempt++ {
		try := req
		if attempt > 0 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			try = req.Clone(req.Context())
			try.Body = body
		}
		resp, err := t.base.RoundTrip(try)
		wait, again := t.retryAfter(req, resp, err, attempt)
		if !again || req.Context().Err() != nil {
			return resp, err
		}
		what := ""
		if err != nil {
			what = err.Error()
		} else {
			what = resp.Status
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		t.log.Debug("retrying HTTP request", "method", req.Method, "url", req.URL.Redacted(), "after", what, "in", wait)
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		}
	}
}

// retryAfter says whether to try again after this outcome of req, and
// when. Whether req is safe to repeat is only looked into here, after a
// failure, so a call that succeeds costs no second read of its body.
func (t *retryTransport) retryAfter(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	if attempt >= t.retries {
		return 0, false
	}
	wait := t.delay << attempt
	if errors.Is(err, oauth.ErrSignIn) {
		return 0, false // the sign-in decided; trying again decides the same
	}
	if err != nil {
		var op *net.OpError
		notSent := errors.As(err, &op) && op.Op == "dial"
		return wait, notSent || retrySafe(req)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs >= 0 {
			wait = min(time.Duration(secs)*time.Second, maxRetryAfter)
		}
		return wait, true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return wait, retrySafe(req)
	}
	return 0, false
}

// retrySafe reports whether req may be sent twice: anything but a POST of
// a tools/call request.
func retrySafe(req *http.Request) bool {
	if req.Method != http.MethodPost {
		return true
	}
	if req.GetBody == nil {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	var msg struct {
		Method string `json:"method"`
	}
	if json.NewDecoder(body).Decode(&msg) != nil {
		return false
	}
	return msg.Method != "tools/call"
}

// newHTTPTransport returns the SDK transport for an http or sse spec. The
// SDK bounds each event of a stream at maxMessage (0 or less means
// defaultMaxMessage), as the stdio filter bounds a line; client bounds the
// rest (see boundedTransport).
func newHTTPTransport(spec config.ServerSpec, client *http.Client, life context.Context, maxMessage int) mcp.Transport {
	maxMessage = positive(maxMessage, defaultMaxMessage)
	if spec.Transport == config.TransportSSE {
		return &detachedTransport{
			inner: &mcp.SSEClientTransport{Endpoint: spec.URL, HTTPClient: client, MaxEventSize: maxMessage},
			life:  life,
		}
	}
	return &mcp.StreamableClientTransport{Endpoint: spec.URL, HTTPClient: client, MaxEventSize: maxMessage}
}

// detachedTransport connects its inner transport under the server's
// lifetime context instead of the start context. The SDK's SSE client ties
// its event stream to the context given to Connect, which would end the
// session the moment the start deadline is released.
type detachedTransport struct {
	inner mcp.Transport
	life  context.Context
}

type connResult struct {
	conn mcp.Connection
	err  error
}

// Connect implements mcp.Transport. It still honours ctx: on cancellation
// it returns at once; the inner attempt ends when life is cancelled, and a
// connection that arrives too late is closed.
func (t *detachedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	ch := make(chan connResult, 1)
	go func() {
		conn, err := t.inner.Connect(t.life)
		ch <- connResult{conn, err}
	}()
	select {
	case r := <-ch:
		return r.conn, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.conn != nil {
				_ = r.conn.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// shownURL is a server's URL as messages show it: the user information,
// which may hold a password or a token, replaced by "***".
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "***")
	} else {
		u.User = url.User("***")
	}
	return u.String()
}
