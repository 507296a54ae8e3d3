package builtin

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// pages serves the fetch tests on loopback; nothing reaches the internet.
func pages(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") == "" {
			http.Error(w, "no user agent", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>T</title><script>alert("x")</script><style>p{}</style></head>
<body><h1>Release notes</h1><p>See <a href="/docs">the docs</a> and <b>upgrade</b>.</p>
<table><tr><th>v</th><th>date</th></tr><tr><td>2</td><td>May</td></tr></table></body></html>`)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("abcdefghij", 10))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n...."))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<p>No such page</p>")
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/text", http.StatusFound)
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("z", 10000))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestFetch(t *testing.T) {
	web := pages(t)
	// The pages are on loopback, which fetch refuses by default.
	srv, err := NewFetch(FetchOptions{MaxLength: 60, MaxBytes: 5000, AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)

	page := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/page", "max_length": 1000})
	for _, want := range []string{"# Release notes", "[the docs](" + web.URL + "/docs)", "**upgrade**", "| v | date |"} {
		if !strings.Contains(page, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "alert") || strings.Contains(page, "p{}") {
		t.Errorf("script or style leaked into the Markdown:\n%s", page)
	}
	raw := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/page", "raw": true, "max_length": 1000})
	if !strings.Contains(raw, "<h1>Release notes</h1>") {
		t.Errorf("raw = %q", raw)
	}

	// 100 characters with a 60-character limit: two calls read it all.
	first := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/text"})
	if !strings.Contains(first, strings.Repeat("abcdefghij", 6)+"\n\n[content truncated: 40 more characters; call fetch again with start_index=60") {
		t.Errorf("first part = %q", first)
	}
	rest := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/text", "start_index": 60})
	if !strings.HasSuffix(rest, strings.Repeat("abcdefghij", 4)) || strings.Contains(rest, "truncated") {
		t.Errorf("second part = %q", rest)
	}
	if got := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/json"}); !strings.HasSuffix(got, `{"ok":true}`) {
		t.Errorf("json = %q", got)
	}
	if got := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/moved"}); !strings.Contains(got, "Contents of "+web.URL+"/text") {
		t.Errorf("redirect = %q", got)
	}
	if got := mustOK(t, cs, "fetch", map[string]any{"url": web.URL + "/huge", "max_length": 100000}); !strings.Contains(got, "the download stopped at 4.9 KB") {
		t.Errorf("download cap: %q", got[len(got)-80:])
	}
	mustFail(t, cs, "fetch", map[string]any{"url": web.URL + "/missing"}, "HTTP 404 Not Found\n\nNo such page")
	mustFail(t, cs, "fetch", map[string]any{"url": web.URL + "/image"}, "image/png")
	mustFail(t, cs, "fetch", map[string]any{"url": "file:///etc/passwd"}, "not an http:// or https:// URL")
	mustFail(t, cs, "fetch", map[string]any{"url": closedURL(t)}, "connection was refused")
}

// closedURL is a loopback address nothing listens on.
func closedURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	return url
}

// TestFetchRefusesPrivateAddresses: by default fetch does not reach this
// machine, the local network or a metadata service: not by address, not by
// a name that resolves there, not through a redirect from a public page.
func TestFetchRefusesPrivateAddresses(t *testing.T) {
	web := pages(t)
	fs, err := newFetchServer(FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, fs.serve(context.Background()))
	u, _ := url.Parse(web.URL)
	mustFail(t, cs, "fetch", map[string]any{"url": web.URL + "/text"}, "connects to 127.0.0.1, a loopback address; fetch reaches only public addresses unless the fetch server's option allow_private is true")
	mustFail(t, cs, "fetch", map[string]any{"url": "http://localhost:" + u.Port() + "/text"}, "a loopback address")
	mustFail(t, cs, "fetch", map[string]any{"url": "http://169.254.169.254/latest/meta-data/"}, "connects to 169.254.169.254, a cloud metadata address")

	// A public page (the loopback server standing in for one) that
	// redirects to a private address.
	public := pages(t)
	pub, _ := url.Parse(public.URL)
	publicAddr := netip.MustParseAddrPort(pub.Host)
	fs.guard.allow = func(ap netip.AddrPort) bool { return ap == publicAddr }
	if got := mustOK(t, cs, "fetch", map[string]any{"url": public.URL + "/text"}); !strings.Contains(got, "abcdefghij") {
		t.Errorf("the public stand-in was not fetched: %q", got)
	}
	redirect := httptest.NewServer(http.RedirectHandler(web.URL+"/text", http.StatusFound))
	defer redirect.Close()
	red, _ := url.Parse(redirect.URL)
	redAddr := netip.MustParseAddrPort(red.Host)
	fs.guard.allow = func(ap netip.AddrPort) bool { return ap == publicAddr || ap == redAddr }
	mustFail(t, cs, "fetch", map[string]any{"url": redirect.URL + "/"}, "redirects to "+web.URL+"/text, which connects to 127.0.0.1, a loopback address")
}

func TestNonPublicAddresses(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":             "a loopback address",
		"::1":                   "a loopback address",
		"::ffff:127.0.0.1":      "a loopback address",
		"10.1.2.3":              "a private address",
		"172.16.0.1":            "a private address",
		"192.168.1.1":           "a private address",
		"fc00::1":               "a private address",
		"169.254.169.254":       "a cloud metadata address",
		"fd00:ec2::254":         "a cloud metadata address",
		"100.100.100.200":       "a cloud metadata address",
		"169.254.1.1":           "a link-local address",
		"fe80::1":               "a link-local address",
		"0.0.0.0":               "the unspecified address (this machine)",
		"::":                    "the unspecified address (this machine)",
		"100.64.0.1":            "a shared (carrier-grade NAT) address",
		"224.0.0.1":             "a multicast address",
		"255.255.255.255":       "a reserved address",
		"64:ff9b::7f00:1":       "a loopback address (inside an IPv6 address)",
		"2002:a00:1::1":         "a private address (inside an IPv6 address)",
		"93.184.215.14":         "",
		"2606:2800:21f:cb07::1": "",
		"64:ff9b::5db8:d70e":    "",
	} {
		if got := nonPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("nonPublic(%s) = %q, want %q", addr, got, want)
		}
	}
}

// forwardProxy is a user's local forward proxy, on loopback: a request in
// absolute form (a fetch through it) is answered as from the web; one in
// origin form is for the proxy itself, which answers with its own page,
// something a model must not read.
func forwardProxy(t *testing.T) (*httptest.Server, *url.URL) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if r.URL.IsAbs() {
			fmt.Fprintf(w, "the web page at %s", r.URL)
			return
		}
		fmt.Fprint(w, "PROXY ADMIN: upstream password hunter2")
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return srv, u
}

// TestFetchThroughALoopbackProxyDoesNotReachIt is issue 29's hole 13: with
// a proxy on loopback, public pages are fetched through it, but the
// proxy's own address is refused like any loopback address, before and
// after a request went through the proxy, by its address and by a name,
// and a private target is not handed to the proxy either.
func TestFetchThroughALoopbackProxyDoesNotReachIt(t *testing.T) {
	for _, proxyHost := range []string{"127.0.0.1", "localhost"} {
		t.Run(proxyHost, func(t *testing.T) {
			_, proxy := forwardProxy(t)
			proxy.Host = net.JoinHostPort(proxyHost, proxy.Port())
			fs, err := newFetchServer(FetchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// As HTTP_PROXY with the standard library's rules: this
			// machine's names and addresses are never sent to a proxy.
			fs.guard.proxyFor = func(req *http.Request) (*url.URL, error) {
				if h := req.URL.Hostname(); h == "localhost" || net.ParseIP(h).IsLoopback() {
					return nil, nil
				}
				return proxy, nil
			}
			fs.client.Transport = fs.guard.transport()
			cs := connect(t, fs.serve(context.Background()))
			self := "http://127.0.0.1:" + proxy.Port() + "/admin"
			byName := "http://localhost:" + proxy.Port() + "/admin"

			mustFail(t, cs, "fetch", map[string]any{"url": self}, "connects to 127.0.0.1, a loopback address")
			if got := mustOK(t, cs, "fetch", map[string]any{"url": "http://93.184.215.14/news"}); !strings.Contains(got, "the web page at http://93.184.215.14/news") {
				t.Errorf("the public page through the proxy: %q", got)
			}
			for _, u := range []string{self, byName} {
				if got := mustFail(t, cs, "fetch", map[string]any{"url": u}, "a loopback address"); strings.Contains(got, "hunter2") {
					t.Errorf("%s reached the proxy itself: %q", u, got)
				}
			}
			// A private target the proxy would be asked for.
			mustFail(t, cs, "fetch", map[string]any{"url": "http://10.1.2.3/"}, "connects to 10.1.2.3, a private address")
			mustFail(t, cs, "fetch", map[string]any{"url": "http://169.254.169.254/latest/meta-data/"}, "a cloud metadata address")
			// The public page still goes through the proxy afterwards.
			mustOK(t, cs, "fetch", map[string]any{"url": "http://93.184.215.14/again"})
		})
	}
}
