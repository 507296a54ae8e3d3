// Package trust is the user's side of project config files: "mcphost
// trust" shows what the working directory's .mcp.json and .mcphost.* would
// start and set and records the user's decision (package configload keeps the
// record and leaves untrusted files out), and the chat asks the same
// before it starts.
package trust

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/termtext"
)

// Usage is printed with a usage error of "trust".
const Usage = `usage: mcphost trust [--yes] | mcphost trust --list | mcphost trust --revoke [FILE]`

// The flags of "mcphost trust".
const (
	flagYes    = "yes"
	flagList   = "list"
	flagRevoke = "revoke"
)

// RegisterFlags defines the flags of "mcphost trust" on fs.
func RegisterFlags(fs *pflag.FlagSet) {
	fs.Bool(flagYes, false, "with trust: trust the project files without asking (after reading what they do)")
	fs.Bool(flagList, false, "with trust: list the trusted project files")
	fs.Bool(flagRevoke, false, "with trust: stop trusting FILE, or this folder's project files")
}

// FlagsGiven reports whether any flag of "mcphost trust" was given.
func FlagsGiven(fs *pflag.FlagSet) bool {
	return fs.Changed(flagYes) || fs.Changed(flagList) || fs.Changed(flagRevoke)
}

// Run runs "mcphost trust" (fs.Args() starts with "trust"). Its errors are
// the user's to fix: a usage error, or a trust record that cannot be read
// or written.
func Run(fs *pflag.FlagSet, load configload.LoadOptions, stdin *os.File, stdout io.Writer) error {
	fail := func(format string, a ...any) error { return fmt.Errorf(format, a...) }
	yes, _ := fs.GetBool(flagYes)
	list, _ := fs.GetBool(flagList)
	revoke, _ := fs.GetBool(flagRevoke)
	args := fs.Args()[1:]
	switch {
	case (list && (yes || revoke)) || (yes && revoke):
		return fail("give one of --yes, --list and --revoke\n%s", Usage)
	case len(args) > 1 || (len(args) == 1 && !revoke):
		return fail("unexpected argument %q after trust\n%s", args[len(args)-1], Usage)
	}
	store, err := load.TrustStore()
	if err != nil {
		return err
	}
	switch {
	case list:
		err = listTrusted(store, stdout)
	case revoke:
		err = revokeTrust(store, load, args, stdout)
	default:
		err = trustHere(store, load, yes, stdin, stdout)
	}
	if err != nil {
		return errors.New(termtext.Clean(strings.ReplaceAll(err.Error(), "\n", " ")))
	}
	return nil
}

// trustHere shows what this folder's untrusted project files would do and,
// when the user says yes (or gave --yes), records them as trusted.
func trustHere(store configload.TrustStore, load configload.LoadOptions, yes bool, stdin *os.File, stdout io.Writer) error {
	files, skipped, err := configload.ProjectFiles(load)
	if err != nil {
		return err
	}
	for _, msg := range skipped {
		fmt.Fprintf(stdout, "warning: %s\n", termtext.Line(msg))
	}
	if len(files) == 0 {
		fmt.Fprintln(stdout, "There is no project config file here (.mcp.json, .mcphost.yml, .mcphost.yaml or .mcphost.json): nothing to trust.")
		return nil
	}
	var untrusted []config.ProjectFile
	for _, f := range files {
		if f.Trusted {
			fmt.Fprintf(stdout, "%s is trusted.\n", f.Name())
		} else {
			untrusted = append(untrusted, f)
		}
	}
	if len(untrusted) == 0 {
		return nil
	}
	describeProjectFiles(stdout, untrusted)
	if !yes {
		if !term.IsTerminal(int(stdin.Fd())) {
			return errors.New("no terminal to ask on: read the above, then run mcphost trust --yes to trust the files")
		}
		if !AskYesNo(stdin, stdout, "Trust "+fileNames(untrusted)+" and use "+them(untrusted)+"? [y/N] ") {
			fmt.Fprintf(stdout, "Not trusted: mcphost leaves %s out.\n", them(untrusted))
			return nil
		}
	}
	if err := store.Trust(untrusted...); err != nil {
		return err
	}
	until := itIs(untrusted) + " changed"
	if slices.ContainsFunc(untrusted, func(f config.ProjectFile) bool { return len(f.Scripts) > 0 }) {
		// The scripts they run are trusted with them (see
		// configload.ProjectFiles).
		until = "it, or a project file it runs, changes"
		if len(untrusted) > 1 {
			until = "they, or a project file they run, change"
		}
	}
	fmt.Fprintf(stdout, "Trusted %s: mcphost uses %s until %s.\n", fileNames(untrusted), them(untrusted), until)
	return nil
}

// describeProjectFiles prints what each file would do.
func describeProjectFiles(w io.Writer, files []config.ProjectFile) {
	for _, f := range files {
		lines, err := configload.Describe(f)
		if len(f.Changed) > 0 {
			fmt.Fprintf(w, "%s changed since you trusted %s.\n", termtext.Clean(strings.Join(f.Changed, " and ")), f.Name())
		}
		fmt.Fprintf(w, "%s is not trusted yet. If used, it would:\n", f.Name())
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", termtext.Clean(l))
		}
		if err != nil {
			fmt.Fprintf(w, "  (and it has a problem: %s)\n", termtext.Line(err.Error()))
		}
	}
}

// listTrusted prints the trusted files, each with whether it is still the
// file that was trusted.
func listTrusted(store configload.TrustStore, stdout io.Writer) error {
	records, err := store.List()
	if err != nil {
		return err
	}
	if len(records) == 0 {
		fmt.Fprintln(stdout, "No project config file is trusted.")
		return nil
	}
	for _, r := range records {
		state := "trusted"
		switch data, err := os.ReadFile(r.Path); {
		case errors.Is(err, os.ErrNotExist):
			state = "missing"
		case err != nil:
			state = "unreadable"
		case configload.ContentHash(data) != r.SHA256:
			state = "changed since trusted, not used"
		default:
			if changed := changedScripts(r.Scripts); len(changed) > 0 {
				state = "changed since trusted (" + strings.Join(changed, ", ") + "), not used"
			}
		}
		fmt.Fprintf(stdout, "%s\t%s (since %s)\n", termtext.Clean(r.Path), state, r.TrustedAt.Local().Format("2006-01-02 15:04"))
	}
	return nil
}

// changedScripts names the recorded scripts whose content is no longer
// what was trusted (or that are gone).
func changedScripts(scripts map[string]string) []string {
	var out []string
	for path, sum := range scripts {
		if now, err := configload.FileHash(path); err != nil || now != sum {
			out = append(out, termtext.Clean(path))
		}
	}
	slices.Sort(out)
	return out
}

// revokeTrust forgets the file named in args, or this folder's project
// files.
func revokeTrust(store configload.TrustStore, load configload.LoadOptions, args []string, stdout io.Writer) error {
	var paths []string
	if len(args) == 1 {
		paths = args
	} else {
		files, _, err := configload.ProjectFiles(load)
		if err != nil {
			return err
		}
		for _, f := range files {
			paths = append(paths, f.Path)
		}
		if len(paths) == 0 {
			return errors.New("there is no project config file here: name the file to stop trusting (see mcphost trust --list)")
		}
	}
	for _, p := range paths {
		was, err := store.Revoke(p)
		if err != nil {
			return err
		}
		if was {
			fmt.Fprintf(stdout, "%s is no longer trusted.\n", termtext.Clean(p))
		} else {
			fmt.Fprintf(stdout, "%s was not trusted.\n", termtext.Clean(p))
		}
	}
	return nil
}

// Confirm asks, before a chat starts, whether to trust the
// project files that settings left out. Yes records the trust and returns
// the settings loaded again with them; no returns settings without them,
// and without the warning, since the user just decided.
func Confirm(load configload.LoadOptions, settings *config.Settings, stdin *os.File, stdout io.Writer) (*config.Settings, error) {
	files := settings.Untrusted
	describeProjectFiles(stdout, files)
	if !AskYesNo(stdin, stdout, "Trust "+fileNames(files)+" and use "+them(files)+"? [y/N] ") {
		fmt.Fprintf(stdout, "Not trusted: this chat runs without %s (mcphost trust asks again).\n\n", them(files))
		s := *settings
		s.Untrusted = nil
		return &s, nil
	}
	store, err := load.TrustStore()
	if err != nil {
		return nil, err
	}
	if err := store.Trust(files...); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "Trusted %s.\n\n", fileNames(files))
	// Loaded again, the files are used only if they still hold what was
	// shown: trust was recorded for that content.
	return configload.Load(load)
}

// askYesNo prints question and reads one line from the terminal: yes only
// for "y" or "yes".
func AskYesNo(stdin *os.File, stdout io.Writer, question string) bool {
	fmt.Fprint(stdout, question)
	// One byte at a time, so nothing after the line is taken from the
	// terminal the chat reads next.
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := stdin.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if err != nil {
			fmt.Fprintln(stdout)
			break
		}
	}
	answer := strings.ToLower(strings.TrimSpace(string(line)))
	return answer == "y" || answer == "yes"
}

// fileNames joins the files' names with "and".
func fileNames(files []config.ProjectFile) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name()
	}
	return strings.Join(names, " and ")
}

func them(files []config.ProjectFile) string {
	if len(files) == 1 {
		return "it"
	}
	return "them"
}

func itIs(files []config.ProjectFile) string {
	if len(files) == 1 {
		return "it is"
	}
	return "they are"
}
