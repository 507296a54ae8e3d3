// Package faultserver is an MCP server over stdio, on the official go-sdk,
// that misbehaves on demand: the fault-injection suite runs mcphost
// against it. Flags choose what goes wrong at start and at shutdown; tools
// choose what goes wrong during a call, so one process can be driven
// through several faults by the (scripted) model.
//
// It has no binary of its own: a test binary becomes the server. Its
// TestMain calls [Main] when [Invoked] says it was started as the fault
// server, and gives the tests the path [Link] returns, a second name for
// the test binary itself. So the server runs with the test binary's race
// detector and coverage, and no test waits for a go build.
//
// Flags:
//
//	-trace FILE         append one line per event: "started PID", "stdin closed",
//	                    "SIGTERM", "cancelled hang", "exit"... (and the
//	                    grandchild's "asleep PID")
//	-pidfile FILE       append this process's pid, and the grandchild's
//	-stderr TEXT        write TEXT to stderr at start
//	-exit-at-start      write -message to stderr and exit with -code before serving
//	-exit-starts N      with -state FILE: exit at start for the first N starts only
//	-exit-after N       exit (code 0) once N tool calls have been answered
//	-hang-init          never answer initialize
//	-banner TEXT        print TEXT on stdout before serving (not JSON-RPC)
//	-grandchild         start a grandchild that ignores SIGTERM and holds stdout
//	-escape             with -grandchild: the grandchild leaves the process group
//	                    and session (setsid; on Windows a detached process in a
//	                    new group, which stays in the job all the same)
//	-ignore-term        ignore SIGTERM (still traced)
//	-ignore-eof         keep running after stdin closes
//	-id NAME            what the whoami tool answers, to tell servers apart
//	-many N             offer N more tools (pad_1 …), for a long tools list
//	-endless-tools N    answer tools/list with pages of N made-up tools, each
//	                    page pointing to a next one, without end
//	-start-delay D      wait D (a Go duration) before serving
//	-start-gate PATH    open PATH (a named pipe) before serving: the start
//	                    waits until a test opens the pipe for writing
//	-secret TEXT        offer the resource secret://vault/token holding TEXT
//	-content            offer resources without a scheme (/docs/style-guide, a
//	                    text without a final newline; /docs/empty, an empty
//	                    text) and with the scheme docs (docs:index,
//	                    docs:/docs/style-guide), the prompt "embedded" (the
//	                    first two embedded) and the tool "fail" (an error
//	                    result)
//	-kill-on-crash      the crash tool kills the process (SIGKILL; on Windows
//	                    TerminateProcess) after its message, instead of exiting
//	-call-stderr TEXT   write TEXT to stderr as each tool call begins
//
// The environment variable FAULTSERVER_VARIANT changes the server without
// changing its command line (which is what a tool-list cache keys on):
// "renamed" offers echo_v2 instead of echo; "broken" exits at start;
// "readonly" marks echo read-only (readOnlyHint).
//
// -secret TEXT offers one resource, secret://vault/token, whose content is
// TEXT: a server's data that an approval policy may deny.
//
// Tools: echo, crash (exits mid-call), hang (blocks until cancelled), stubborn
// (blocks, ignoring cancellation), big (a result of size bytes), whoami
// (the -id), union (arguments of union types), noise
// (junk lines on stdout, then an answer), corrupt (its response line is cut
// in half: invalid JSON), ansi (terminal escapes and control characters),
// slow (answers after ms milliseconds), grow (adds a tool: its tool list
// changes), log (one log message per level, debug to error), progress
// (reports progress steps times, ms apart), open_url (a URL elicitation,
// completed 300ms after the user agrees), weather (structured content
// that does not match its output schema), sample (a sampling request) and
// form (a form elicitation), each asked once a test opens the named pipe
// given as gate.
package faultserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type options struct {
	trace, pidfile, stderr, message, banner, state string
	id, startDelay, startGate, secret              string
	code, exitStarts, exitAfter, many              int
	exitAtStart, hangInit, grandchild, escape      bool
	ignoreTerm, ignoreEOF, sleeper, content        bool
	killOnCrash                                    bool
	callStderr                                     string
	endless                                        int // tools per page of a list without end
}

// Main runs the fault server with the flags in os.Args[1:], serving on
// stdin and stdout, and returns the process's exit code. It parses its own
// flags, not the command line's flag set, which a test binary shares with
// the testing package.
func Main() int {
	var o options
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.StringVar(&o.trace, "trace", "", "append events to this file")
	fs.StringVar(&o.pidfile, "pidfile", "", "append pids to this file")
	fs.StringVar(&o.stderr, "stderr", "", "write this to stderr at start")
	fs.StringVar(&o.message, "message", "fault: giving up", "last words on stderr before an exit")
	fs.StringVar(&o.banner, "banner", "", "print this on stdout before serving")
	fs.StringVar(&o.state, "state", "", "file counting the starts, for -exit-starts")
	fs.IntVar(&o.code, "code", 3, "exit code of -exit-at-start and crash")
	fs.IntVar(&o.exitStarts, "exit-starts", 0, "exit at start for the first N starts (needs -state)")
	fs.IntVar(&o.exitAfter, "exit-after", 0, "exit after answering N tool calls")
	fs.IntVar(&o.many, "many", 0, "offer N more tools (pad_1 …), for a long tools list")
	fs.IntVar(&o.endless, "endless-tools", 0, "answer tools/list with pages of N made-up tools that never end")
	fs.BoolVar(&o.exitAtStart, "exit-at-start", false, "exit before serving")
	fs.BoolVar(&o.hangInit, "hang-init", false, "never answer initialize")
	fs.BoolVar(&o.grandchild, "grandchild", false, "start a grandchild that ignores SIGTERM")
	fs.BoolVar(&o.escape, "escape", false, "with -grandchild: the grandchild leaves the process group")
	fs.StringVar(&o.id, "id", "", "what the whoami tool answers")
	fs.StringVar(&o.startDelay, "start-delay", "", "wait this long before serving")
	fs.StringVar(&o.startGate, "start-gate", "", "open this named pipe before serving (a gate a test opens)")
	fs.StringVar(&o.secret, "secret", "", "offer the resource secret://vault/token holding this text")
	fs.BoolVar(&o.ignoreTerm, "ignore-term", false, "ignore SIGTERM")
	fs.BoolVar(&o.ignoreEOF, "ignore-eof", false, "keep running after stdin closes")
	fs.BoolVar(&o.sleeper, "sleeper", false, "internal: be the grandchild")
	fs.BoolVar(&o.content, "content", false, "offer resources without a scheme, an empty text, a prompt embedding them and a tool whose result is an error")
	fs.BoolVar(&o.killOnCrash, "kill-on-crash", false, "the crash tool kills the process instead of exiting")
	fs.StringVar(&o.callStderr, "call-stderr", "", "write this to stderr as each tool call begins")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}

	f := &fault{opts: o, out: &stdout{w: os.Stdout}}
	if o.sleeper {
		signal.Ignore(syscall.SIGTERM)
		f.event("asleep %d", os.Getpid())
		time.Sleep(time.Hour)
		return 0
	}
	f.event("started %d", os.Getpid())
	f.pid(os.Getpid())
	if o.stderr != "" {
		fmt.Fprintln(os.Stderr, o.stderr)
	}
	if os.Getenv("FAULTSERVER_VARIANT") == "broken" {
		fmt.Fprintln(os.Stderr, "fault: the variant is broken: cannot open the database")
		f.event("exit at start")
		return o.code
	}
	if d, err := time.ParseDuration(o.startDelay); err == nil {
		fmt.Fprintln(os.Stderr, "fault: warming up for", d)
		time.Sleep(d)
	}
	if o.startGate != "" {
		// Opening a named pipe for reading blocks until a writer opens it.
		fmt.Fprintln(os.Stderr, "fault: waiting at the gate")
		if g, err := os.Open(o.startGate); err == nil {
			g.Close()
		}
	}
	if o.exitAtStart || f.exitThisStart() {
		fmt.Fprintln(os.Stderr, o.message)
		f.event("exit at start")
		return o.code
	}
	f.watchSignals()
	if o.grandchild {
		if err := f.spawnGrandchild(); err != nil {
			fmt.Fprintln(os.Stderr, "fault: grandchild:", err)
			return 1
		}
	}
	if o.banner != "" {
		f.out.junk(o.banner)
	}
	if o.hangInit {
		f.event("hanging in initialize")
		sleepForever()
	}

	srv := mcp.NewServer(&mcp.Implementation{Name: "faultserver", Version: "1"}, nil)
	if o.endless > 0 {
		srv.AddReceivingMiddleware(f.endlessTools)
	}
	if o.callStderr != "" {
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					fmt.Fprintln(os.Stderr, o.callStderr)
				}
				return next(ctx, method, req)
			}
		})
	}
	f.addTools(srv)
	f.addFeatureTools(srv)
	if o.secret != "" {
		srv.AddResource(&mcp.Resource{URI: "secret://vault/token", Name: "token", MIMEType: "text/plain"},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				f.event("secret read")
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: o.secret}}}, nil
			})
	}
	if o.content {
		f.addContent(srv)
		f.out.rewrite = emptyText
	}
	f.out.afterWrite = f.afterWrite
	err := srv.Run(context.Background(), &mcp.IOTransport{Reader: &stdin{r: os.Stdin, f: f}, Writer: f.out})
	if err != nil {
		f.event("run ended: %v", err)
	}
	if o.ignoreEOF {
		f.event("ignoring stdin EOF")
		sleepForever()
	}
	f.event("exit")
	return 0
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// fault holds what the tools and the transport share.
type fault struct {
	opts     options
	out      *stdout
	answered atomic.Int64 // tool calls answered
	mu       sync.Mutex   // serialises writes to the trace and pid files
}

// event appends a line to the trace file.
func (f *fault) event(format string, args ...any) {
	f.appendLine(f.opts.trace, fmt.Sprintf(format, args...))
}

func (f *fault) pid(pid int) { f.appendLine(f.opts.pidfile, strconv.Itoa(pid)) }

func (f *fault) appendLine(path, line string) {
	if path == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	file, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fault:", err)
		return
	}
	defer file.Close()
	fmt.Fprintln(file, line)
}

// exitThisStart counts this start in the state file and reports whether it
// is one of the first -exit-starts.
func (f *fault) exitThisStart() bool {
	if f.opts.exitStarts <= 0 || f.opts.state == "" {
		return false
	}
	data, _ := os.ReadFile(f.opts.state)
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	n++
	if err := os.WriteFile(f.opts.state, []byte(strconv.Itoa(n)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fault:", err)
	}
	return n <= f.opts.exitStarts
}

func (f *fault) watchSignals() {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGTERM)
	go func() {
		for range ch {
			f.event("SIGTERM")
			if !f.opts.ignoreTerm {
				os.Exit(143)
			}
		}
	}()
}

func (f *fault) spawnGrandchild() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "-sleeper", "-trace", f.opts.trace)
	// The executable is a test binary, which is the fault server only
	// under its name: os.Executable may have resolved the link to it.
	cmd.Args[0] = Name
	// It holds our stdout, as a child of an npx or shell wrapper would.
	cmd.Stdout = os.Stdout
	if f.opts.escape {
		cmd.SysProcAttr = escapeAttr()
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	f.pid(cmd.Process.Pid)
	f.event("grandchild %d", cmd.Process.Pid)
	return nil
}

// afterWrite runs after each message written to stdout. Only the answer
// to a tool call counts: another message may be written while a call is
// being answered.
func (f *fault) afterWrite(msg []byte) {
	if f.opts.exitAfter > 0 && f.answered.Load() >= int64(f.opts.exitAfter) && bytes.Contains(msg, []byte(`"result":{"content":`)) {
		fmt.Fprintf(os.Stderr, "fault: exiting after %d calls\n", f.opts.exitAfter)
		f.event("exit after calls")
		os.Exit(0)
	}
}

type echoArgs struct {
	Message string `json:"message,omitempty"`
}

type sizeArgs struct {
	Size int `json:"size"`
}

type slowArgs struct {
	MS int `json:"ms"`
}

type growArgs struct {
	Name string `json:"name"`
}

type gateArgs struct {
	// Gate is a named pipe the tool opens for reading before it asks: the
	// open waits until a test opens it for writing, so the test says when.
	Gate string `json:"gate,omitempty"`
	// Later answers the call at once and asks after it, between turns.
	Later bool `json:"later,omitempty"`
}

// passGate waits at the named pipe path, if any, until a test opens it.
func (f *fault) passGate(path string) {
	if path == "" {
		return
	}
	f.event("at the gate")
	if g, err := os.Open(path); err == nil {
		g.Close()
	}
}

type progressArgs struct {
	Steps int `json:"steps"`
	MS    int `json:"ms"`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func (f *fault) addTools(srv *mcp.Server) {
	answered := func(res *mcp.CallToolResult) (*mcp.CallToolResult, any, error) {
		f.answered.Add(1)
		return res, nil, nil
	}
	echo := "echo"
	if os.Getenv("FAULTSERVER_VARIANT") == "renamed" {
		echo = "echo_v2"
	}
	var echoHints *mcp.ToolAnnotations
	if os.Getenv("FAULTSERVER_VARIANT") == "readonly" {
		echoHints = &mcp.ToolAnnotations{ReadOnlyHint: true}
	}
	mcp.AddTool(srv, &mcp.Tool{Name: echo, Description: "echo the message back", Annotations: echoHints}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return answered(text("Echo: " + in.Message))
	})
	for i := range f.opts.many {
		mcp.AddTool(srv, &mcp.Tool{Name: fmt.Sprintf("pad_%d", i+1), Description: "a tool that only makes the list longer: " + strings.Repeat("pad ", 40)},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return answered(text("padded"))
			})
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "the server's -id"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return answered(text(f.opts.id))
	})
	srv.AddTool(&mcp.Tool{Name: "union", Description: "arguments whose type is a union",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"flag":{"type":["boolean","string"],"description":"on, off or auto"},"level":{"anyOf":[{"type":"integer"},{"type":"string","enum":["low","high"]}]}},"required":["flag"]}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			f.answered.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "crash", Description: "exit in the middle of the call"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		msg := in.Message
		if msg == "" {
			msg = f.opts.message
		}
		fmt.Fprintln(os.Stderr, msg)
		f.event("crash")
		if f.opts.killOnCrash {
			if self, err := os.FindProcess(os.Getpid()); err == nil {
				_ = self.Kill()
				sleepForever()
			}
		}
		os.Exit(f.opts.code)
		return nil, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "hang", Description: "never answer, until cancelled"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		f.event("hang started")
		<-ctx.Done()
		f.event("cancelled hang")
		return nil, nil, ctx.Err()
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "stubborn", Description: "never answer, even when cancelled"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		f.event("stubborn started")
		sleepForever()
		return nil, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "big", Description: "a result of size bytes"}, func(_ context.Context, _ *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		return answered(text(strings.Repeat("x", max(in.Size, 0))))
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "noise", Description: "junk on stdout, then an answer"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		f.out.junk("Server listening... (a banner, not JSON-RPC)")
		f.out.junk(`{"level":"info","msg":"a JSON log line, not JSON-RPC"}`)
		f.out.junk(`{"jsonrpc":"2.0","method":"notifications/message","params":`)
		f.out.junk("\x1b[31mred\x1b[0m \xff\xfe")
		return answered(text("quiet again"))
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "corrupt", Description: "a response that is not valid JSON"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return answered(text(corruptMarker))
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "ansi", Description: "terminal escapes and control characters"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return answered(text("\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m\rover\x08 done"))
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "slow", Description: "answer after ms milliseconds"}, func(ctx context.Context, _ *mcp.CallToolRequest, in slowArgs) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return answered(text(fmt.Sprintf("slept %d ms", in.MS)))
	})
}

// addFeatureTools adds the tools that exercise MCP beyond calls: list
// changes, log messages, progress, structured results.
func (f *fault) addFeatureTools(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "grow", Description: "add a tool of that name (the server says its tool list changed)"}, func(_ context.Context, _ *mcp.CallToolRequest, in growArgs) (*mcp.CallToolResult, any, error) {
		name := in.Name
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "a tool added while the server ran"}, func(context.Context, *mcp.CallToolRequest, echoArgs) (*mcp.CallToolResult, any, error) {
			return text("grown tool " + name + " ran"), nil, nil
		})
		// The SDK sends list_changed 10ms after the change; answer after
		// it, as a server that says so before answering does.
		time.Sleep(100 * time.Millisecond)
		return text("added " + name), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "log", Description: "send one log message at each level, debug to error"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		//lint:ignore SA1019 logging is current in MCP 2025-11-25, which mcphost speaks
		for _, level := range []mcp.LoggingLevel{"debug", "info", "warning", "error"} {
			//lint:ignore SA1019 as above
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "faultlog", Data: "a " + string(level) + " message"})
		}
		return text("logged"), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "progress", Description: "report progress steps times, ms apart, then answer"}, func(ctx context.Context, req *mcp.CallToolRequest, in progressArgs) (*mcp.CallToolResult, any, error) {
		token := req.Params.GetProgressToken()
		for i := 1; i <= in.Steps; i++ {
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			if token != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
			}
		}
		return text(fmt.Sprintf("done after %d steps", in.Steps)), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "open_url", Description: "ask the user to open a URL; say the flow is done 300ms after they agree"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", URL: "https://example.com/fault-login", ElicitationID: "fault-1", Message: "Log in, please."})
		if err != nil {
			return nil, nil, err
		}
		if res.Action == "accept" {
			ss := req.Session
			go func() {
				time.Sleep(300 * time.Millisecond)
				_ = ss.NotifyElicitationComplete(context.Background(), &mcp.ElicitationCompleteParams{ElicitationID: "fault-1"})
			}()
		}
		return text("the user said " + res.Action), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "sample", Description: "once the gate (a named pipe) opens, ask the client's model to name a colour (sampling)"}, func(ctx context.Context, req *mcp.CallToolRequest, in gateArgs) (*mcp.CallToolResult, any, error) {
		f.passGate(in.Gate)
		f.event("sampling requested")
		//lint:ignore SA1019 sampling is current in MCP 2025-11-25, which mcphost speaks
		msgs := []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Name a colour."}}}
		//lint:ignore SA1019 as above
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 20, Messages: msgs})
		if err != nil {
			return text("no sample: " + err.Error()), nil, nil
		}
		said := ""
		if t, ok := res.Content.(*mcp.TextContent); ok {
			said = t.Text
		}
		return text("the model said " + said), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "form", Description: "once the gate (a named pipe) opens, ask the user for a name (a form elicitation); later: answer the call at once and ask after it"}, func(ctx context.Context, req *mcp.CallToolRequest, in gateArgs) (*mcp.CallToolResult, any, error) {
		ask := func(ctx context.Context) string {
			f.passGate(in.Gate)
			f.event("form requested")
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: "Your name?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
			if err != nil {
				return "no form: " + err.Error()
			}
			said := fmt.Sprintf("the user said %s: %v", res.Action, res.Content["name"])
			f.event("form answered: %s", said)
			return said
		}
		if in.Later {
			go ask(context.Background())
			return text("will ask later"), nil, nil
		}
		return text(ask(ctx)), nil, nil
	})
	srv.AddTool(&mcp.Tool{Name: "weather", Description: "structured content that does not match the output schema",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: map[string]any{"temperature": "warm"}}, nil
		})
}

// endlessTools answers tools/list with a page of -endless-tools made-up
// tools and a cursor to the next page, whatever the cursor asked for: a
// list that never ends.
func (f *fault) endlessTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/list" {
			return next(ctx, method, req)
		}
		page := 0
		if p, ok := req.GetParams().(*mcp.ListToolsParams); ok && p != nil {
			page, _ = strconv.Atoi(strings.TrimPrefix(p.Cursor, "page-"))
		}
		res := &mcp.ListToolsResult{NextCursor: fmt.Sprintf("page-%d", page+1)}
		for i := range f.opts.endless {
			res.Tools = append(res.Tools, &mcp.Tool{Name: fmt.Sprintf("t%d_%d", page, i), Description: "one of a list without end",
				InputSchema: json.RawMessage(`{"type":"object"}`)})
		}
		return res, nil
	}
}

// corruptMarker in a response makes stdout cut that response line in half.
const corruptMarker = "CORRUPT-ME"

// stdout serialises writes to the real stdout, so junk lines never land
// inside a message, and corrupts marked responses.
type stdout struct {
	mu         sync.Mutex
	w          io.Writer
	afterWrite func([]byte)
	// rewrite, when set, changes a message before it is written.
	rewrite func([]byte) []byte
}

func (s *stdout) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := p
	if s.rewrite != nil {
		out = s.rewrite(out)
	}
	if bytes.Contains(p, []byte(corruptMarker)) {
		out = append(append([]byte{}, p[:len(p)/2]...), '\n')
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	if s.afterWrite != nil {
		s.afterWrite(p)
	}
	return len(p), nil
}

func (s *stdout) Close() error { return nil }

// junk writes a line that is not JSON-RPC.
func (s *stdout) junk(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.w, line)
}

// stdin traces the moment the client closes our input.
type stdin struct {
	r    io.Reader
	f    *fault
	once sync.Once
}

func (s *stdin) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.once.Do(func() { s.f.event("stdin closed") })
	}
	return n, err
}

func (s *stdin) Close() error { return nil }
