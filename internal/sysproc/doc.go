// Package sysproc owns what differs between operating systems in running
// child processes: it starts a command as the root of a process tree of its
// own, asks that tree to stop and ends it by force, ties it to mcphost's
// own life, and waits until it is gone. It also answers the few questions
// about signals and the process itself that the rest of mcphost needs.
//
// A Tree is, per system:
//
//   - Linux: a process group, plus every process that carries the tree's
//     tag in its environment (so a descendant that left the group with
//     setsid or a double fork is still found in /proc), plus the
//     descendants of both. The root is bound to mcphost's life with the
//     parent-death signal (SIGKILL). BecomeSubreaper makes mcphost the
//     reaper of orphans it leaves behind.
//   - macOS and the BSDs: a process group. There is no parent-death signal
//     and no subreaper: descendants that leave the group are not found,
//     and if mcphost is killed with SIGKILL its children only learn it
//     from their closed pipes.
//   - Windows: a Job Object the process is put into before it runs, which
//     every descendant joins and cannot leave. The job is closed with
//     JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so the whole tree ends when
//     mcphost does, however it ends. There is no polite stop: Terminate ends
//     the job as Kill does.
package sysproc
