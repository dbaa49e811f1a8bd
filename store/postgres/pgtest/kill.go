package pgtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A killed server is gone only when no process is attached to its System
// V shared memory segment any more: that is what a new postmaster checks
// (the key and ID in postmaster.pid, then the segment's attach count) before
// it starts on the same data directory, refusing with "pre-existing shared
// memory block ... is still in use" otherwise.
//
// Killing the postmaster's process group is not enough: every child of the
// postmaster (checkpointer, background writer, backends...) calls setsid()
// at birth (InitPostmasterChild), so each is the only member of its own
// process group and session. Only the postmaster forks them, so once it is
// dead the set of the server's processes is fixed: they are the processes
// that map the segment, found in /proc/<pid>/maps as /SYSV<key in hex>.

// killPollEvery is how often a kill checks whether the old server's
// processes have all detached from its shared memory (a poll, not a
// verdict: the wait ends when they have).
const killPollEvery = 5 * time.Millisecond

// segment is a server's System V shared memory segment, as its
// postmaster.pid records it.
type segment struct{ key, id int }

// shmSegment reads the segment's key and ID from line 7 of the data
// directory's postmaster.pid ("  10018851    360555"); ok is false when
// the postmaster never created one (then it never forked either).
func (s *Server) shmSegment() (seg segment, ok bool) {
	b, err := os.ReadFile(filepath.Join(s.dir, "data", "postmaster.pid"))
	if err != nil {
		return segment{}, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 7 {
		return segment{}, false
	}
	f := strings.Fields(lines[6])
	if len(f) != 2 {
		return segment{}, false
	}
	key, err1 := strconv.Atoi(f[0])
	id, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return segment{}, false
	}
	return segment{key, id}, true
}

// attached returns the processes that map seg, from /proc/*/maps: a
// line whose inode is the segment's ID and whose name is /SYSV<key>.
func (seg segment) attached() []int {
	procs, _ := filepath.Glob("/proc/[0-9]*/maps")
	name := fmt.Sprintf("/SYSV%08x", seg.key)
	id := strconv.Itoa(seg.id)
	var pids []int
	for _, maps := range procs {
		b, err := os.ReadFile(maps)
		if err != nil {
			continue // exited meanwhile
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 6 && f[4] == id && f[5] == name {
				pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(maps)))
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// free reports whether no process is attached to seg any more (or it
// no longer exists).
func (seg segment) free() bool {
	var desc unix.SysvShmDesc
	if _, err := unix.SysvShmCtl(seg.id, unix.IPC_STAT, &desc); err != nil {
		return true // removed (EINVAL/EIDRM): nothing can be attached
	}
	return desc.Nattch == 0
}

// remove destroys seg, which a SIGKILLed server leaves behind.
func (seg segment) remove() {
	_, _ = unix.SysvShmCtl(seg.id, unix.IPC_RMID, nil)
}

// reap SIGKILLs every process still attached to seg and waits until none
// is, polling, for at most the hang guard of ctx.
func (seg segment) reap(ctx context.Context) error {
	for {
		for _, pid := range seg.attached() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if seg.free() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgtest: processes %v still attached to the killed server's shared memory (key %d, ID %d): %w", seg.attached(), seg.key, seg.id, ctx.Err())
		case <-time.After(killPollEvery):
		}
	}
}
