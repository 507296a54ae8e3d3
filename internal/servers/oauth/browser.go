package oauth

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/mcphost/mcphost/internal/shellwords"
	"github.com/mcphost/mcphost/internal/sysproc"
)

// OpenBrowser opens url in the user's browser and returns once the opener
// has started: with $BROWSER when it is set (a list of commands separated
// by the path list separator, ':' on Unix, each run with the URL in place
// of "%s" or after its arguments, the first that starts wins, as other
// command-line programs read it), else with the system's opener
// (xdg-open, open, or rundll32 on Windows). The browser is left running
// when mcphost exits.
func OpenBrowser(url string) error {
	var cmds [][]string
	if browser := os.Getenv("BROWSER"); strings.TrimSpace(browser) != "" {
		for _, entry := range strings.Split(browser, string(os.PathListSeparator)) {
			argv, err := shellwords.Split(entry)
			if err != nil || len(argv) == 0 {
				continue
			}
			cmds = append(cmds, withURL(argv, url))
		}
		if len(cmds) == 0 {
			return fmt.Errorf("$BROWSER (%q) names no command", browser)
		}
	} else {
		cmds = [][]string{systemOpener(url)}
	}
	var errs []error
	for _, argv := range cmds {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := sysproc.StartDetached(cmd); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", argv[0], err))
			continue
		}
		go func() { _ = cmd.Wait() }() // reap it; a browser may run for long
		return nil
	}
	return errors.Join(errs...)
}

// withURL puts url into a $BROWSER command: in place of each "%s" (with
// "%%" a literal "%"), or after the arguments when there is none.
func withURL(argv []string, url string) []string {
	out := make([]string, 0, len(argv)+1)
	placed := false
	for _, a := range argv {
		if strings.Contains(a, "%s") {
			placed = true
		}
		var b strings.Builder
		for i := 0; i < len(a); i++ {
			switch {
			case a[i] == '%' && i+1 < len(a) && a[i+1] == 's':
				b.WriteString(url)
				i++
			case a[i] == '%' && i+1 < len(a) && a[i+1] == '%':
				b.WriteByte('%')
				i++
			default:
				b.WriteByte(a[i])
			}
		}
		out = append(out, b.String())
	}
	if !placed {
		out = append(out, url)
	}
	return out
}
