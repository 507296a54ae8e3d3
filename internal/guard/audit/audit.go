// Package audit writes the audit log: one JSON line per tool call, with
// when, which tool, the arguments, how the call was decided, how long it
// took and how it ended. Secrets are masked before anything is written.
// The log is an approval.Observer, so refused calls are logged too.
package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/guard/secret"
	"github.com/mcphost/mcphost/internal/nofollow"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// Entry is one line of the audit log.
type Entry struct {
	Time time.Time `json:"time"`
	// Server and Tool are the server's name and its own tool name; Name is
	// the tool as the model called it.
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	// Decision is one of allowed, asked-yes, asked-no, denied and policy
	// (refused because it needed approval and no one could be asked).
	Decision string `json:"decision"`
	// Reason is what the user said when refusing, if anything.
	Reason     string  `json:"reason,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	// OK is true when the tool ran and reported success.
	OK bool `json:"ok"`
	// Error says why the call failed or was refused.
	Error string `json:"error,omitempty"`
	// ResultBytes is the size of the result as JSON; 0 when none.
	ResultBytes int `json:"result_bytes"`
	// Result is the result as the model saw it (after any PostToolUse
	// hook), secrets masked, cut to the log's result cap with the cut
	// marked; absent when the tool did not run.
	Result *string `json:"result,omitempty"`
	// Hooks are the hooks that ran for the call and what they decided.
	Hooks []approval.HookRun `json:"hooks,omitempty"`
}

// DefaultResultBytes caps the result kept in one line of the log.
const DefaultResultBytes = 4096

// Log appends entries to a file. It is safe for concurrent use.
type Log struct {
	mask *secret.Masker
	// resultCap bounds the result kept per line.
	resultCap int
	// warn hears, once, that writing failed.
	warn func(string)

	mu     sync.Mutex
	f      *os.File
	failed bool
}

// Open opens (creating or appending to) the audit log at path, readable
// by its owner only. mask masks the secrets of the config; warn, which may
// be nil, is told once if a later write fails.
//
// A symbolic link as the log is an error: a link planted there would send
// the lines, appended, into whatever file it points at. A link to a
// terminal, pipe or device (--audit /dev/stderr) is not a file that could
// be spoilt, and is followed.
//
// resultBytes caps the result kept per line (0: DefaultResultBytes; a
// negative value keeps none).
func Open(path string, mask *secret.Masker, warn func(string), resultBytes int) (*Log, error) {
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	f, err := nofollow.OpenFile(path, flag, 0o600)
	if errors.Is(err, nofollow.ErrLink) {
		if info, serr := os.Stat(path); serr == nil && !info.Mode().IsRegular() && !info.IsDir() {
			f, err = os.OpenFile(path, flag, 0o600)
		} else {
			return nil, fmt.Errorf("the audit log %s is a symbolic link, which mcphost does not write through: give the path of the file itself with --audit or \"audit:\", or delete the link", path)
		}
	}
	if err != nil {
		reason := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			reason = pe.Err
		}
		return nil, fmt.Errorf("cannot open the audit log %s: %v: check the path given with --audit or \"audit:\"", path, reason)
	}
	if warn == nil {
		warn = func(string) {}
	}
	if resultBytes == 0 {
		resultBytes = DefaultResultBytes
	}
	return &Log{mask: mask, warn: warn, f: f, resultCap: resultBytes}, nil
}

// Observe writes one entry for a finished call.
func (l *Log) Observe(r approval.Record) {
	e := Entry{
		Time: r.Time.UTC(), Server: r.Server, Tool: r.Tool, Name: r.Name,
		Arguments:  l.mask.Map(r.Arguments),
		Decision:   string(r.Outcome),
		Reason:     l.mask.String(r.Reason),
		DurationMS: float64(r.Duration.Microseconds()) / 1000,
		Hooks:      l.maskHooks(r.Hooks),
	}
	if e.Arguments == nil {
		e.Arguments = map[string]any{}
	}
	switch {
	case r.Err != nil:
		e.Error = l.mask.String(r.Err.Error())
	case r.Result == nil:
		e.Error = "not run: " + string(r.Outcome)
	default:
		e.OK = !r.Result.IsError
		if b, err := json.Marshal(r.Result); err == nil {
			e.ResultBytes = len(b)
		}
		if l.resultCap > 0 {
			// What the model was given: the text, cleaned as it is for the
			// model, masked, then cut.
			text := l.mask.String(termtext.Clean(runner.ConvertResult(r.Result, false).Text))
			text = budget.Cut(text, l.resultCap)
			e.Result = &text
		}
		if r.Result.IsError {
			e.Error = l.mask.String(errorText(r.Result))
		}
	}
	l.write(e)
}

func (l *Log) write(e Entry) {
	line, err := json.Marshal(e)
	if err != nil {
		// Arguments come from decoded JSON, so they encode; keep the line.
		e.Arguments = map[string]any{"unencodable": err.Error()}
		line, _ = json.Marshal(e)
	}
	l.writeLine(append(line, '\n'))
}

// writeLine appends one line to the file.
func (l *Log) writeLine(line []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	// One write per line on an O_APPEND file: lines from concurrent
	// calls, or from two mcphost processes, never interleave.
	if _, err := l.f.Write(line); err != nil && !l.failed {
		l.failed = true
		l.warn(fmt.Sprintf("cannot write the audit log %s: %v", l.f.Name(), err))
	}
}

// Close closes the file; later entries are dropped.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// maxErrorText bounds the tool's own error message kept in an entry.
const maxErrorText = 500

// errorText is the text of a failed result, shortened.
func errorText(res *tool.Result) string {
	var b strings.Builder
	for _, c := range res.Content {
		if c.Kind == tool.Text {
			b.WriteString(c.Text)
		}
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		return "the tool reported an error"
	}
	if r := []rune(s); len(r) > maxErrorText {
		s = string(r[:maxErrorText]) + "…"
	}
	return s
}

// maskHooks masks the reasons hooks gave, which may quote arguments.
func (l *Log) maskHooks(runs []approval.HookRun) []approval.HookRun {
	if len(runs) == 0 {
		return nil
	}
	out := make([]approval.HookRun, len(runs))
	for i, r := range runs {
		r.Reason = l.mask.String(r.Reason)
		r.Command = l.mask.String(r.Command)
		out[i] = r
	}
	return out
}

// hookLine is the line of a hook run that belongs to no tool call
// (UserPromptSubmit, Stop, Notification).
type hookLine struct {
	Time time.Time `json:"time"`
	Kind string    `json:"kind"` // "hook"
	approval.HookRun
}

// ObserveHook writes one line for a hook run outside any tool call.
func (l *Log) ObserveHook(run approval.HookRun) {
	masked := l.maskHooks([]approval.HookRun{run})[0]
	line, err := json.Marshal(hookLine{Time: time.Now().UTC(), Kind: "hook", HookRun: masked})
	if err != nil {
		return
	}
	l.writeLine(append(line, '\n'))
}
