package sysproc

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// useTag: a Job Object holds the whole tree; no mark is needed.
const useTag = false

// sysTree is the tree's Job Object. Once the handle is closed its value
// may be reused for another object, so no call uses it after release.
type sysTree struct {
	mu     sync.Mutex
	job    windows.Handle
	closed bool
}

// withJob calls f with the job's handle, unless it has been released.
func (s *sysTree) withJob(f func(job windows.Handle) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.job == 0 {
		return nil
	}
	return f(s.job)
}

// prepare creates the Job Object and has the root created suspended, so
// that it is in the job before it can start anything: every process it
// starts then joins the job, and cannot leave it (the job does not allow
// breakaway). A new process group keeps the console's Ctrl-C away from it,
// as a process group does on Unix.
func (t *Tree) prepare() error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating a job object: %w", err)
	}
	// Closing the last handle to the job, which only mcphost holds, ends
	// every process in it: mcphost cannot leave the tree behind, however
	// it ends.
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("setting up the job object: %w", err)
	}
	t.sys.job = job
	if t.cmd.SysProcAttr == nil {
		t.cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	t.cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
	return nil
}

// afterStart puts the suspended root in the job, then lets it run.
func (t *Tree) afterStart() error {
	pid := uint32(t.Pid())
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("opening the new process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := t.sys.withJob(func(job windows.Handle) error { return windows.AssignProcessToJobObject(job, h) }); err != nil {
		return fmt.Errorf("putting the process in its job object: %w", err)
	}
	return resumeProcess(pid)
}

// resumeProcess resumes the threads of a process created suspended; Go's
// os/exec does not hand out the handle of its main thread.
func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing the new process's threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return fmt.Errorf("opening the new process's thread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming the new process: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("resuming the new process: no thread of process %d found", pid)
	}
	return nil
}

// release closes the job, which ends whatever is still in it.
func (t *Tree) release() {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	if !t.sys.closed && t.sys.job != 0 {
		windows.CloseHandle(t.sys.job)
	}
	t.sys.closed = true
}

// terminate: Windows has no polite request to a whole tree that console
// and GUI programs alike would honour, so it ends the job.
func (t *Tree) terminate() error { return t.kill() }

// kill ends every process in the job.
func (t *Tree) kill() error {
	err := t.sys.withJob(func(job windows.Handle) error { return windows.TerminateJobObject(job, 1) })
	if err != nil {
		return fmt.Errorf("ending the job object: %w", err)
	}
	return nil
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// alive reports whether the job still holds a running process.
func (t *Tree) alive() bool {
	var info jobAccounting
	err := t.sys.withJob(func(job windows.Handle) error {
		return windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	})
	return err == nil && info.ActiveProcesses > 0
}
