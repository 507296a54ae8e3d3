package ui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/servers/oauth"
)

// SignInText is what the user is told when a server asks them to sign in:
// the URL, always, for machines where no browser opens.
func SignInText(server, url string) string {
	return fmt.Sprintf("server %q asks you to sign in: opening your browser; if it does not open, go to\n  %s", server, url)
}

// OpenSignIn is a sign-in that shows its URL with show and opens the
// browser on it; waiting adds that the sign-in goes on in the browser, for
// a command that does nothing else meanwhile.
func OpenSignIn(show func(string), waiting bool) func(ctx context.Context, server, url string) error {
	return func(ctx context.Context, server, url string) error {
		text := SignInText(server, url)
		if waiting {
			text += "\nWaiting for the sign-in to finish in the browser (Ctrl-C to give up)…"
		}
		show(text)
		if err := oauth.OpenBrowser(url); err != nil {
			show(fmt.Sprintf("could not open a browser (%v): open the URL above yourself", err))
		}
		return nil
	}
}

// Lines is a show function for OpenSignIn: each text on its own lines of
// w, cleaned of escape sequences.
func Lines(w io.Writer) func(string) {
	return func(s string) { fmt.Fprintln(w, Sanitize(s)) }
}

// SignedIn reports a sign-in that has just been made.
func SignedIn(w io.Writer, s host.SignIn, tools int) {
	fmt.Fprintf(w, "Signed in to %s (%s)%s%s; %d tools.\n", Sanitize(s.Server), Sanitize(s.Resource), scopesText(s.Scopes), expiryText(s, time.Now()), tools)
}

// SignInRecord is one sign-in in "mcphost auth status --output json".
type SignInRecord struct {
	Server      string    `json:"server"`
	Resource    string    `json:"resource"`
	Scopes      []string  `json:"scopes"`
	Expires     time.Time `json:"expires,omitzero"`
	Refreshable bool      `json:"refreshable"`
	SignedInAt  time.Time `json:"signed_in_at"`
	AuthServer  string    `json:"token_endpoint"`
}

// SignInRecords turns sign-ins into records.
func SignInRecords(sis []host.SignIn) []SignInRecord {
	out := make([]SignInRecord, 0, len(sis))
	for _, s := range sis {
		scopes := s.Scopes
		if scopes == nil {
			scopes = []string{}
		}
		out = append(out, SignInRecord{Server: s.Server, Resource: s.Resource, Scopes: scopes, Expires: s.Expires,
			Refreshable: s.Refreshable, SignedInAt: s.SignedInAt, AuthServer: s.AuthServer})
	}
	return out
}

// SignInTable lists the stored sign-ins: server, resource, scopes and
// until when the token holds. Tokens are never shown.
func SignInTable(w io.Writer, sis []host.SignIn, now time.Time) {
	if len(sis) == 0 {
		fmt.Fprintln(w, "No sign-ins: mcphost auth login NAME signs in to a remote server that asks for it.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tRESOURCE\tSCOPES\tTOKEN\tSIGNED IN")
	for _, s := range sis {
		scopes := strings.Join(s.Scopes, " ")
		if scopes == "" {
			scopes = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", Sanitize(s.Server), Sanitize(s.Resource), Sanitize(scopes),
			tokenState(s, now), s.SignedInAt.Local().Format("2006-01-02 15:04"))
	}
	tw.Flush()
}

// tokenState says until when a token holds, and what happens then.
func tokenState(s host.SignIn, now time.Time) string {
	switch {
	case s.Expires.IsZero():
		return "no expiry stated"
	case s.Expires.After(now) && s.Refreshable:
		return "valid until " + s.Expires.Local().Format("15:04") + ", then refreshed"
	case s.Expires.After(now):
		return "valid until " + s.Expires.Local().Format("2006-01-02 15:04")
	case s.Refreshable:
		return "expired; refreshed on next use"
	default:
		return "expired: sign in again"
	}
}

func scopesText(scopes []string) string {
	if len(scopes) == 0 {
		return ""
	}
	return ", scopes " + Sanitize(strings.Join(scopes, " "))
}

func expiryText(s host.SignIn, now time.Time) string {
	if s.Expires.IsZero() {
		return ""
	}
	return ", token " + tokenState(s, now)
}

// SignedOut reports what logout forgot.
func SignedOut(w io.Writer, server string, gone []host.SignIn) {
	if len(gone) == 0 {
		fmt.Fprintf(w, "No sign-in of %s was stored.\n", Sanitize(server))
		return
	}
	fmt.Fprintf(w, "Signed out of %s: its token is forgotten.\n", Sanitize(server))
}
