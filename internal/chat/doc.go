// Package chat is mcphost's interactive conversation: a line editor with
// history and completion, slash commands, and the loop that hands each
// prompt to the same runner the one-shot mode uses. It adds the loop and
// the rendering around the runner, never a second way of calling tools.
package chat
