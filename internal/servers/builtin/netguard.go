package builtin

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"syscall"
	"time"
)

// PrivateAddressError is a fetch refused because the address it would
// connect to is not a public one: this machine, the local network, or a
// cloud provider's metadata service, which a model must not reach through
// a URL it chose (directly, through a name that resolves there, or through
// a redirect).
type PrivateAddressError struct {
	Addr netip.Addr
	// Kind says what the address is ("a loopback address").
	Kind string
}

func (e *PrivateAddressError) Error() string {
	return fmt.Sprintf("%s is %s", e.Addr, e.Kind)
}

// metadataAddrs are the cloud instance metadata services: AWS, GCP and
// Azure (169.254.169.254), AWS ECS (169.254.170.2), AWS over IPv6
// (fd00:ec2::254), Alibaba Cloud (100.100.100.200).
var metadataAddrs = [...]string{"169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200"}

// The IPv4 ranges netip has no predicate for.
var (
	sharedNet    = netip.MustParsePrefix("100.64.0.0/10") // carrier-grade NAT
	thisNet      = netip.MustParsePrefix("0.0.0.0/8")
	protocolNet  = netip.MustParsePrefix("192.0.0.0/24")
	benchmarkNet = netip.MustParsePrefix("198.18.0.0/15")
	reservedNet  = netip.MustParsePrefix("240.0.0.0/4") // and broadcast
	nat64Net     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFourNet = netip.MustParsePrefix("2002::/16")
)

// nonPublic says what kind of non-public address a is, or "" for a public
// one. IPv4 addresses written as IPv6 (mapped, NAT64, 6to4) are judged by
// the IPv4 address inside.
func nonPublic(a netip.Addr) string {
	a = a.Unmap()
	for _, m := range metadataAddrs {
		if a == netip.MustParseAddr(m) {
			return "a cloud metadata address"
		}
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "the unspecified address (this machine)"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case sharedNet.Contains(a):
		return "a shared (carrier-grade NAT) address"
	case thisNet.Contains(a), protocolNet.Contains(a), benchmarkNet.Contains(a), reservedNet.Contains(a):
		return "a reserved address"
	case nat64Net.Contains(a), sixToFourNet.Contains(a):
		b := a.As16()
		off := 12 // NAT64: the last four bytes
		if sixToFourNet.Contains(a) {
			off = 2 // 6to4: the four bytes after 2002:
		}
		if kind := nonPublic(netip.AddrFrom4([4]byte(b[off : off+4]))); kind != "" {
			return kind + " (inside an IPv6 address)"
		}
	}
	return ""
}

// addrGuard refuses connections to non-public addresses. It checks the
// address actually dialed, after name resolution, so neither a name that
// resolves to a private address (DNS rebinding included) nor a redirect
// gets past it.
type addrGuard struct {
	// allow, when not nil, lets addresses through that would be refused;
	// tests use it to stand a loopback server in for a public one.
	allow func(netip.AddrPort) bool
	// proxyFor picks the proxy of a request, nil for none; nil means the
	// environment's (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). Tests set it,
	// since the standard library reads the environment once per process.
	proxyFor func(*http.Request) (*url.URL, error)
}

// control is a net.Dialer Control function: it runs after resolution,
// just before each connection attempt.
func (g *addrGuard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("cannot check the address %q: %w", address, err)
	}
	if g.allow != nil && g.allow(ap) {
		return nil
	}
	if kind := nonPublic(ap.Addr()); kind != "" {
		return &PrivateAddressError{Addr: ap.Addr().Unmap(), Kind: kind}
	}
	return nil
}

// transport returns an HTTP transport whose every connection, redirects
// included, passes the guard. A proxy from the environment (HTTPS_PROXY)
// is still used, wherever it is, a local one included: it is the user's.
//
// Whether a connection goes to a proxy is decided per request, and each
// kind of connection has its own transport and so its own pool: a request
// sent without a proxy dials its target, which the guard checks like any
// other, even when the target is the proxy's own address (a loopback
// proxy does not make loopback reachable); a request sent through a proxy
// has its target's name checked as resolved here, since the proxy makes
// that connection, and dials the proxy and nothing else. Deciding by the
// address dialed instead, as an earlier version did, let a request for the
// proxy's own address through once a proxied request had been made.
func (g *addrGuard) transport() http.RoundTripper {
	proxyFor := g.proxyFor
	if proxyFor == nil {
		proxyFor = http.ProxyFromEnvironment
	}
	direct := http.DefaultTransport.(*http.Transport).Clone()
	direct.Proxy = nil
	direct.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}).DialContext
	return &guardedTransport{guard: g, proxyFor: proxyFor, direct: direct, viaProxy: map[string]*http.Transport{}}
}

// guardedTransport sends each request straight to its target, every dial
// checked, or through the proxy proxyFor names, the target checked first.
type guardedTransport struct {
	guard    *addrGuard
	proxyFor func(*http.Request) (*url.URL, error)
	direct   *http.Transport

	mu       sync.Mutex
	viaProxy map[string]*http.Transport // by proxy URL
}

// RoundTrip implements http.RoundTripper.
func (t *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	proxy, err := t.proxyFor(req)
	if err != nil {
		return nil, err
	}
	if proxy == nil {
		return t.direct.RoundTrip(req)
	}
	if err := t.guard.checkName(req.Context(), req.URL); err != nil {
		return nil, err
	}
	return t.through(proxy).RoundTrip(req)
}

// through is the transport that sends requests through proxy: it dials
// the proxy's address only, as a proxy (absolute-form requests and
// CONNECT), never as a target.
func (t *guardedTransport) through(proxy *url.URL) *http.Transport {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := proxy.String()
	if tr, ok := t.viaProxy[key]; ok {
		return tr
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(proxy)
	want := proxyAddr(proxy)
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr != want {
			return nil, fmt.Errorf("a request through the proxy %s would connect to %s directly: refused", proxy.Redacted(), addr)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	t.viaProxy[key] = tr
	return tr
}

// CloseIdleConnections closes the idle connections of every pool, as
// http.Client.CloseIdleConnections asks.
func (t *guardedTransport) CloseIdleConnections() {
	t.direct.CloseIdleConnections()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.viaProxy {
		tr.CloseIdleConnections()
	}
}

// checkName resolves u's host and refuses it when any of its addresses is
// not public.
func (g *addrGuard) checkName(ctx context.Context, u *url.URL) error {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if err := g.control("tcp", net.JoinHostPort(a.String(), port), nil); err != nil {
			return err
		}
	}
	return nil
}

// proxyAddr is the "host:port" the transport dials for proxy u.
func proxyAddr(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	switch u.Scheme {
	case "https":
		port = "443"
	case "socks5", "socks5h":
		port = "1080"
	}
	return net.JoinHostPort(u.Hostname(), port)
}
