// Package hooks runs the user's commands at fixed points of a run, in the
// format of the original mcphost and of Claude Code, so that hook scripts
// written for either work: before a tool runs (PreToolUse: block it,
// allow it without asking, or ask), after it ran (PostToolUse: replace the
// result the model sees), when a prompt is submitted (UserPromptSubmit:
// block it, or add context), when the answer is done (Stop) and when
// mcphost waits for the user (Notification).
//
// Each hook gets one JSON object on stdin (hook_event_name, session_id,
// cwd, tool_name, tool_input, tool_response, prompt, ...) and answers with
// its exit status and stdout: exit 2 blocks with stderr as the reason; a
// JSON object on stdout decides ("decision": "block" | "approve" | "allow"
// | "ask", Claude Code's "hookSpecificOutput", "result" to replace a
// result, "additionalContext"); other output of a UserPromptSubmit hook is
// context for the model. A hook that fails, times out or prints something
// unreadable is a warning, never a failure of the run. Hooks run as
// process trees, ended with everything they started.
package hooks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/sysproc"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/tool"
)

// maxOutput bounds what is read of a hook's stdout and stderr.
const maxOutput = 1 << 20

// Options describe the run the hooks are told about.
type Options struct {
	// SessionID names the run (or the chat) for the hooks.
	SessionID string
	// Dir is the working directory hooks run in and are told about.
	Dir string
	// Model is the model's name; Interactive says whether a person is at
	// the terminal (a chat).
	Model       string
	Interactive bool
	// Logger gets every hook run at debug level; Warn the problems.
	Logger *slog.Logger
	Warn   func(string)
	// Record, when not nil, hears about hook runs that belong to no tool
	// call (UserPromptSubmit, Stop, Notification): the audit log.
	Record func(approval.HookRun)
}

// Runner runs the configured hooks. It is safe for concurrent use.
type Runner struct {
	rules config.Hooks
	opts  Options
}

// New returns a Runner for rules; nil when there are none, which every
// method accepts.
func New(rules config.Hooks, opts Options) *Runner {
	n := 0
	for _, r := range rules {
		n += len(r)
	}
	if n == 0 {
		return nil
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	return &Runner{rules: rules, opts: opts}
}

// input is the JSON a hook reads on stdin: the fields of Claude Code's
// hooks and of the original mcphost's, plus the server and tool apart.
type input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	CWD            string          `json:"cwd"`
	Event          string          `json:"hook_event_name"`
	Timestamp      int64           `json:"timestamp"`
	Model          string          `json:"model"`
	Interactive    bool            `json:"interactive"`
	ToolName       string          `json:"tool_name,omitempty"`
	Server         string          `json:"server,omitempty"`
	Tool           string          `json:"tool,omitempty"`
	ToolInput      map[string]any  `json:"tool_input,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	ToolOutput     *string         `json:"tool_output,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	Response       *string         `json:"response,omitempty"`
	StopReason     string          `json:"stop_reason,omitempty"`
	Message        string          `json:"message,omitempty"`
}

// output is what a hook may print on stdout, in either dialect.
type output struct {
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	Decision   string `json:"decision"`
	Reason     string `json:"reason"`
	// Result (or the original mcphost's modifyOutput) replaces a tool's
	// result: text, or any JSON shown to the model as JSON.
	Result       json.RawMessage `json:"result"`
	ModifyOutput json.RawMessage `json:"modifyOutput"`
	// Context and AdditionalContext add to a prompt.
	Context           string `json:"context"`
	AdditionalContext string `json:"additionalContext"`
	Specific          struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// outcome is one hook's answer.
type outcome struct {
	run     approval.HookRun
	out     output
	stdout  string
	blocked bool // exit 2, or a block decision
	// project marks a hook of a project config file, which may block or
	// ask, never approve.
	project bool
}

// run runs the commands of the rules of event that match name, in order,
// each with in on stdin; it stops after a hook that blocks.
func (r *Runner) run(ctx context.Context, event, name string, in input) []outcome {
	if r == nil {
		return nil
	}
	in.SessionID, in.CWD, in.Event, in.Timestamp = r.opts.SessionID, r.opts.Dir, event, time.Now().Unix()
	in.Model, in.Interactive = r.opts.Model, r.opts.Interactive
	data, err := json.Marshal(in)
	if err != nil {
		r.opts.Warn(fmt.Sprintf("%s hook: cannot encode its input: %v", event, err))
		return nil
	}
	var outs []outcome
	for _, rule := range r.rules[event] {
		if !rule.Matches(name) {
			continue
		}
		if changed := changedScript(rule.Scripts); changed != "" {
			// What the user trusted is not what would run: the project's
			// hook is left out until the user looks again.
			for _, c := range rule.Commands {
				o := outcome{project: rule.Project, run: approval.HookRun{Event: event, Command: c.Command, ExitCode: -1,
					Problem: fmt.Sprintf("not run: %s changed since it was trusted", changed)}}
				r.opts.Warn(fmt.Sprintf("%s hook %q is not run: %s, which it runs, changed since you trusted the project's config; check it, then run mcphost trust",
					event, termtext.Truncate(c.Command, 60), changed))
				outs = append(outs, o)
			}
			continue
		}
		for _, c := range rule.Commands {
			o := r.runOne(ctx, event, c, data)
			o.project = rule.Project
			outs = append(outs, o)
			if o.blocked {
				return outs
			}
		}
	}
	return outs
}

// runOne runs one command and reads its answer.
func (r *Runner) runOne(ctx context.Context, event string, c config.HookCommand, stdin []byte) outcome {
	o := outcome{run: approval.HookRun{Event: event, Command: c.Command}}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := shellCommand(c.Command)
	cmd.Dir = r.opts.Dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr limitedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := -1
	tree, err := sysproc.Start(cmd)
	if err == nil {
		select {
		case <-tree.Done():
		case <-ctx.Done():
		}
		// What the hook started goes with it, whether it finished or not.
		endCtx, stop := context.WithTimeout(context.Background(), 2*time.Second)
		tree.End(endCtx)
		stop()
		<-tree.Done()
		err = tree.Err()
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
	}
	o.run.ExitCode, o.run.MS = code, float64(time.Since(start).Microseconds())/1000
	o.stdout = strings.TrimSpace(stdout.String())
	problem := ""
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		problem = fmt.Sprintf("timed out after %s", c.Timeout)
	case ctx.Err() != nil:
		problem = "cancelled"
	case code == 2:
		o.blocked = true
		o.run.Decision = "block"
		o.run.Reason = firstNonEmpty(strings.TrimSpace(stderr.String()), o.stdout, "blocked by a hook")
	case err != nil && code != 0:
		problem = fmt.Sprintf("failed (exit %d)%s", code, lastLine(stderr.String()))
	case strings.HasPrefix(o.stdout, "{"):
		if jerr := json.Unmarshal([]byte(o.stdout), &o.out); jerr != nil {
			problem = fmt.Sprintf("printed output that is not a JSON object: %v", jerr)
			o.out = output{}
		}
	}
	if err != nil && code < 0 && problem == "" {
		problem = "could not run: " + err.Error()
	}
	if problem != "" {
		o.run.Problem = problem
		r.opts.Warn(fmt.Sprintf("%s hook %q %s; it has no effect", event, termtext.Truncate(c.Command, 60), problem))
	}
	r.opts.Logger.Debug("hook ran", "event", event, "command", c.Command, "exit", code, "duration", time.Since(start), "problem", problem)
	return o
}

// changedScript returns the first of scripts (path → hex SHA-256) whose
// content is no longer the one recorded, or that cannot be read; "" when
// none.
func changedScript(scripts map[string]string) string {
	paths := make([]string, 0, len(scripts))
	for p := range scripts {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if sum, err := fileHash(p); err != nil || sum != scripts[p] {
			return p
		}
	}
	return ""
}

// fileHash is the hex SHA-256 of the file at path.
func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// PreToolUse runs the PreToolUse hooks of a call; the approval policy
// asks them after its deny and before its ask. A hook of a project
// config file (config.HookRule.Project) may block a call or ask about it;
// its approve is ignored, so it never approves what the user's policy
// asks about. The user's own hooks may approve.
func (r *Runner) PreToolUse(ctx context.Context, req ask.CallRequest) approval.HookVerdict {
	outs := r.run(ctx, config.HookPreToolUse, req.Name, input{ToolName: req.Name, Server: req.Server, Tool: req.Tool, ToolInput: nonNil(req.Arguments)})
	var v approval.HookVerdict
	for _, o := range outs {
		if o.blocked {
			v.Decision, v.Reason = approval.HookBlock, o.run.Reason
		} else if d, reason := preDecision(o.out); d == approval.HookAllow && o.project {
			// A cloned folder's hook must not answer for the user: what the
			// user's policy asks about is still asked (or refused when no
			// one can be asked).
			o.run.Problem = "answered approve, which a project's hook cannot do: ignored"
		} else if d != "" {
			o.run.Decision, o.run.Reason = d, reason
			if d == approval.HookBlock || v.Decision != approval.HookAsk {
				v.Decision, v.Reason = d, reason
			}
		}
		v.Runs = append(v.Runs, o.run)
		if v.Decision == approval.HookBlock {
			if v.Reason == "" {
				v.Reason = "blocked by a PreToolUse hook"
			}
			break
		}
	}
	return v
}

// preDecision reads a PreToolUse decision in either dialect.
func preDecision(o output) (string, string) {
	if o.Continue != nil && !*o.Continue {
		return approval.HookBlock, o.StopReason
	}
	d, reason := strings.ToLower(o.Decision), o.Reason
	if p := o.Specific.PermissionDecision; p != "" {
		d, reason = strings.ToLower(p), o.Specific.PermissionDecisionReason
	}
	switch d {
	case "block", "deny":
		return approval.HookBlock, reason
	case "approve", "allow":
		return approval.HookAllow, reason
	case "ask":
		return approval.HookAsk, reason
	}
	return "", ""
}

// PostToolUse runs the PostToolUse hooks of a call that ran: a hook may
// replace the result the model sees.
func (r *Runner) PostToolUse(ctx context.Context, rec approval.Record, res *tool.Result) (*tool.Result, []approval.HookRun) {
	if r == nil || len(r.rules[config.HookPostToolUse]) == 0 || res == nil {
		return res, nil
	}
	text := res.Text()
	resp := res.Raw
	if resp == nil {
		resp, _ = json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": res.IsError})
	}
	outs := r.run(ctx, config.HookPostToolUse, rec.Name, input{ToolName: rec.Name, Server: rec.Server, Tool: rec.Tool,
		ToolInput: nonNil(rec.Arguments), ToolResponse: resp, ToolOutput: &text})
	var runs []approval.HookRun
	for _, o := range outs {
		replacement := o.out.Result
		if len(replacement) == 0 {
			replacement = o.out.ModifyOutput
		}
		switch {
		case o.blocked || strings.EqualFold(o.out.Decision, "block"):
			reason := firstNonEmpty(o.out.Reason, o.run.Reason, "blocked by a PostToolUse hook")
			o.run.Decision, o.run.Reason = "block", reason
			res = &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: reason}}}
		case len(replacement) > 0:
			o.run.Decision = "replace"
			res = &tool.Result{IsError: res.IsError, Content: []tool.Content{{Kind: tool.Text, Text: resultText(replacement)}}}
		}
		runs = append(runs, o.run)
	}
	return res, runs
}

// resultText is a replacement result as the model sees it: a JSON string
// as its text, anything else as JSON.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// PromptVerdict is what the UserPromptSubmit hooks made of a prompt.
type PromptVerdict struct {
	// Blocked stops the prompt; Reason says why.
	Blocked bool
	Reason  string
	// Context is added to the prompt for the model.
	Context string
}

// UserPromptSubmit runs the UserPromptSubmit hooks of a prompt.
func (r *Runner) UserPromptSubmit(ctx context.Context, prompt string) PromptVerdict {
	var v PromptVerdict
	var context []string
	for _, o := range r.run(ctx, config.HookUserPromptSubmit, "", input{Prompt: prompt}) {
		switch {
		case o.blocked || strings.EqualFold(o.out.Decision, "block") || (o.out.Continue != nil && !*o.out.Continue):
			v.Blocked = true
			v.Reason = firstNonEmpty(o.run.Reason, o.out.Reason, o.out.StopReason, "blocked by a UserPromptSubmit hook")
			o.run.Decision, o.run.Reason = "block", v.Reason
		case o.run.Problem != "":
		case strings.HasPrefix(o.stdout, "{"):
			if c := firstNonEmpty(o.out.Specific.AdditionalContext, o.out.AdditionalContext, o.out.Context); c != "" {
				context = append(context, c)
				o.run.Decision = "context"
			}
		case o.stdout != "":
			// Plain text on stdout is context, as Claude Code takes it.
			context = append(context, o.stdout)
			o.run.Decision = "context"
		}
		r.record(o.run)
	}
	v.Context = strings.Join(context, "\n\n")
	return v
}

// Stop runs the Stop hooks once a turn has ended.
func (r *Runner) Stop(ctx context.Context, answer, reason string) {
	for _, o := range r.run(ctx, config.HookStop, "", input{Response: &answer, StopReason: reason}) {
		r.record(o.run)
	}
}

// Notification runs the Notification hooks: mcphost waits for the user.
func (r *Runner) Notification(ctx context.Context, message string) {
	for _, o := range r.run(ctx, config.HookNotification, "", input{Message: message}) {
		r.record(o.run)
	}
}

func (r *Runner) record(run approval.HookRun) {
	if r.opts.Record != nil {
		r.opts.Record(run)
	}
}

// shellCommand runs line with the system's shell, as the original
// mcphost and Claude Code run hook commands.
func shellCommand(line string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		return exec.Command("cmd", "/d", "/s", "/c", line)
	}
	return exec.Command("/bin/sh", "-c", line)
}

// limitedBuffer keeps the first maxOutput bytes written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

var _ io.Writer = (*limitedBuffer)(nil)

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// lastLine is ": " and the last line of s, for a failure's message.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return ""
	}
	return ": " + termtext.Truncate(termtext.Line(s), 120)
}

// Check reports what may be wrong with rules that config accepted: a
// command whose program cannot be found. Each problem is one sentence
// naming the event, the command and its file.
func Check(rules config.Hooks) []string {
	var problems []string
	for _, event := range config.HookEvents() {
		for _, rule := range rules[event] {
			for _, c := range rule.Commands {
				fields := strings.Fields(c.Command)
				if len(fields) == 0 || strings.ContainsAny(fields[0], "$`=") {
					continue // a shell construct: only the shell knows
				}
				if _, err := exec.LookPath(fields[0]); err != nil {
					problems = append(problems, fmt.Sprintf("%s: %s hook %q: %q is not a program on PATH", rule.File, event, c.Command, fields[0]))
				}
			}
		}
	}
	return problems
}
