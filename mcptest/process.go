package mcptest

// ProcessRunning reports whether the process pid is running; one that has
// exited but not been reaped yet (a zombie) is not.
func ProcessRunning(pid int) bool { return processRunning(pid) }

// KillProcess kills the process pid, if it still exists: the clean-up of a
// test that found a process it expected gone.
func KillProcess(pid int) { killProcess(pid) }
