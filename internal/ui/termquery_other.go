//go:build !unix

package ui

import "time"

// QueryBackground learns nothing where the terminal is not a Unix tty: the
// theme then comes from --theme or COLORFGBG, else dark.
func QueryBackground(time.Duration) (theme Theme, ok bool, typed []byte) { return Dark, false, nil }
