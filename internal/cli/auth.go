package cli

// Remote servers that sign users in with OAuth: "mcphost auth login NAME"
// signs in (the browser comes back to mcphost), "auth status" lists the
// sign-ins, "auth logout NAME" forgets one. Runs use the stored sign-ins;
// they sign in by themselves only where someone can see the URL.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/ui"
)

// authCommand is a parsed "auth" command line.
type authCommand struct {
	verb   string // "login", "status" or "logout"
	server string // login, logout: the server's name; "" for --url's
}

// parseAuthCommand reads "auth login|status|logout [NAME]".
func parseAuthCommand(args []string) (action, error) {
	c, err := parseAuth(append([]string{"auth"}, args...))
	if err != nil {
		return nil, misuse(err)
	}
	return func(inv *invocation) int {
		return inv.withSettings(func(settings *config.Settings, logger *slog.Logger) int {
			return runAuth(inv.con, c, settings, inv.adhoc, logger)
		})
	}, nil
}

func parseAuth(args []string) (authCommand, error) {
	if len(args) < 2 {
		return authCommand{}, errors.New("auth needs login, status or logout")
	}
	c := authCommand{verb: args[1]}
	switch c.verb {
	case "status":
		if len(args) > 2 {
			return c, fmt.Errorf("unexpected argument %q after auth status", args[2])
		}
	case "login", "logout":
		if len(args) > 3 {
			return c, fmt.Errorf("unexpected argument %q after auth %s %s", args[3], c.verb, args[2])
		}
		if len(args) == 3 {
			c.server = args[2]
		}
	default:
		return c, fmt.Errorf("unknown command auth %q: use auth login, auth status or auth logout", c.verb)
	}
	return c, nil
}

// runAuth runs "mcphost auth ..." and returns the exit code.
func runAuth(con *console, cmd authCommand, settings *config.Settings, adhoc bool, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	mask := func(s string) string { return s }
	fail := func(code int, err error) int { return con.fail(ctx, code, err, mask) }
	name, err := authServer(cmd, settings, adhoc)
	if err != nil {
		return fail(exitUsage, err)
	}
	opts := withServers(options(settings, logger, func(string) {}), nil)
	if cmd.verb == "login" {
		only, err := configload.OnlyServer(settings.Servers, name)
		if err != nil {
			return fail(exitUsage, err)
		}
		if t := only[0].Transport; t != config.TransportHTTP && t != config.TransportSSE {
			return fail(exitUsage, fmt.Errorf("server %q is not a remote (http or sse) server: only those sign in", name))
		}
		// The server starts first without a sign-in (it fails quietly if
		// it needs one), then Login signs in and starts it again.
		opts = withServers(opts, only)
		opts.AllowFailedStart, opts.Start = true, host.StartAll
	}
	h, err := host.New(ctx, opts)
	if err != nil {
		return fail(exitCode(ctx, err), err)
	}
	defer h.Close()
	mask = h.Mask
	var code int
	switch cmd.verb {
	case "login":
		code, err = authLogin(ctx, h, name, con.out, con.err)
	case "status":
		code, err = authStatus(h, settings.Output == config.OutputJSON, con.out)
	case "logout":
		code, err = authLogout(ctx, h, name, con.out)
	}
	if err != nil {
		return fail(code, err)
	}
	return exitOK
}

// authServer is the server an auth login or logout is about: the one it
// names, or the --url one.
func authServer(cmd authCommand, settings *config.Settings, adhoc bool) (string, error) {
	name := cmd.server
	switch {
	case cmd.verb == "status":
		return name, nil
	case adhoc && settings.Servers[0].Transport == config.TransportStdio:
		return "", errors.New("auth " + cmd.verb + " takes --url, not --stdio: only remote servers sign in")
	case adhoc && name != "" && name != settings.Servers[0].Name:
		return "", fmt.Errorf("the --url server is named %q, not %q: leave the name out", settings.Servers[0].Name, name)
	case adhoc:
		return settings.Servers[0].Name, nil
	case name == "":
		return "", fmt.Errorf("auth %s needs the name of a server, as mcphost servers lists them (or --url URL)", cmd.verb)
	}
	return name, nil
}

// authLogin signs in to the server name and says how it went.
func authLogin(ctx context.Context, h *host.Host, name string, stdout, stderr *pipeGuard) (int, error) {
	si, err := h.Login(ctx, name, ui.OpenSignIn(ui.Lines(stderr), true))
	switch {
	case errors.Is(err, host.ErrNoSignIn):
		fmt.Fprintf(stdout, "%s does not ask for a sign-in: nothing to do.\n", ui.Sanitize(name))
		return exitOK, nil
	case err != nil:
		return exitNoServers, err
	}
	tools := 0
	for _, t := range h.Tools() {
		if t.Server == name {
			tools++
		}
	}
	ui.SignedIn(stdout, si, tools)
	return exitOK, nil
}

// authLogout forgets the sign-in to the server name.
func authLogout(ctx context.Context, h *host.Host, name string, stdout *pipeGuard) (int, error) {
	gone, err := h.Logout(ctx, name)
	if err != nil {
		return exitError, err
	}
	ui.SignedOut(stdout, name, gone)
	return exitOK, nil
}

// authStatus lists the sign-ins.
func authStatus(h *host.Host, jsonOut bool, stdout *pipeGuard) (int, error) {
	sis, err := h.SignIns()
	if err != nil {
		return exitError, err
	}
	if jsonOut {
		return written(ui.WriteJSON(stdout, map[string]any{"sign_ins": ui.SignInRecords(sis)}))
	}
	ui.SignInTable(stdout, sis, time.Now())
	return exitOK, nil
}

// runAsker is who a run (a prompt, servers, tools) asks: no one about
// tool calls, forms and sampling requests (the settings answer them), and
// a sign-in when a server asks, only where someone can see the URL
// (stderr is a terminal) or has said how URLs are opened ($BROWSER);
// otherwise nil, and such a server fails with a line saying to run
// mcphost auth login NAME.
func runAsker(stderrFile *os.File, show func(string)) ask.Asker {
	if !ui.IsTerminal(stderrFile) && os.Getenv("BROWSER") == "" {
		return nil
	}
	return signInAsker{open: ui.OpenSignIn(show, false)}
}

// signInAsker asks only for sign-ins, which open shows and opens.
type signInAsker struct {
	ask.Nobody
	open func(ctx context.Context, server, url string) error
}

// SignIn shows the sign-in's URL and opens it in a browser.
func (a signInAsker) SignIn(ctx context.Context, req ask.SignInRequest) error {
	return a.open(ctx, req.Server, req.URL)
}
