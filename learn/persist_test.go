package learn

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", FileName)
	s := NewStore(Config{})
	if st, err := s.Load(path); err != nil || st.Records != 0 {
		t.Fatalf("Load of a missing file = %+v, %v; want nothing and no error", st, err)
	}
	s.Record(Use{Tool: "x", Query: "q", Session: "a", Weight: 1})
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	r := NewStore(Config{})
	if st, err := r.Load(path); err != nil || st.Records != 1 || r.View().Tool("", "x") == nil {
		t.Fatalf("Load = %+v, %v; want the saved record", st, err)
	}
}

// crashEnv makes the test binary a child that saves in a loop until it is
// killed.
const crashEnv = "TOOLSEARCH_LEARN_CRASH_CHILD"

// A process killed with SIGKILL while saving leaves a file that loads:
// the old state or the new one, never a torn one.
func TestSaveSurvivesKill(t *testing.T) {
	if path := os.Getenv(crashEnv); path != "" {
		s := NewStore(Config{})
		for i := 0; ; i++ {
			for j := range 50 {
				s.Record(Use{Tool: fmt.Sprintf("tool%d", j), Query: fmt.Sprintf("query %d %s", i, strings.Repeat("x", 200)), Session: fmt.Sprint(i), Weight: 1})
			}
			if err := s.Save(path); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			if i == 3 {
				fmt.Println("saving")
			}
		}
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), FileName)
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveSurvivesKill$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if strings.TrimSpace(line) != "saving" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q", line)
		}
		cmd.Process.Kill() // SIGKILL, mid-save or between saves
		cmd.Wait()
		r := NewStore(Config{})
		if st, err := r.Load(path); err != nil || st.Records == 0 || st.Skipped != 0 {
			t.Fatalf("round %d: Load after kill -9 = %+v, %v", round, st, err)
		}
	}
}

// The bound on queries a tool learns by misses survives a save and a load
// (Record.Miss, Record.MissQueries): a restarted store does not let the
// tool learn that many again. A repeated miss query is still no new one,
// and a claim of more miss queries than the file holds (some dropped past
// MaxQueriesPerTool) is kept. A file without the fields loads as before:
// no miss learned.
func TestMissBoundSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	cfg := Config{Now: newClock().now, MaxMissQueriesPerTool: 2}
	s := NewStore(cfg)
	s.Record(Use{Tool: "x", Query: "a", Session: "1", Weight: 0.5, Miss: true})
	s.Record(Use{Tool: "x", Query: "b", Session: "2", Weight: 0.5, Miss: true})
	s.Record(Use{Tool: "x", Query: "hit", Session: "3", Weight: 1})
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	r := NewStore(cfg)
	if st, err := r.Load(path); err != nil || st.Records != 3 {
		t.Fatalf("Load = %+v, %v", st, err)
	}
	got := []Effect{
		r.Record(Use{Tool: "x", Query: "c", Session: "4", Weight: 0.5, Miss: true}),
		r.Record(Use{Tool: "x", Query: "a", Session: "5", Weight: 0.5, Miss: true}),
	}
	if diff := cmp.Diff([]Effect{Counted, Learned}, got); diff != "" {
		t.Errorf("after the restart, misses c (new) and a (learned before) (-want +got):\n%s", diff)
	}
	if tv := r.View().Tool("", "x"); tv.Sessions != 5 {
		t.Errorf("sessions after the restart = %d, want 5", tv.Sessions)
	}

	claim := `{"tool":"x","query":"a","weight":0.5,"at":"2026-11-23T12:00:00Z","sessions":3,"miss":true,"miss_queries":2}` + "\n"
	c := NewStore(cfg)
	if _, err := c.Import(strings.NewReader(claim)); err != nil {
		t.Fatal(err)
	}
	if got := c.Record(Use{Tool: "x", Query: "c", Session: "4", Weight: 0.5, Miss: true}); got != Counted {
		t.Errorf("a new miss against a claim of 2 miss queries (one held) = %v, want counted", got)
	}
	old := NewStore(cfg)
	if _, err := old.Import(strings.NewReader(`{"tool":"x","query":"a","weight":0.5,"at":"2026-11-23T12:00:00Z","sessions":3}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if got := old.Record(Use{Tool: "x", Query: "c", Session: "4", Weight: 0.5, Miss: true}); got != Learned {
		t.Errorf("a miss against a file without miss fields = %v, want learned", got)
	}
}
