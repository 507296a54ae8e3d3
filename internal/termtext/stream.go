package termtext

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// maxHeld bounds what a Stream holds back waiting for the end of an escape
// sequence: a sequence that never ends must not stop the text for good.
const maxHeld = 4 << 10

// Stream is Clean for text that arrives in pieces, as a model's answer
// streams: a piece that ends inside an escape sequence, a UTF-8 character
// or a "\r\n" keeps that end back until the next piece completes it, so
// that a sequence split in two is removed whole rather than leaving its
// second half on screen. The zero value is ready to use.
type Stream struct {
	held string
}

// Write returns the cleaned text of piece that can be shown now.
func (s *Stream) Write(piece string) string {
	text := s.held + piece
	s.held = ""
	if cut := incompleteTail(text); cut < len(text) && len(text)-cut <= maxHeld {
		text, s.held = text[:cut], text[cut:]
	}
	return Clean(text)
}

// Flush returns what is still held back, cleaned: at the end of the text,
// an unfinished sequence is as finished as it will get.
func (s *Stream) Flush() string {
	text := s.held
	s.held = ""
	return Clean(text)
}

// incompleteTail returns where the unfinished end of text starts: an
// escape sequence without its final byte, a UTF-8 character missing
// bytes, or a "\r" that a "\n" may follow. It returns len(text) when text
// ends cleanly.
func incompleteTail(text string) int {
	if i := strings.LastIndexByte(text, ansi.ESC); i >= 0 {
		if _, _, n, state := ansi.DecodeSequence(text[i:], ansi.NormalState, nil); state != ansi.NormalState && i+n == len(text) {
			return i
		}
	}
	if strings.HasSuffix(text, "\r") {
		return len(text) - 1
	}
	// A UTF-8 character cut short: at most three bytes, starting at the
	// last byte that is not a continuation byte.
	for i := len(text) - 1; i >= 0 && i >= len(text)-3; i-- {
		if utf8.RuneStart(text[i]) {
			if !utf8.FullRuneInString(text[i:]) {
				return i
			}
			break
		}
	}
	return len(text)
}
