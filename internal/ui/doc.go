// Package ui turns a turn's events into what a person or a program sees:
// as text (Text: the answer on stdout, streamed, then rendered as Markdown
// when stdout is a terminal; tool activity, warnings and a spinner on
// stderr) or as JSON (JSON: one object, or JSON lines as things happen).
// It also prints the listings of servers, tools and tool results that the
// commands and the chat share. It holds no conversation logic; it only
// renders.
package ui
