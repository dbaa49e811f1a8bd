package learn

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
