package learn

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/internal/safefile"
)

const goodLines = `{"tool":"a","query":"first","weight":1,"at":"2026-11-23T12:00:00Z","sessions":2}
{"tool":"b","query":"second","weight":1,"at":"2026-11-23T12:00:00Z","sessions":2}
`

// One bad line costs that line: junk, a torn tail, a line over 1 MiB, a
// record refused by CheckRecord are skipped and counted; the good lines
// load.
func TestImportSkipsBadLines(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		skipped int
		problem string
	}{
		{"junk appended", goodLines + "junk\n", 1, "line 3: invalid character"},
		{"junk in the middle", "junk\n" + goodLines, 1, "line 1: invalid character"},
		{"torn tail", goodLines + `{"tool":"c","query":"th`, 1, "line 3: unexpected end"},
		{"a line over 1 MiB", goodLines + strings.Repeat("x", 3<<20) + "\n", 1, "line 3: longer than"},
		{"zeros with no newline", goodLines + strings.Repeat("\x00", 2<<20), 1, "line 3: longer than"},
		{"a date in the future", goodLines + `{"tool":"c","query":"q","weight":1,"at":"9999-01-01T00:00:00Z"}` + "\n", 1, "line 3: invalid learned record: learned at 9999"},
		{"no time", goodLines + `{"tool":"c","query":"q","weight":1}` + "\n", 1, "line 3: invalid learned record: want the time"},
		{"negative sessions", goodLines + `{"tool":"c","query":"q","weight":1,"at":"2026-11-23T12:00:00Z","sessions":-1}` + "\n", 1, "line 3: invalid learned record: sessions"},
		{"negative scope_sessions", goodLines + `{"tool":"c","query":"q","weight":1,"at":"2026-11-23T12:00:00Z","scope_sessions":-3}` + "\n", 1, "line 3: invalid learned record: sessions 0 or scope_sessions -3"},
		{"scope_sessions not an integer", goodLines + `{"tool":"c","query":"q","weight":1,"at":"2026-11-23T12:00:00Z","scope_sessions":1e30}` + "\n", 1, "line 3: json: cannot unmarshal number 1e30"},
		{"blank lines are not bad", "\n" + goodLines + "\n  \n", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(Config{Now: newClock().now})
			st, err := s.Import(strings.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if st.Records != 2 || st.Skipped != tt.skipped || !strings.HasPrefix(st.FirstProblem, tt.problem) {
				t.Errorf("Import = %+v; want 2 records, %d skipped, a problem starting %q", st, tt.skipped, tt.problem)
			}
			if got := s.View().Tools(""); !cmp.Equal(got, []string{"a", "b"}) {
				t.Errorf("tools learned = %v, want [a b]", got)
			}
		})
	}
}

// CheckRecord bounds a record's claims to what live reports produce.
func TestCheckRecord(t *testing.T) {
	now := newClock().now()
	at := now.Add(-time.Hour)
	tests := []struct {
		name    string
		in      Record
		want    Record
		clamped bool
		wantErr bool
	}{
		{"valid, one session", Record{Tool: "t", Query: "q", Weight: 0.5, At: at}, Record{Tool: "t", Query: "q", Weight: 0.5, At: at, Sessions: 1}, false, false},
		{"weight over its one session", Record{Tool: "t", Query: "q", Weight: 3, At: at}, Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 1}, true, false},
		{"weight 1e308", Record{Tool: "t", Query: "q", Weight: 1e308, At: at, Sessions: 5}, Record{Tool: "t", Query: "q", Weight: 5, At: at, Sessions: 5}, true, false},
		{"sessions capped", Record{Tool: "t", Query: "q", Weight: 1e308, At: at, Sessions: 1 << 40}, Record{Tool: "t", Query: "q", Weight: MaxRecordSessions, At: at, Sessions: MaxRecordSessions}, true, false},
		{"scope sessions raised to sessions", Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 4, ScopeSessions: 2}, Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 4, ScopeSessions: 4}, false, false},
		{"scope sessions capped", Record{Tool: "t", Query: "q", Weight: 1, At: at, ScopeSessions: 1 << 40}, Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 1, ScopeSessions: MaxRecordSessions}, false, false},
		{"scope sessions absent", Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 4}, Record{Tool: "t", Query: "q", Weight: 1, At: at, Sessions: 4}, false, false},
		{"negative scope sessions", Record{Tool: "t", Query: "q", Weight: 1, At: at, ScopeSessions: -1}, Record{}, false, true},
		{"a miss is one of the tool's miss queries", Record{Tool: "t", Query: "q", Weight: 0.5, At: at, Miss: true}, Record{Tool: "t", Query: "q", Weight: 0.5, At: at, Sessions: 1, Miss: true, MissQueries: 1}, false, false},
		{"miss queries capped", Record{Tool: "t", Query: "q", Weight: 0.5, At: at, MissQueries: 1 << 40}, Record{Tool: "t", Query: "q", Weight: 0.5, At: at, Sessions: 1, MissQueries: MaxRecordSessions}, false, false},
		{"negative miss queries", Record{Tool: "t", Query: "q", Weight: 1, At: at, MissQueries: -1}, Record{}, false, true},
		{"within the clock skew", Record{Tool: "t", Query: "q", Weight: 1, At: now.Add(time.Minute)}, Record{Tool: "t", Query: "q", Weight: 1, At: now.Add(time.Minute), Sessions: 1}, false, false},
		{"in the future", Record{Tool: "t", Query: "q", Weight: 1, At: now.Add(time.Hour)}, Record{}, false, true},
		{"no tool", Record{Query: "q", Weight: 1, At: at}, Record{}, false, true},
		{"blank query", Record{Tool: "t", Query: " ", Weight: 1, At: at}, Record{}, false, true},
		{"zero weight", Record{Tool: "t", Query: "q", At: at}, Record{}, false, true},
		{"no time", Record{Tool: "t", Query: "q", Weight: 1}, Record{}, false, true},
		{"query too long", Record{Tool: "t", Query: strings.Repeat("q", 20000), Weight: 1, At: at}, Record{}, false, true},
		{"invalid UTF-8", Record{Tool: "t\xff", Query: "q", Weight: 1, At: at}, Record{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, clamped, err := CheckRecord(tt.in, now)
			if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, ErrInvalidRecord)) {
				t.Fatalf("CheckRecord error = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || clamped != tt.clamped {
				t.Errorf("CheckRecord (-want +got):\n%s clamped %v, want %v", diff, clamped, tt.clamped)
			}
		})
	}
}

// The two-session rule holds for imports: state imported with the claim of
// one session lifts nothing (Evidence 0) until a live session confirms it;
// two claimed sessions lift; a live store's Evidence is its Weight.
func TestImportedEvidence(t *testing.T) {
	line := func(tool string, w float64, sessions int) string {
		r := Record{Tool: tool, Query: "weather forecast for tomorrow", Weight: w, At: newClock().now(), Sessions: sessions}
		b, _ := json.Marshal(r)
		return string(b) + "\n"
	}
	s := NewStore(Config{Now: newClock().now})
	if _, err := s.Import(strings.NewReader(line("crafted", 3, 0) + line("claimed", 3, 3) + line("one", 1, 1))); err != nil {
		t.Fatal(err)
	}
	s.Record(Use{Tool: "one", Query: "another query", Session: "live", Weight: 1})
	s.Record(Use{Tool: "live", Query: "q", Session: "x", Weight: 1})
	v := s.View()
	got := map[string][3]float64{}
	for _, tool := range v.Tools("") {
		tv := v.Tool("", tool)
		got[tool] = [3]float64{tv.Weight, float64(tv.Sessions), tv.Evidence}
	}
	want := map[string][3]float64{
		"crafted": {1, 1, 0}, // weight 3 clamped to its one session, which lifts nothing
		"claimed": {3, 3, 3},
		"one":     {2, 2, 2}, // one imported session and one live
		"live":    {1, 1, 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool → (weight, sessions, evidence) (-want +got):\n%s", diff)
	}
}

// Load keeps a damaged file before a save replaces it, falls back to the
// previous save's backup when the file held nothing good, and refuses a
// FIFO and a symbolic link out of the directory by name.
func TestLoadDamagedAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	s := NewStore(Config{Now: newClock().now})
	s.Record(Use{Tool: "a", Query: "first", Session: "x", Weight: 1})
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	s.Record(Use{Tool: "b", Query: "second", Session: "x", Weight: 1})
	if err := s.Save(path); err != nil { // the first save becomes the backup
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)

	t.Run("junk appended", func(t *testing.T) {
		if err := os.WriteFile(path, append(bytes.Clone(saved), "junk\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		r := NewStore(Config{Now: newClock().now})
		st, err := r.Load(path)
		if err != nil || st.Records != 2 || st.Skipped != 1 || st.Damaged != path+DamagedSuffix || st.Backup {
			t.Fatalf("Load = %+v, %v; want 2 records, 1 skipped, the file kept as damaged", st, err)
		}
		if err := r.Save(path); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path + DamagedSuffix); !bytes.HasSuffix(b, []byte("junk\n")) {
			t.Errorf("the damaged copy lost the damage: %q", b)
		}
	})
	t.Run("all junk: the backup loads", func(t *testing.T) {
		if err := os.WriteFile(path, []byte("junk\nmore junk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := NewStore(Config{Now: newClock().now})
		st, err := r.Load(path)
		if err != nil || !st.Backup || st.Records == 0 || r.View().Len() == 0 {
			t.Fatalf("Load = %+v, %v; want the backup loaded", st, err)
		}
	})
	t.Run("a FIFO is refused by name", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), FileName)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		_, err := NewStore(Config{}).Load(fifo)
		if !errors.Is(err, safefile.ErrNotRegular) || !strings.Contains(err.Error(), fifo) {
			t.Errorf("Load(FIFO) = %v; want ErrNotRegular naming it", err)
		}
	})
	t.Run("a symbolic link out of the directory is refused", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "elsewhere.jsonl")
		if err := os.WriteFile(other, saved, 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(t.TempDir(), FileName)
		if err := os.Symlink(other, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		_, err := NewStore(Config{}).Load(link)
		if !errors.Is(err, safefile.ErrOutside) {
			t.Errorf("Load(link out) = %v; want ErrOutside", err)
		}
	})
}
