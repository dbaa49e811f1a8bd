package learn

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pinned is the names View.Pinned returns.
func pinned(v *View, scope string, r PinRule) []string {
	var out []string
	for _, tv := range v.Pinned(scope, r) {
		out = append(out, tv.Tool)
	}
	return out
}

// One session never pins a tool, however many uses, queries and tools it
// reports, and whatever the rule asks for (MinSessions 1 counts as 2).
func TestPinOneSessionNeverPins(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	for i := range 1000 {
		s.Record(Use{Scope: "sc", Tool: "x", Query: fmt.Sprintf("q %d", i%7), Session: "poisoner", Weight: 1})
		s.Record(Use{Scope: "sc", Tool: fmt.Sprintf("t%d", i%20), Query: "q", Session: "poisoner", Weight: 1})
	}
	v := s.View()
	for _, r := range []PinRule{{}, {MinSessions: 1, Share: 0.01}} {
		if got := pinned(v, "sc", r); len(got) > 0 {
			t.Errorf("rule %+v: one session pinned %v", r, got)
		}
	}
	if n := v.ScopeSessions("sc"); n != 1 {
		t.Errorf("ScopeSessions = %d, want 1", n)
	}
}

// A tool used by most of a scope's sessions is pinned once enough distinct
// sessions used it; a tool whose share of the sessions is the rule's but
// not shown with confidence (5 of 10), or below the session count, is not;
// another scope pins nothing of it.
func TestPinAfterEnoughSessions(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	use := func(scope, tool string, sessions ...int) {
		for _, i := range sessions {
			s.Record(Use{Scope: scope, Tool: tool, Query: "find the " + tool, Session: fmt.Sprintf("s%d", i), Weight: 1})
		}
	}
	use("sc", "always", 0, 1, 2, 3)
	if got := pinned(s.View(), "sc", PinRule{}); len(got) > 0 {
		t.Fatalf("4 sessions pinned %v; the default needs %d", got, DefaultPinMinSessions)
	}
	use("sc", "always", 4)
	if diff := cmp.Diff([]string{"always"}, pinned(s.View(), "sc", PinRule{})); diff != "" {
		t.Fatalf("5 of 5 sessions (-want +got):\n%s", diff)
	}
	// Five more sessions: "always" has 9 of 10 (bound 0.72), "half" 5 of
	// 10 (the share, but bound 0.31), "some" 4 of 10.
	use("sc", "always", 5, 6, 7, 8)
	use("sc", "half", 5, 6, 7, 8, 9)
	use("sc", "some", 0, 1, 2, 3)
	use("elsewhere", "always", 10)
	v := s.View()
	if n := v.ScopeSessions("sc"); n != 10 {
		t.Errorf("ScopeSessions = %d, want 10", n)
	}
	if diff := cmp.Diff([]string{"always"}, pinned(v, "sc", PinRule{MinSessions: 2})); diff != "" {
		t.Errorf("share 0.5 of 10 (-want +got):\n%s", diff)
	}
	// Without the bound (a negative Z) the share is inclusive: 5 of 10 is
	// half.
	if diff := cmp.Diff([]string{"always", "half"}, pinned(v, "sc", PinRule{MinSessions: 2, Z: -1})); diff != "" {
		t.Errorf("observed share 0.5 of 10 (-want +got):\n%s", diff)
	}
	// 9 of 10 is 0.9 observed, not 0.75 with confidence.
	if got := pinned(v, "sc", PinRule{Share: 0.75}); len(got) > 0 {
		t.Errorf("share 0.75 pinned %v", got)
	}
	if got := pinned(v, "elsewhere", PinRule{}); len(got) > 0 {
		t.Errorf("another scope pinned %v", got)
	}
}

// PinShareBound is the Wilson lower bound at PinConfidenceZ (values from an
// independent computation), and the default rule pins on either side of
// it: the cases the replays met at its edge (bfcl's 19 of 36, 6 of 8, 7 of
// 10), and those of a tool every session used.
func TestPinShareBound(t *testing.T) {
	for _, tc := range []struct {
		k, n  int
		bound float64
		pins  bool // under the default rule
	}{
		{0, 0, 0, false},
		{0, 10, 0, false},
		{1, 1, 0.3784, false},
		{2, 2, 0.5491, false}, // shown, but under DefaultPinMinSessions
		{3, 4, 0.4325, false},
		{5, 5, 0.7527, true},
		{5, 10, 0.3122, false},
		{6, 8, 0.5237, true},
		{7, 10, 0.4974, false},
		{7, 9, 0.5660, true},
		{19, 36, 0.4223, false},
		{30, 36, 0.7396, true},
		{20, 22, 0.7997, true},
		{20, 20, 0.9241, true},
		{100, 200, 0.4549, false},
		{110, 200, 0.5047, true},
	} {
		got := PinShareBound(tc.k, tc.n)
		if math.Abs(got-tc.bound) > 1e-4 {
			t.Errorf("PinShareBound(%d, %d) = %.4f, want %.4f", tc.k, tc.n, got, tc.bound)
		}
		if tc.n > 0 && got > float64(tc.k)/float64(tc.n) {
			t.Errorf("PinShareBound(%d, %d) = %.4f, above the observed share", tc.k, tc.n, got)
		}
		if p := (PinRule{}).Pins(tc.k, tc.n); p != tc.pins {
			t.Errorf("default rule pins %d of %d sessions = %v, want %v", tc.k, tc.n, p, tc.pins)
		}
	}
	// The least sessions, all using the tool, that show a share: z²·s/(1−s).
	for _, tc := range []struct {
		share float64
		least int
	}{{0.5, 2}, {0.75, 5}, {0.9, 15}} {
		r := PinRule{Share: tc.share, MinSessions: 2}
		if r.Pins(tc.least-1, tc.least-1) || !r.Pins(tc.least, tc.least) {
			t.Errorf("share %v: %d of %d pins %v, %d of %d pins %v; want from %d", tc.share, tc.least-1, tc.least-1, r.Pins(tc.least-1, tc.least-1),
				tc.least, tc.least, r.Pins(tc.least, tc.least), tc.least)
		}
	}
	if phi := 0.5 * (1 + math.Erf(PinConfidenceZ/math.Sqrt2)); math.Abs(phi-PinConfidenceLevel) > 1e-4 {
		t.Errorf("Φ(PinConfidenceZ) = %.5f, want PinConfidenceLevel %v", phi, PinConfidenceLevel)
	}
	// A share of 1 is never shown; the observed share reaches it.
	if (PinRule{Share: 1}).Pins(1000, 1000) {
		t.Error("share 1 pinned 1000 of 1000 sessions")
	}
	if !(PinRule{Share: 1, Z: -1}).Pins(5, 5) {
		t.Error("observed share 1 did not pin 5 of 5 sessions")
	}
}

// At most MaxPinnedPerScope tools are pinned: those with the most sessions,
// then by name.
func TestPinBounded(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	for tool := range 12 {
		for i := range 6 + tool%3 {
			s.Record(Use{Tool: fmt.Sprintf("t%02d", tool), Query: "q", Session: fmt.Sprintf("s%d", i), Weight: 1})
		}
	}
	want := []string{"t02", "t05", "t08", "t11", "t01", "t04", "t07", "t10"}
	if diff := cmp.Diff(want, pinned(s.View(), "", PinRule{})); diff != "" {
		t.Errorf("pinned (-want +got):\n%s", diff)
	}
	if got := pinned(s.View(), "", PinRule{Max: 3}); len(got) != 3 {
		t.Errorf("Max 3 pinned %v", got)
	}
}

// The scope's sessions survive an export and import (scope_sessions), so a
// restarted sidecar, or one that pulls the file, pins the same tools; a
// crafted record's claims pass CheckRecord, and a record claiming one
// session pins nothing.
func TestPinImported(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	for i := range 8 {
		s.Record(Use{Scope: "sc", Tool: "common", Query: "q", Session: fmt.Sprintf("s%d", i), Weight: 1})
		if i < 7 {
			s.Record(Use{Scope: "sc", Tool: "some", Query: "q", Session: fmt.Sprintf("s%d", i), Weight: 1})
		}
	}
	s.Record(Use{Scope: "sc", Tool: "rare", Query: "q", Session: "s9", Weight: 1})
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"scope_sessions":9`) {
		t.Errorf("export lacks scope_sessions 9:\n%s", buf.String())
	}
	in := NewStore(Config{Now: newClock().now})
	if _, err := in.Import(&buf); err != nil {
		t.Fatal(err)
	}
	want := pinned(s.View(), "sc", PinRule{})
	if diff := cmp.Diff([]string{"common", "some"}, want); diff != "" {
		t.Errorf("live pins (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, pinned(in.View(), "sc", PinRule{})); diff != "" {
		t.Errorf("imported pins (-want +got):\n%s", diff)
	}
	crafted := `{"scope":"sc","tool":"one","query":"q","weight":1,"at":"2026-11-23T12:00:00Z","sessions":1,"scope_sessions":1}` + "\n"
	c := NewStore(Config{Now: newClock().now})
	if _, err := c.Import(strings.NewReader(crafted)); err != nil {
		t.Fatal(err)
	}
	if got := pinned(c.View(), "sc", PinRule{MinSessions: 1}); len(got) > 0 {
		t.Errorf("a one-session record pinned %v", got)
	}
}

// State saved before scope_sessions existed (records without it) loads,
// and counts a scope's sessions as its most-used tool's: a lower bound, so
// such a file may pin a tool that live counting would not, never one whose
// own sessions are under the rule's minimum.
func TestPinRecordsWithoutScopeSessions(t *testing.T) {
	var old strings.Builder
	for _, r := range []struct {
		tool     string
		sessions int
	}{{"common", 8}, {"some", 4}, {"rare", 1}} {
		fmt.Fprintf(&old, `{"scope":"sc","tool":%q,"query":"q","weight":1,"at":"2026-11-23T12:00:00Z","sessions":%d}`+"\n", r.tool, r.sessions)
	}
	s := NewStore(Config{Now: newClock().now})
	st, err := s.Import(strings.NewReader(old.String()))
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 3 || st.Skipped != 0 {
		t.Fatalf("Import = %+v, want 3 records, none skipped", st)
	}
	v := s.View()
	if n := v.ScopeSessions("sc"); n != 8 {
		t.Errorf("ScopeSessions = %d, want 8 (the most-used tool's)", n)
	}
	if diff := cmp.Diff([]string{"common"}, pinned(v, "sc", PinRule{})); diff != "" {
		t.Errorf("pins (-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "scope_sessions") {
		t.Errorf("re-export claims scope_sessions it never counted:\n%s", buf.String())
	}
}

// A tool used in every session, credited mostly as misses under distinct
// queries (an always-loaded file reader), is pinned: its sessions past the
// bound on queries learned by misses still count, so its share of the
// scope's sessions is 1, not 8 of n.
func TestPinAlwaysUsedToolPastMissBound(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	const n = 20
	for i := range n {
		session := fmt.Sprintf("s%d", i)
		s.Record(Use{Scope: "sc", Tool: fmt.Sprintf("task%d", i%5), Query: fmt.Sprintf("request %d", i), Session: session, Weight: 1})
		s.Record(Use{Scope: "sc", Tool: "reader", Query: fmt.Sprintf("request %d", i), Session: session, Weight: MissCreditWeight, Miss: true})
	}
	v := s.View()
	if tv := v.Tool("sc", "reader"); tv.Sessions != n || v.ScopeSessions("sc") != n {
		t.Errorf("reader used in %d of %d sessions, want %d of %d", tv.Sessions, v.ScopeSessions("sc"), n, n)
	}
	if diff := cmp.Diff([]string{"reader"}, pinned(v, "sc", PinRule{})); diff != "" {
		t.Errorf("pinned (-want +got):\n%s", diff)
	}
}
