package sysproc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// escapes are shell lines that start a sleep outside the root's process
// group, each appending the sleep's pid to $PIDFILE: with setsid, by a
// double fork, and both.
const escapes = `setsid sleep 1000 & echo $! >> "$PIDFILE"
(sleep 1000 & echo $! >> "$PIDFILE")
(setsid sleep 1000 & echo $! >> "$PIDFILE")
`

// TestEscapedDescendantsAreKilled: what leaves the process group still
// dies with the tree, whether the root has exited (a command that ended)
// or still runs (a timeout or a cancel); while the root runs, even a
// process that cleared its environment is found as its descendant.
func TestEscapedDescendantsAreKilled(t *testing.T) {
	cases := []struct {
		name, script string
		pids         int
	}{
		{"after the root exited", escapes, 3},
		{"while the root runs", escapes + `setsid env -i sh -c 'echo $$ >> "$0"; exec sleep 1000' "$PIDFILE" &
echo ready; wait`, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pids")
			cmd := exec.Command("sh", "-c", c.script)
			cmd.Env = append(os.Environ(), "PIDFILE="+pidfile)
			tr, err := Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			endTree(t, tr)
			pids := waitPids(t, pidfile, c.pids)
			if c.pids == 3 {
				<-tr.Done()
			}
			for _, pid := range pids {
				if err := waitSleeping(pid); err != nil {
					t.Fatalf("%v: the test proves nothing", err)
				}
			}
			gone(t, tr)
			for _, pid := range pids {
				waitDead(t, pid, "an escaped descendant")
			}
		})
	}
}

// TestRootOutlivesStarterThread: the parent-death signal follows the thread
// that started the root, and a goroutine that exits while locked to its
// thread ends that thread. A root started from such a goroutine must live
// on (go.dev/issue/27505).
func TestRootOutlivesStarterThread(t *testing.T) {
	type result struct {
		tr  *Tree
		tid int
		err error
	}
	var r result
	for r.tr == nil {
		ch := make(chan result, 1)
		go func() {
			runtime.LockOSThread()
			if unix.Gettid() == unix.Getpid() {
				// The main thread is never ended, only parked: try another.
				runtime.UnlockOSThread()
				ch <- result{}
				return
			}
			// Never unlocked: the thread ends with the goroutine.
			tr, err := Start(helperCmd("sleep"))
			if err != nil {
				tr = &Tree{} // stop trying
			}
			ch <- result{tr, unix.Gettid(), err}
		}()
		r = <-ch
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	endTree(t, r.tr)
	task := fmt.Sprintf("/proc/self/task/%d", r.tid)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(task); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the starting goroutine's thread did not end: the test proves nothing")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The signal, had it been sent, is delivered at once; the root is
	// reaped by the tree, so Done would close.
	select {
	case <-r.tr.Done():
		t.Fatalf("the root ended when the thread that called Start ended: %v", r.tr.Err())
	case <-time.After(200 * time.Millisecond):
	}
}

// TestSubreaper: in a process that is a subreaper, the processes a tree
// kills after they were handed to it are reaped, not left as zombies, and
// KillAdopted ends the orphan no tree could claim.
func TestSubreaper(t *testing.T) {
	out, err := helperCmd("subreaper").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// runPlatformHelper plays the Linux helpers:
//
//	subreaper  see TestSubreaper; exit status 0 when all went well
func runPlatformHelper(mode string) int {
	if mode != "subreaper" {
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
		return 1
	}
	if err := BecomeSubreaper(); err != nil {
		return fail("BecomeSubreaper: %v", err)
	}
	dir, err := os.MkdirTemp("", "subreaper")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(dir)
	pidfile := filepath.Join(dir, "pids")
	// The last one cleared its environment and its parent exited: nothing
	// ties it to the tree.
	cmd := exec.Command("sh", "-c", escapes+`(env -i setsid sleep 1000 & echo $! >> "$PIDFILE")`)
	cmd.Env = append(os.Environ(), "PIDFILE="+pidfile)
	tr, err := Start(cmd)
	if err != nil {
		return fail("Start: %v", err)
	}
	<-tr.Done()
	pids, err := readPids(pidfile)
	if err != nil || len(pids) != 4 {
		return fail("pids %v: %v", pids, err)
	}
	for _, pid := range pids {
		if err := waitSleeping(pid); err != nil {
			return fail("%v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !tr.End(ctx) {
		return fail("End: the tree did not go")
	}
	self := os.Getpid()
	var orphan []int
	for _, p := range listProcs(0) {
		if p.ppid != self {
			continue
		}
		if p.zombie {
			return fail("pid %d, killed by the tree, was left a zombie", p.pid)
		}
		orphan = append(orphan, p.pid)
	}
	if len(orphan) != 1 {
		return fail("want the one unclaimed orphan adopted, have %v", orphan)
	}
	if !KillAdopted(ctx) {
		return fail("KillAdopted: pid %d still there", orphan[0])
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(orphan[0])); err == nil {
		return fail("pid %d is still there after KillAdopted", orphan[0])
	}
	return 0
}

// waitSleeping waits until pid runs sleep, so that whatever setsid or env
// had to do before is done.
func waitSleeping(pid int) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if err != nil {
			return fmt.Errorf("pid %d is gone before End", pid)
		}
		if string(comm) == "sleep\n" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pid %d runs %q, not sleep", pid, comm)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestParseStat(t *testing.T) {
	// A command name may hold spaces and parentheses.
	p, ok := parseStat(42, "42 (a) b) (c) S 7 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 200")
	if !ok || p.ppid != 7 || p.pgid != 42 || p.start != 98765 || p.zombie {
		t.Errorf("parseStat = %+v, %v", p, ok)
	}
	if p, ok := parseStat(3, "3 (z) Z 1 3 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0"); !ok || !p.zombie {
		t.Errorf("a zombie: %+v, %v", p, ok)
	}
	if _, ok := parseStat(1, "1 (cut"); ok {
		t.Error("a cut line parsed")
	}
}

// TestMembers: the group, the marked processes and their descendants,
// never this process, and no group once its id may have been reused.
func TestMembers(t *testing.T) {
	procs := []procInfo{
		{pid: 10, ppid: 1, pgid: 10},               // the root
		{pid: 11, ppid: 10, pgid: 10},              // in the group
		{pid: 12, ppid: 1, pgid: 12},               // setsid'd, marked
		{pid: 13, ppid: 12, pgid: 12},              // its child, environment cleared
		{pid: 14, ppid: 1, pgid: 14},               // a stranger
		{pid: 15, ppid: 1, pgid: 15, zombie: true}, // exited
		{pid: 99, ppid: 10, pgid: 10},              // this process (pretend)
	}
	tagged := func(pid int) bool { return pid == 12 || pid == 15 }
	got := pidSet(members(procs, 10, 99, tagged))
	if want := "10 11 12 13"; got != want {
		t.Errorf("members = %s, want %s", got, want)
	}
	if got, want := pidSet(members(procs, 0, 99, tagged)), "12 13"; got != want {
		t.Errorf("members without the group = %s, want %s", got, want)
	}
}

func pidSet(ps []procInfo) string {
	seen := map[int]bool{}
	for _, p := range ps {
		seen[p.pid] = true
	}
	s := ""
	for pid := range 100 {
		if seen[pid] {
			if s != "" {
				s += " "
			}
			s += strconv.Itoa(pid)
		}
	}
	return s
}
