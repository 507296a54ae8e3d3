package chat

import tea "charm.land/bubbletea/v2"

// suspend: Windows has no job control, so Ctrl-Z does nothing.
func suspend() tea.Cmd { return nil }
