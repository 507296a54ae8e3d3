// Package termtext cleans text that comes from outside (tool results, server
// stderr, model output) before it reaches a terminal or a model: escape
// sequences that could move the cursor, retitle the window or clear the
// screen, other control characters and invalid UTF-8 are removed. The
// escape sequences are recognised by github.com/charmbracelet/x/ansi.
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Clean makes text safe for a terminal and cheap for a model: terminal
// escape sequences (colours, cursor moves, titles) and other control
// characters are removed, keeping newlines and tabs; "\r\n" becomes "\n"
// and a lone "\r" (a progress bar redrawing its line) a newline; invalid
// UTF-8 becomes U+FFFD.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	s = ansi.Strip(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			b.WriteByte('\n')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			// C0 and C1 controls: dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPlain reports whether s is valid UTF-8 without control characters
// besides newline and tab: nearly all output, returned as is.
func isPlain(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return true
	}
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// Line is Clean for text shown on one line: newlines and tabs become
// spaces.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, Clean(s))
}

// Bytes writes a size for people and models: "512 bytes", "2.0 KB",
// "3.5 MB".
func Bytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Truncate cuts s to at most n characters, ending it with "…" when it was
// cut.
func Truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Hidden reports whether r changes what text says without being seen:
// format characters (Unicode category Cf: zero-width spaces and joiners,
// bidirectional controls, tag characters U+E0000–U+E007F, the byte order
// mark, soft hyphen), the line and paragraph separators U+2028 and U+2029,
// variation selectors (which can carry data behind an emoji) and the other
// default-ignorable characters (Hangul fillers, U+034F). A terminal draws
// none of them, so a person judging text cannot see them.
func Hidden(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// RevealJSON makes the hidden characters (Hidden) of JSON text visible as
// JSON escapes ("\u200b"; a pair of surrogate escapes above U+FFFF), and
// C0 and C1 controls too, newline and tab aside (JSON's own layout; in a
// JSON string they are escaped already): the result is still JSON that decodes to the
// same value, but what a person reads is all there is. Text that is not
// JSON gets the same escapes.
func RevealJSON(s string) string {
	if !hasHidden(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0x7f && r < 0xa0) || Hidden(r):
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hasHidden reports whether s holds a control or a hidden character.
func hasHidden(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) || Hidden(r) {
			return true
		}
	}
	return false
}

// Reveal is Line for text a person judges (a tool's or a server's name, a
// server's question): the characters a terminal does not draw (Hidden)
// are shown by their code, "<U+200B>", as the approval question shows
// them in arguments.
func Reveal(s string) string { return RevealText(Line(s)) }

// RevealText is Clean, with the characters a terminal does not draw
// (Hidden) shown by their code, "<U+200B>": newlines and tabs are kept.
func RevealText(s string) string {
	s = Clean(s)
	if !hasHidden(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Hidden(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
