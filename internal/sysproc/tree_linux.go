package sysproc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// useTag: Linux finds a tree's processes by the mark in their environment.
const useTag = true

// setParentDeathSignal makes the kernel kill the root when mcphost ends,
// even by SIGKILL. It is delivered when the thread that started the root
// ends, which Tree.run makes the same thing.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// osTree is what Linux keeps about a tree, under sysTree.mu: the root's
// start time, which no other process of the tree can precede, and the
// processes killed outside the group, to reap those that were handed to us
// (see BecomeSubreaper).
type osTree struct {
	rootStart uint64
	killed    map[int]uint64 // pid → start time
}

// afterStart records the root's start time.
func (t *Tree) afterStart() error {
	if p, ok := readStat(t.Pid()); ok {
		t.sys.mu.Lock()
		t.sys.rootStart = p.start
		t.sys.mu.Unlock()
	}
	return nil
}

func (t *Tree) release() {}

// procInfo is what /proc/PID/stat tells about a process.
type procInfo struct {
	pid, ppid, pgid int
	zombie          bool
	start           uint64 // clock ticks after boot
}

// readStat reads /proc/PID/stat. A scan reads one for every process on
// the machine, so it uses a single read into a stack buffer rather than
// os.ReadFile's stat, reads and allocation.
func readStat(pid int) (procInfo, bool) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return procInfo{}, false
	}
	defer unix.Close(fd)
	var buf [1024]byte // a stat line is a few hundred bytes
	n, err := unix.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return procInfo{}, false
	}
	return parseStat(pid, string(buf[:n]))
}

// parseStat parses a stat line; the command in parentheses may itself hold
// spaces and parentheses, so the fields are counted from the last ")".
func parseStat(pid int, s string) (procInfo, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procInfo{}, false
	}
	// After ")": state ppid pgrp session tty_nr tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime ...
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return procInfo{}, false
	}
	return procInfo{pid: pid, ppid: ppid, pgid: pgid, zombie: f[0] == "Z" || f[0] == "X", start: start}, true
}

// listProcs reads the stat of every process that started at or after
// since; earlier ones cannot belong to a tree that started then.
func listProcs(since uint64) []procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := make([]procInfo, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok && p.start >= since {
			procs = append(procs, p)
		}
	}
	return procs
}

// hasTag reports whether the environment pid started with holds tag. A
// process whose environment cannot be read (another user's, or one that
// is not dumpable) does not.
func hasTag(pid int, tag string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	mark := tag + "=1"
	return bytes.HasPrefix(data, []byte(mark+"\x00")) || bytes.Contains(data, []byte("\x00"+mark+"\x00"))
}

// members returns the tree's processes among procs: its group (root is its
// id; 0 once the group may no longer be trusted, see sysTree.groupGone),
// those carrying its mark, and the descendants of either (which catches
// one that cleared its environment while its parent lives). Exited ones
// are included; callers tell them by procInfo.zombie.
func members(procs []procInfo, root, self int, tagged func(pid int) bool) []procInfo {
	in := make(map[int]bool)
	children := make(map[int][]int)
	byPid := make(map[int]procInfo, len(procs))
	for _, p := range procs {
		byPid[p.pid] = p
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	var queue []int
	for _, p := range procs {
		if p.pid == self {
			continue
		}
		if (root > 0 && (p.pgid == root || p.pid == root)) || (!p.zombie && tagged(p.pid)) {
			in[p.pid] = true
			queue = append(queue, p.pid)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !in[c] && c != self {
				in[c] = true
				queue = append(queue, c)
			}
		}
	}
	out := make([]procInfo, 0, len(in))
	for pid := range in {
		out = append(out, byPid[pid])
	}
	return out
}

// snapshot returns the tree's processes now.
func (t *Tree) snapshot() []procInfo {
	t.sys.mu.Lock()
	since, root := t.sys.rootStart, t.Pid()
	if t.sys.groupGone {
		root = 0
	}
	t.sys.mu.Unlock()
	return members(listProcs(since), root, os.Getpid(), func(pid int) bool { return hasTag(pid, t.tag) })
}

// outside returns the tree's running processes outside its process group.
func (t *Tree) outside() []procInfo {
	var out []procInfo
	for _, p := range t.snapshot() {
		if !p.zombie && p.pgid != t.Pid() {
			out = append(out, p)
		}
	}
	return out
}

// signalOutside sends sig to the processes outside returned.
func (t *Tree) signalOutside(procs []procInfo, sig syscall.Signal) {
	for _, p := range procs {
		t.signalOne(p, sig)
	}
}

// signalOne sends sig to p, through a pidfd where the kernel has them, so
// that a pid reused since the scan is never hit: the pidfd pins a process,
// and its start time must still be the one scanned.
func (t *Tree) signalOne(p procInfo, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		t.sys.mu.Lock()
		if t.sys.killed == nil {
			t.sys.killed = make(map[int]uint64)
		}
		t.sys.killed[p.pid] = p.start
		t.sys.mu.Unlock()
	}
	same := func() bool { q, ok := readStat(p.pid); return ok && q.start == p.start }
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		// Without pidfds (old kernels, some seccomp filters): check, then kill.
		if (errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM)) && same() {
			_ = syscall.Kill(p.pid, sig)
		}
		return
	}
	defer unix.Close(fd)
	if same() {
		_ = unix.PidfdSendSignal(fd, sig, nil, 0)
	}
}

// alive reports whether a process of the tree still runs. After Kill it
// kills any it finds (one forked while the last scan ran), and it reaps
// the tree's exited processes that were handed to mcphost as their
// subreaper, which nobody else would.
func (t *Tree) alive() bool {
	if t.isSettled() {
		return false
	}
	self, killing := os.Getpid(), t.isKilling()
	running, grouped := false, false
	for _, p := range t.snapshot() {
		if p.pgid == t.Pid() {
			grouped = true
		}
		switch {
		case !p.zombie:
			running = true
			if killing {
				t.signalOne(p, syscall.SIGKILL)
			}
		case p.ppid == self && p.pid != t.Pid():
			// Ours to reap: a group member or a process we killed, never
			// the root, which Tree.run waits for.
			var ws unix.WaitStatus
			_, _ = unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
		}
	}
	if !grouped {
		t.noteGroupEmpty()
	}
	t.reapKilledOutside(self)
	return running
}

// reapKilledOutside reaps the processes killed outside the group that
// were handed to us and have exited; an exited process's environment can
// no longer be read, so snapshot does not find them.
func (t *Tree) reapKilledOutside(self int) {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	for pid, start := range t.sys.killed {
		p, ok := readStat(pid)
		switch {
		case !ok || p.start != start:
			delete(t.sys.killed, pid) // reaped by someone, gone
		case p.zombie && p.ppid == self:
			var ws unix.WaitStatus
			if n, _ := unix.Wait4(pid, &ws, unix.WNOHANG, nil); n == pid {
				delete(t.sys.killed, pid)
			}
		}
	}
}
