package pgtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"golang.org/x/sys/unix"
)

// Kill leaves no process of the server behind: none is attached to its
// shared memory when Kill returns, so that Restart always finds it free
// (the postmaster's children each run in a session of their own, so a
// kill of its process group alone leaves them running). Stop removes the
// segment.
func TestKillLeavesNoProcess(t *testing.T) {
	s := Start(t)
	ctx := testenv.Context(t)
	var seg segment
	for round := range 3 {
		// A client's backend, besides the server's own processes.
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		if err != nil {
			t.Fatal(err)
		}
		var ok bool
		if seg, ok = s.shmSegment(); !ok {
			t.Fatalf("round %d: no shared memory segment in postmaster.pid", round)
		}
		if pids := seg.attached(); len(pids) < 2 {
			t.Fatalf("round %d: processes attached to the segment before the kill = %v; want the postmaster, its children and the backend", round, pids)
		}
		s.Kill()
		if pids := seg.attached(); len(pids) != 0 || !seg.free() {
			t.Fatalf("round %d: processes %v still attached to the segment after Kill", round, pids)
		}
		conn.Close(ctx)
		if err := s.Restart(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if seg, ok := s.shmSegment(); ok {
		s.Stop()
		var desc unix.SysvShmDesc
		if _, err := unix.SysvShmCtl(seg.id, unix.IPC_STAT, &desc); err == nil {
			t.Errorf("segment %d still exists after Stop (%d attached)", seg.id, desc.Nattch)
		}
	}
}
