package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// Host is what the chat shows and controls on the MCP side; *host.Host
// implements it.
type Host interface {
	Servers() []host.ServerInfo
	Tools() []host.ToolInfo
	ServerLogs(name string) []string
	RestartServer(ctx context.Context, name string) error
	DisableServer(name string) error
	EnableServer(ctx context.Context, name string) error
}

// Options configure a Chat.
type Options struct {
	// Typed is what the user typed before the chat began that was read
	// from the terminal already: it starts the first prompt.
	Typed []byte
	// Host is the MCP side, for the slash commands.
	Host Host
	// Conversation holds the conversation; the chat feeds it prompts and
	// renders the events of each turn.
	Conversation *host.Conversation
	// In and Out are the terminal; Err gets tool activity and warnings.
	In       *os.File
	Out, Err io.Writer
	// Width reports the terminal width; nil means 80 columns.
	Width func() int
	// Height reports the terminal height; nil means 24 rows. An answer
	// keeps the part it may still redraw shorter than that.
	Height func() int
	// NoColor drops colours; HideThinking hides reasoning models' thinking.
	NoColor, HideThinking bool
	// Theme is the colour scheme of rendered Markdown.
	Theme ui.Theme
	// HistoryPath is the input history file; empty keeps it in memory.
	HistoryPath string
	// Mask hides the config's secrets in server errors the chat shows;
	// nil shows them as they are.
	Mask func(string) string
	// ServerWait bounds how long /prompts and /resources wait for servers
	// still starting: the run's server wait as loaded (its default
	// already applied); 0 or negative waits not at all.
	ServerWait time.Duration
	// Session, when not nil, is the --session file, held while the chat
	// uses it: the conversation is saved into it after every turn. /clear
	// and /load move the chat to another file (releasing this one); Run
	// releases the last one when it returns.
	Session *session.Lock
}

// Chat is one interactive session. It is the person the host asks
// (ask.Asker): approvals, forms and sampling requests are put to the user
// in the terminal.
type Chat struct {
	opts    Options
	history *History
	// usage of the whole session and of the last turn, from Ollama's counts.
	usageTotal, usageLast provider.Usage
	// lastCalls are the tool calls of the last turn, for /results.
	lastCalls []host.ToolCallFinished
	// thinking is the last turn's thinking, for /thinking.
	thinking *strings.Builder
	// offered is what tool selection offered in the last turn, for
	// /tools; nil when it offered every tool.
	offered *offeredTools

	// mu guards what Ask, called from the runner's tool goroutines, reads
	// of the running turn.
	mu      sync.Mutex
	turnOut *ui.Text
	// turnWait is the running turn's line of servers still starting.
	turnWait   *waitLine
	cancelTurn context.CancelFunc
	// notices are news from the servers (a list changed, a URL flow is
	// done) that came between turns and prompts, shown before the next
	// prompt; while a prompt is edited they go through editor, above it.
	notices []string
	// headerShown is set once the header (which counts the servers
	// ready) is on screen: only later starts are news.
	headerShown atomic.Bool
	editor      *tea.Program
	// ahead reads the terminal while a turn runs (nil between turns);
	// typedAhead is what it kept for the next prompt.
	ahead      *typeAhead
	typedAhead string
	// quitAhead is Ctrl-D typed on its own during the last turn.
	quitAhead bool
	// models is the engines' model list as /model last fetched it, for
	// Tab; nil until then.
	models []host.ModelEntry
	// questions puts approvals, sampling requests and forms to the user
	// one at a time, in the order they came.
	questions questionQueue
	// running are the running turn's tool calls and awaiting the calls
	// ("server\x00tool") whose approval is asked or waits to be: a
	// server's question names the call it comes during.
	// refused are calls refused their approval, until they finish.
	running           []runningCall
	awaiting, refused []string
}

var _ ask.Asker = (*Chat)(nil)

// New returns a chat; Run starts it.
func New(opts Options) *Chat {
	if opts.Width == nil {
		opts.Width = func() int { return 80 }
	}
	if opts.Height == nil {
		opts.Height = func() int { return 24 }
	}
	if opts.Err == nil {
		opts.Err = opts.Out
	}
	if opts.Mask == nil {
		opts.Mask = func(s string) string { return s }
	}
	return &Chat{opts: opts, history: LoadHistory(opts.HistoryPath), cancelTurn: func() {}}
}

// Run reads prompts until Ctrl-D, /quit or Ctrl-C twice, or until ctx ends.
func (c *Chat) Run(ctx context.Context) error {
	// /clear and /load may have moved the chat to another session file.
	defer c.releaseSession()
	// From here to the end, keys typed at any moment wait for the next
	// prompt, unechoed.
	defer c.keysMode()()
	// Servers that answer from here on are news; the header tells of
	// those before.
	c.headerShown.Store(true)
	io.WriteString(c.opts.Out, c.header())
	if !c.opts.Conversation.HasModel() {
		c.offerModels(ctx, c.opts.Out)
	}
	for ctx.Err() == nil {
		c.flushNotices()
		line, err := c.readLine(ctx)
		switch {
		case errors.Is(err, ErrEOF), errors.Is(err, ErrInterrupt):
			return nil
		case ctx.Err() != nil:
			// SIGTERM or SIGHUP (the terminal closed) while at the prompt.
			return ctx.Err()
		case err != nil:
			return fmt.Errorf("reading input: %w", err)
		}
		if line == "" {
			continue
		}
		c.history.Add(line)
		if isCommand(line) {
			if quit := c.Command(ctx, line); quit {
				return nil
			}
			continue
		}
		c.Turn(ctx, line)
	}
	return ctx.Err()
}

// readLine runs the line editor in the terminal. It renders inline, not
// on the alternate screen, so the conversation stays in the scrollback.
func (c *Chat) readLine(ctx context.Context) (string, error) {
	if c.takeQuitAhead() {
		return "", ErrEOF
	}
	ahead := c.takeTypedAhead()
	ed := newEditor(c.history.Entries(), c.Complete, c.opts.Width(), c.opts.Theme == ui.Dark)
	if line, rest, ok := typedLine(ahead); ok {
		// A line ended by Enter, typed during the last turn: sent now,
		// as a shell runs a command typed ahead; the lines after it
		// wait for the prompts after this one. A paste in it is folded
		// as one made at the prompt would be.
		c.mu.Lock()
		c.typedAhead = rest + c.typedAhead
		c.mu.Unlock()
		ed.insertPaste(line)
		ed.finish(ed.ta.Value(), nil)
		fmt.Fprint(c.opts.Out, ed.echo())
		return ed.value, nil
	}
	// Other text typed during the last turn starts the input; a paste
	// made then is folded as one made now would be, less the newline
	// that ends it (a paste of lines copied whole has one).
	ed.insertPaste(strings.TrimRight(ahead, string(pastedNewline)))
	var in io.Reader = c.opts.In
	if canReadAhead && c.opts.In != nil && term.IsTerminal(int(c.opts.In.Fd())) {
		// What is typed after the Enter that ends this prompt stays in
		// the terminal for the next reader.
		ed.input = newLineInput(c.opts.In)
		defer ed.input.Close()
		in = ed.input
	}
	p := tea.NewProgram(ed, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(c.opts.Out), tea.WithoutSignalHandler())
	defer c.editing(p, ed)()
	_, err := p.Run()
	// The prompt gives the terminal back as it found it, unless the chat
	// was suspended meanwhile: the shell may have set its own modes.
	c.keysMode()
	c.mu.Lock()
	c.typedAhead = ed.after + c.typedAhead
	c.mu.Unlock()
	// The news shown above the input, and the whole input, go to the
	// scrollback from here: the editor's own view is cut to the screen.
	fmt.Fprint(c.opts.Out, ed.noticeLines())
	if err != nil {
		return "", err
	}
	fmt.Fprint(c.opts.Out, ed.echo())
	return ed.value, ed.err
}

// Turn sends one prompt through the runner and renders what happens; the
// resources it names as @SERVER:URI are attached. Ctrl-C cancels this turn
// only (the model call or the MCP calls in flight); the conversation stays
// usable.
func (c *Chat) Turn(ctx context.Context, prompt string) {
	var sendErr error
	c.turnWith(ctx, func(ctx context.Context, on func(host.Event)) (host.Result, error) {
		res, err := c.send(ctx, prompt, on)
		sendErr = err
		return res, err
	})
	if errors.Is(sendErr, host.ErrPromptTooLarge) {
		// Not sent, and not in the conversation: the prompt waits in the
		// input box, to be cut down or sent again after /compact.
		c.mu.Lock()
		if c.typedAhead == "" {
			c.typedAhead = asPasted(prompt)
		}
		c.mu.Unlock()
	}
}

// turnWith runs one turn made by run (a prompt, or an MCP prompt's
// messages) and renders what happens.
func (c *Chat) turnWith(ctx context.Context, run func(ctx context.Context, on func(host.Event)) (host.Result, error)) {
	if !c.opts.Conversation.HasModel() {
		// Said here rather than as the turn's error: the error names -m,
		// and the chat has a better way.
		c.noModel(c.opts.Err, "nothing was sent")
		fmt.Fprintln(c.opts.Out)
		return
	}
	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	// Esc cancels through cancel, not stop: stop would give SIGINT back
	// its default (ending mcphost) while the turn winds down.
	turnCtx, cancel := context.WithCancel(sigCtx)
	defer cancel()

	// Keys typed during the turn are kept for the next prompt; Esc
	// cancels the turn.
	defer c.readAhead(cancel)()

	out := ui.NewText(ui.TextOptions{
		Out: c.opts.Out, Err: c.opts.Err, OutTTY: true, ErrTTY: true,
		Width: c.opts.Width(), NoColor: c.opts.NoColor, HideThinking: c.opts.HideThinking, Theme: c.opts.Theme,
		ThinkingHint: thinkingHint,
		Size:         func() (int, int) { return c.opts.Width(), c.opts.Height() },
	})
	c.mu.Lock()
	c.turnOut, c.cancelTurn = out, cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.turnOut, c.turnWait, c.cancelTurn, c.running, c.refused = nil, nil, func() {}, nil, nil
		c.mu.Unlock()
	}()
	var stats turnStats
	// An empty answer is said by a dim line under the (empty) answer,
	// not as a warning above it.
	var empty string
	handle := func(ev host.Event) {
		if w, ok := ev.(host.Warning); ok && strings.HasPrefix(w.Message, host.EmptyAnswer) {
			empty = w.Message
			return
		}
		out.Handle(ev)
	}
	wait := c.serverWait()
	c.mu.Lock()
	c.turnWait = wait
	c.mu.Unlock()
	res, err := run(turnCtx, wait.watch(c.keepOffered(c.keepThinking(c.trackCalls(stats.watch(handle))))))
	wait.stop()
	out.Finish(res, err, 0)
	if empty != "" {
		c.printDim("(" + ui.Sanitize(empty) + ")")
	}
	if err == nil {
		c.printStatus(&stats)
	}
	defer c.flushNotices()
	c.saveSession(c.opts.Err)
	c.usageLast = res.Usage
	c.usageTotal = c.usageTotal.Add(res.Usage)
	c.lastCalls = res.ToolCalls
	switch {
	case err == nil:
	case turnCtx.Err() != nil && ctx.Err() == nil:
		fmt.Fprintln(c.opts.Err, "(cancelled: the conversation goes on)")
	default:
		fmt.Fprintln(c.opts.Err, ui.ErrorLine(c.style(), err.Error()))
	}
	// A blank line between turns.
	fmt.Fprintln(c.opts.Out)
}
