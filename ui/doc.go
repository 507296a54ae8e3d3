// Package ui turns the runner's events into what a person sees in a
// terminal: the answer on stdout (streamed, then rendered as Markdown when
// stdout is a terminal) and tool activity, warnings and a spinner on stderr.
// It holds no conversation logic; it only renders.
package ui
