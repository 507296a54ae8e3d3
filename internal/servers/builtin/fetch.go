package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FetchOptions configure the fetch server.
type FetchOptions struct {
	// MaxLength is how many characters one call returns at most.
	MaxLength int `json:"max_length"`
	// MaxBytes caps the download.
	MaxBytes int `json:"max_bytes"`
	// Timeout bounds one request, redirects included.
	Timeout Duration `json:"timeout"`
	// UserAgent is sent with each request.
	UserAgent string `json:"user_agent"`
	// AllowPrivate lets fetch reach loopback, private, link-local and
	// cloud metadata addresses, which it refuses by default.
	AllowPrivate bool `json:"allow_private"`
}

// Defaults of the fetch server.
const (
	fetchMaxLength  = 20000
	fetchMaxBytes   = 5 << 20
	fetchTimeout    = 30 * time.Second
	fetchRedirects  = 10
	fetchErrorBody  = 500 // characters of an error page shown
	fetchUserAgent  = "mcphost-fetch/1 (+https://github.com/mcphost/mcphost)"
	fetchMaxRequest = 1 << 20 // largest max_length a call may ask for
)

type fetchServer struct {
	opts   FetchOptions
	client *http.Client
	conv   *converter.Converter
	// guard refuses non-public addresses; nil with AllowPrivate.
	guard *addrGuard
}

// NewFetch returns the fetch server.
func NewFetch(o FetchOptions) (*mcp.Server, error) {
	s, err := newFetchServer(o)
	if err != nil {
		return nil, err
	}
	return s.serve(context.Background()), nil
}

// newFetchServer checks o and fills in the defaults.
func newFetchServer(o FetchOptions) (*fetchServer, error) {
	if o.MaxLength < 0 || o.MaxBytes < 0 {
		return nil, errors.New("max_length and max_bytes must be positive")
	}
	if o.MaxLength == 0 {
		o.MaxLength = fetchMaxLength
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = fetchMaxBytes
	}
	if o.Timeout == 0 {
		o.Timeout = Duration(fetchTimeout)
	}
	if o.UserAgent == "" {
		o.UserAgent = fetchUserAgent
	}
	s := &fetchServer{
		opts: o,
		client: &http.Client{
			Transport: http.DefaultTransport.(*http.Transport).Clone(),
			Timeout:   time.Duration(o.Timeout),
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= fetchRedirects {
					return fmt.Errorf("more than %d redirects", fetchRedirects)
				}
				if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
					return fmt.Errorf("redirected to a %s: address, which is not fetched", req.URL.Scheme)
				}
				return nil
			},
		},
		conv: converter.NewConverter(converter.WithPlugins(
			base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(),
		)),
	}
	if !o.AllowPrivate {
		s.guard = &addrGuard{}
		s.client.Transport = s.guard.transport()
	}
	return s, nil
}

// serve registers the tool; requests end with their calls.
func (s *fetchServer) serve(context.Context) *mcp.Server {
	srv := mcp.NewServer(implementation("fetch"), nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "fetch",
		Description: fmt.Sprintf("Fetch a URL with HTTP GET and return its content: web pages as Markdown, other text as it is. At most %d characters per call; use start_index to read on.",
			s.opts.MaxLength),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, s.fetch)
	return srv
}

func (s *fetchServer) close() {}

type fetchArgs struct {
	URL        string `json:"url" jsonschema:"the http or https URL to fetch"`
	MaxLength  int    `json:"max_length,omitempty" jsonschema:"return at most this many characters"`
	StartIndex int    `json:"start_index,omitempty" jsonschema:"skip this many characters, to read on after a truncated answer"`
	Raw        bool   `json:"raw,omitempty" jsonschema:"return HTML as it is instead of converting it to Markdown"`
}

func (s *fetchServer) fetch(ctx context.Context, _ *mcp.CallToolRequest, in fetchArgs) (*mcp.CallToolResult, any, error) {
	u, err := url.Parse(strings.TrimSpace(in.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, fmt.Errorf("%q is not an http:// or https:// URL", in.URL)
	}
	if in.StartIndex < 0 || in.MaxLength < 0 {
		return nil, nil, errors.New("start_index and max_length must not be negative")
	}
	limit := s.opts.MaxLength
	if in.MaxLength > 0 {
		limit = min(in.MaxLength, fetchMaxRequest)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%q is not a valid URL", in.URL)
	}
	req.Header.Set("User-Agent", s.opts.UserAgent)
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5")
	resp, err := s.client.Do(req)
	if err != nil {
		var private *PrivateAddressError
		if errors.As(err, &private) {
			return nil, nil, privateRefusal(u, err, private)
		}
		return nil, nil, fmt.Errorf("cannot fetch %s: %s", u.Redacted(), netReason(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(s.opts.MaxBytes)+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %s", u.Redacted(), netReason(err))
	}
	cut := len(body) > s.opts.MaxBytes
	if cut {
		body = body[:s.opts.MaxBytes]
	}

	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mediaType == "" {
		mediaType = http.DetectContentType(body)
		mediaType, _, _ = mime.ParseMediaType(mediaType)
	}
	var text string
	switch {
	case isHTML(mediaType) && !in.Raw:
		md, err := s.conv.ConvertString(string(body), converter.WithContext(ctx), converter.WithDomain(resp.Request.URL.String()))
		if err != nil {
			return nil, nil, fmt.Errorf("cannot convert the page at %s to Markdown: %v; try raw", u.Redacted(), err)
		}
		text = md
	case isText(mediaType) || isHTML(mediaType):
		text = strings.ToValidUTF8(string(body), "�")
	default:
		return nil, nil, fmt.Errorf("%s is %s (%s), not text: not shown", u.Redacted(), mediaType, humanBytes(int64(len(body))))
	}

	if resp.StatusCode >= 400 {
		excerpt := []rune(strings.TrimSpace(text))
		if len(excerpt) > fetchErrorBody {
			excerpt = append(excerpt[:fetchErrorBody], '…')
		}
		res := textResult(fmt.Sprintf("%s answered HTTP %s\n\n%s", u.Redacted(), resp.Status, string(excerpt)))
		res.IsError = true
		return res, nil, nil
	}

	runes := []rune(text)
	if in.StartIndex >= len(runes) && len(runes) > 0 {
		return nil, nil, fmt.Errorf("start_index %d is past the end: the content has %d characters", in.StartIndex, len(runes))
	}
	end := min(in.StartIndex+limit, len(runes))
	var b strings.Builder
	fmt.Fprintf(&b, "Contents of %s:\n\n", resp.Request.URL.Redacted())
	b.WriteString(string(runes[in.StartIndex:end]))
	if end < len(runes) {
		fmt.Fprintf(&b, "\n\n[content truncated: %d more characters; call fetch again with start_index=%d to read on]", len(runes)-end, end)
	}
	if cut {
		fmt.Fprintf(&b, "\n\n[the download stopped at %s, the size limit]", humanBytes(int64(s.opts.MaxBytes)))
	}
	return textResult(b.String()), nil, nil
}

func isHTML(mediaType string) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}

func isText(mediaType string) bool {
	if strings.HasPrefix(mediaType, "text/") {
		return true
	}
	switch mediaType {
	case "application/json", "application/xml", "application/javascript", "application/x-yaml",
		"application/yaml", "application/toml", "application/ld+json", "application/rss+xml", "application/atom+xml":
		return true
	}
	return strings.HasSuffix(mediaType, "+json") || strings.HasSuffix(mediaType, "+xml")
}

// netReason words a failed request without Go's "Get "…": dial tcp" chain.
func netReason(err error) string {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "it took too long (timeout)"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("the host %s was not found", dnsErr.Name)
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "the connection was refused or the host cannot be reached"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// privateRefusal words a fetch refused by the address guard, naming the
// redirect that led there, if one did.
func privateRefusal(u *url.URL, err error, private *PrivateAddressError) error {
	via := ""
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != u.String() {
		if to, perr := url.Parse(ue.URL); perr == nil {
			via = fmt.Sprintf(" redirects to %s, which", to.Redacted())
		}
	}
	return fmt.Errorf("fetch refused %s: it%s connects to %s, %s; fetch reaches only public addresses unless the fetch server's option allow_private is true", u.Redacted(), via, private.Addr, private.Kind)
}
