package chat

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/muesli/cancelreader"
	"golang.org/x/term"
)

// typeAhead reads the terminal while a turn runs, so that what the user
// types meanwhile is kept for the next prompt (instead of echoing over the
// answer or being lost), and a lone Esc cancels the turn. The terminal is
// put in no-echo, character-at-a-time mode (signals stay on, so Ctrl-C and
// Ctrl-Z work as before). A question asked during the turn (approval,
// elicitation) holds it, so the question gets the keys.
type typeAhead struct {
	f *os.File
	// out is the terminal's output, where the bracketed paste mode is
	// set while the turn runs (nil: left as it is).
	out   io.Writer
	onEsc func()
	// onTyped, when not nil, is told the text typed so far after each
	// read, to show it (keys are not echoed during a turn).
	onTyped func(string)
	restore func()

	// switching serialises hold, release and stop; mu guards the rest.
	switching sync.Mutex
	held      int
	cr        cancelreader.CancelReader
	done      chan struct{}

	mu      sync.Mutex
	text    []rune
	partial []byte // the start of a character split between two reads
	// eof is Ctrl-D typed with nothing else typed: the next prompt is
	// left at once, as a shell does with a Ctrl-D typed ahead.
	eof bool
	// inPaste: between the marks of a bracketed paste, whose newlines
	// are text (pastedNewline), not Enters.
	inPaste bool
}

// readAhead starts reading the terminal for the running turn; onEsc
// cancels the turn. The returned function stops it and keeps what was
// typed for the next prompt. Where the terminal cannot be read that way
// (not a terminal, Windows) the turn only runs with echo off.
func (c *Chat) readAhead(onEsc context.CancelFunc) (stop func()) {
	in := c.opts.In
	if !canReadAhead || in == nil || !term.IsTerminal(int(in.Fd())) {
		return noEcho(in)
	}
	a := &typeAhead{f: in, out: c.opts.Out, onEsc: onEsc, restore: charMode(in), onTyped: c.showTyped}
	a.start()
	c.mu.Lock()
	c.ahead = a
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.ahead = nil
		c.mu.Unlock()
		typed := a.stop()
		c.mu.Lock()
		c.typedAhead += typed
		c.quitAhead = c.quitAhead || a.quit()
		c.mu.Unlock()
	}
}

// showTyped shows the text typed during the running turn below its
// answer or beside its spinner.
func (c *Chat) showTyped(text string) {
	c.mu.Lock()
	out := c.turnOut
	c.mu.Unlock()
	if out != nil {
		out.ShowTyped(text)
	}
}

// quit reports whether Ctrl-D was typed before anything else.
func (a *typeAhead) quit() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.eof && len(a.text) == 0
}

// takeQuitAhead reports, once, whether Ctrl-D was typed on its own
// during the last turn.
func (c *Chat) takeQuitAhead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.quitAhead
	c.quitAhead = false
	return q
}

// takeTypedAhead returns, once, what was typed during the last turn.
func (c *Chat) takeTypedAhead() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.typedAhead
	c.typedAhead = ""
	return s
}

// holdInput lets a question asked during a turn read the terminal itself;
// the returned function gives it back to the type-ahead reader.
func (c *Chat) holdInput() (release func()) {
	c.mu.Lock()
	a := c.ahead
	c.mu.Unlock()
	if a == nil {
		return noop
	}
	a.hold()
	return a.release
}

// start begins reading; the caller holds switching or owns a alone.
func (a *typeAhead) start() {
	cr, err := cancelreader.NewReader(a.f)
	if err != nil {
		a.cr, a.done = nil, nil
		return
	}
	a.cr, a.done = cr, make(chan struct{})
	// A paste made during the turn comes marked, so that its lines stay
	// one prompt while lines typed are sent one by one. Set at each
	// start: a question asked meanwhile (its own program) resets it.
	if a.out != nil {
		io.WriteString(a.out, pasteOn)
	}
	go a.read(cr, a.done)
}

func (a *typeAhead) read(cr cancelreader.CancelReader, done chan struct{}) {
	defer close(done)
	buf := make([]byte, 1024)
	for {
		n, err := cr.Read(buf)
		if n > 0 && a.feed(buf[:n]) {
			a.onEsc()
		}
		if n > 0 && a.onTyped != nil {
			a.mu.Lock()
			text := string(a.text)
			a.mu.Unlock()
			a.onTyped(text)
		}
		if err != nil {
			return
		}
	}
}

// pause stops the reading without taking a byte more; the caller holds
// switching.
func (a *typeAhead) pause() {
	if a.cr == nil {
		return
	}
	a.cr.Cancel()
	<-a.done
	a.cr.Close()
	a.cr = nil
}

func (a *typeAhead) hold() {
	a.switching.Lock()
	defer a.switching.Unlock()
	a.held++
	if a.held == 1 {
		a.pause()
	}
}

func (a *typeAhead) release() {
	a.switching.Lock()
	defer a.switching.Unlock()
	a.held--
	if a.held == 0 {
		a.start()
	}
}

// stop ends the reading, puts the terminal back and returns the text
// typed, Enters included.
func (a *typeAhead) stop() string {
	a.switching.Lock()
	a.pause()
	a.held = -1 // never started again
	a.switching.Unlock()
	if a.out != nil {
		io.WriteString(a.out, pasteOff)
	}
	a.restore()
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.text)
}

// feed takes bytes read from the terminal and edits the kept text as a
// line editor would: printable characters are added, Backspace, Ctrl-W
// and Ctrl-U delete, Enter starts a new line; other control keys and
// escape sequences (arrows, function keys) are dropped. It reports a lone
// Esc: a read of that one byte, as an escape sequence arrives whole.
func (a *typeAhead) feed(b []byte) (esc bool) {
	if len(b) == 1 && b[0] == 0x1b {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	b = append(a.partial, b...)
	a.partial = nil
	for len(b) > 0 {
		switch c := b[0]; {
		case c == 0x1b && bytes.HasPrefix(b, []byte(pasteStart)):
			a.inPaste = true
			b = b[len(pasteStart):]
			continue
		case c == 0x1b && bytes.HasPrefix(b, []byte(pasteEnd)):
			a.inPaste = false
			b = b[len(pasteEnd):]
			continue
		case c == 0x1b:
			b = skipEscape(b)
			continue
		case a.inPaste && c == '\n' && len(a.text) > 0 && a.text[len(a.text)-1] == pastedNewline:
			// The LF of a pasted CR LF.
		case a.inPaste && (c == '\r' || c == '\n'):
			a.text = append(a.text, pastedNewline)
		case c == '\r' || c == '\n':
			a.text = append(a.text, '\n')
		case c == '\t':
			a.text = append(a.text, '\t')
		case c == 0x7f || c == 0x08:
			if n := len(a.text); n > 0 && a.text[n-1] != '\n' {
				a.text = a.text[:n-1]
			}
		case c == 0x15: // Ctrl-U: the line so far
			a.text = a.text[:lineStart(a.text)]
		case c == 0x17: // Ctrl-W: the word before
			a.text = deleteWord(a.text)
		case c == 0x04: // Ctrl-D: quits, on an empty line
			a.eof = a.eof || len(a.text) == 0
		case c < 0x20:
		default:
			if !utf8.FullRune(b) {
				a.partial = append([]byte(nil), b...)
				return false
			}
			r, size := utf8.DecodeRune(b)
			if r != utf8.RuneError {
				a.text = append(a.text, r)
			}
			b = b[size:]
			continue
		}
		b = b[1:]
	}
	return false
}

// skipEscape drops one escape sequence from the start of b: ESC [ or ESC O
// and parameters up to a final byte, or ESC and one key (Alt+key).
func skipEscape(b []byte) []byte {
	if len(b) < 2 {
		return nil
	}
	if b[1] != '[' && b[1] != 'O' {
		return b[2:]
	}
	for i := 2; i < len(b); i++ {
		if b[i] >= 0x40 && b[i] <= 0x7e {
			return b[i+1:]
		}
	}
	return nil
}

func lineStart(text []rune) int {
	for i := len(text) - 1; i >= 0; i-- {
		if text[i] == '\n' {
			return i + 1
		}
	}
	return 0
}

func deleteWord(text []rune) []rune {
	i := len(text)
	for i > 0 && text[i-1] == ' ' {
		i--
	}
	for i > 0 && text[i-1] != ' ' && text[i-1] != '\n' {
		i--
	}
	return text[:i]
}

// typedLine takes the first line of text typed ahead that an Enter ended:
// what a user types to run it as soon as the prompt is back, as a shell
// runs the commands typed ahead one after another. Newlines in a paste
// (kept as CR, pastedNewline) are part of the line; lines with nothing
// typed on them are skipped. rest is what follows, for the next prompt.
func typedLine(text string) (line, rest string, ok bool) {
	for {
		var found bool
		line, text, found = strings.Cut(text, "\n")
		if !found {
			return "", "", false
		}
		if strings.TrimSpace(line) != "" {
			return strings.ReplaceAll(line, "\r", "\n"), text, true
		}
	}
}

// Bracketed paste: the marks around a paste, whose Enters are text, and
// the modes that have the terminal send them or not.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
	pasteOn    = "\x1b[?2004h"
	pasteOff   = "\x1b[?2004l"
)

// pastedNewline is how the text typed ahead keeps a newline of a paste,
// or of a prompt put back in the box: an Enter typed is a newline there
// and ends a line (typedLine). Terminals send both as CR; bracketed paste
// tells them apart.
const pastedNewline = '\r'

// asPasted returns s with its newlines kept as pasted ones.
func asPasted(s string) string {
	return strings.NewReplacer("\r\n", "\r", "\n", "\r").Replace(s)
}

// keysMode keeps the terminal in keyMode while the chat runs, so that no
// key is echoed or lost between a turn's type-ahead reader and the
// prompt; lines typed before (while the chat started) are kept for the
// next prompt, Ctrl-D on its own included. It returns the function that
// gives the terminal back as it was. Where the terminal cannot be read
// that way (not a terminal, Windows) it does nothing.
func (c *Chat) keysMode() (restore func()) {
	in := c.opts.In
	if !canReadAhead || in == nil || !term.IsTerminal(int(in.Fd())) {
		return noop
	}
	a := &typeAhead{}
	// Keys read before the chat began (by the question to the terminal
	// about its background) come first.
	a.feed(c.opts.Typed)
	c.opts.Typed = nil
	restore = keyMode(in, func(b []byte) {
		if b == nil {
			a.feed([]byte{0x04})
			return
		}
		a.feed(b)
	})
	c.mu.Lock()
	c.quitAhead = c.quitAhead || c.typedAhead == "" && a.quit()
	c.typedAhead += string(a.text)
	c.mu.Unlock()
	return restore
}
