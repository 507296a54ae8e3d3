package servers

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// waitGroupGone waits, at most d, until no live process is left in the
// process group pgid. SIGKILL is delivered asynchronously: without the wait
// mcphost could exit while a grandchild it had just killed was still
// running. Zombies count as gone (their parent may never reap them); on a
// system without /proc it returns at once.
func waitGroupGone(pgid int, d time.Duration) {
	deadline := time.Now().Add(d)
	for groupAlive(pgid) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// groupAlive reports whether a process of group pgid is still running.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	want := strconv.Itoa(pgid)
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// After the parenthesised command: state, ppid, pgrp, ...
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 2 && fields[2] == want && fields[0] != "Z" {
			return true
		}
	}
	return false
}
