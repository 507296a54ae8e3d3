//go:build !windows

package chat

import tea "charm.land/bubbletea/v2"

// suspend is Ctrl-Z at the prompt: the program stops as a shell job
// (bubbletea gives the terminal back first) and `fg` brings the prompt
// back as it was.
func suspend() tea.Cmd { return tea.Suspend }
