package chat

import "os"

// noEcho turns off the terminal's echo while a turn runs, so keys typed
// ahead do not scribble over the streaming answer; they still reach the
// next prompt. Ctrl-C keeps working (signals stay on). It returns the
// function that restores the terminal; on anything but a terminal both are
// no-ops.
func noEcho(f *os.File) (restore func()) { return setEcho(f, false) }

// withEcho turns the terminal's echo and line editing on (a turn runs with
// echo off) while the user types an answer; it returns the function that
// restores the state.
func withEcho(f *os.File) (restore func()) { return setEcho(f, true) }

// noop is the restore function when nothing was changed.
func noop() {}

// EchoOff turns off the terminal's echo while a one-shot run draws its
// answer, so that keys typed meanwhile are not drawn into it (or into the
// thinking line); they wait for the shell. It returns the function that
// restores the terminal; on anything but a terminal both are no-ops.
func EchoOff(f *os.File) (restore func()) { return noEcho(f) }
