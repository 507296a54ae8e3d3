package ui

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Theme is the colour scheme Markdown is rendered in: for a dark or a
// light terminal background.
type Theme int

// The themes.
const (
	Dark Theme = iota
	Light
)

// The values of the theme setting.
const (
	ThemeDark  = "dark"
	ThemeLight = "light"
	ThemeAuto  = "auto"
)

// QueryTimeout bounds the one question to the terminal about its
// background: a terminal that does not answer (the Linux console, some IDE
// and web terminals, script, serial lines) costs this much, once.
const QueryTimeout = 100 * time.Millisecond

// ResolveTheme decides the theme without waiting on anything it need not:
// the setting when it says dark or light; with auto, COLORFGBG when the
// terminal sets it; else, unless the terminal cannot answer (TERM is
// dumb, or a multiplexer that may sit between several terminals), one
// query to it, by query; dark when nothing says.
func ResolveTheme(setting string, getenv func(string) string, query func() (Theme, bool)) Theme {
	switch setting {
	case ThemeDark:
		return Dark
	case ThemeLight:
		return Light
	}
	if t, ok := ParseColorFGBG(getenv("COLORFGBG")); ok {
		return t
	}
	term := getenv("TERM")
	if term == "dumb" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux") || query == nil {
		return Dark
	}
	if t, ok := query(); ok {
		return t
	}
	return Dark
}

// ParseColorFGBG reads COLORFGBG ("15;0": foreground;background, as rxvt,
// Konsole and others set it): backgrounds 7 (light grey) and 9–15 are
// light, the others dark.
func ParseColorFGBG(v string) (Theme, bool) {
	if v == "" {
		return Dark, false
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || bg < 0 || bg > 15 {
		return Dark, false
	}
	if bg == 7 || bg >= 9 {
		return Light, true
	}
	return Dark, true
}

// themeOfOSC11 reads a terminal's answer to OSC 11 ("rgb:RRRR/GGGG/BBBB",
// one to four hex digits a channel) as dark or light by its luminance.
// splitReplies parts what was read after the queries into the terminal's
// answer to OSC 11 (the cursor report only marks the end) and what else
// came: keys typed meanwhile.
func splitReplies(got []byte) (osc11 string, typed []byte) {
	for len(got) > 0 {
		loc := terminalReply.FindIndex(got)
		if loc == nil {
			typed = append(typed, got...)
			break
		}
		typed = append(typed, got[:loc[0]]...)
		if reply := string(got[loc[0]:loc[1]]); strings.HasPrefix(reply, "\x1b]") {
			osc11 = reply
		}
		got = got[loc[1]:]
	}
	return osc11, typed
}

// terminalReply is one reply to QueryBackground's queries.
var terminalReply = regexp.MustCompile(`\x1b\]11;[^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9]+;[0-9]+R`)

func themeOfOSC11(answer string) (Theme, bool) {
	i := strings.Index(answer, "rgb:")
	if i < 0 {
		return Dark, false
	}
	channels := strings.Split(strings.TrimRight(answer[i+4:], "\x07\x1b\\"), "/")
	if len(channels) != 3 {
		return Dark, false
	}
	var rgb [3]float64
	for k, c := range channels {
		if len(c) == 0 || len(c) > 4 {
			return Dark, false
		}
		n, err := strconv.ParseUint(c, 16, 16)
		if err != nil {
			return Dark, false
		}
		rgb[k] = float64(n) / float64(uint64(1)<<(4*len(c))-1)
	}
	// Relative luminance, as sRGB weighs the channels.
	if 0.2126*rgb[0]+0.7152*rgb[1]+0.0722*rgb[2] >= 0.5 {
		return Light, true
	}
	return Dark, true
}
