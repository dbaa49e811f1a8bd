package learn

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newClock() *clock { return &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)} }

func queries(v *View, tool string) map[string]float64 {
	out := map[string]float64{}
	if tv := v.Tool("", tool); tv != nil {
		for _, q := range tv.Queries {
			out[q.Text] = q.Weight
		}
	}
	return out
}

func TestRecordSessionIsOneVote(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	for i := range 10000 {
		s.Record(Use{Tool: "x", Query: fmt.Sprintf("junk %d", i%10), Session: "poisoner", Weight: 1})
	}
	tv := s.View().Tool("", "x")
	if tv.Weight > 1 || len(tv.Queries) > DefaultMaxQueriesPerSession {
		t.Errorf("one session taught weight %.2f over %d queries; want at most 1 over %d", tv.Weight, len(tv.Queries), DefaultMaxQueriesPerSession)
	}
	s.Record(Use{Tool: "x", Query: "junk 0", Session: "other", Weight: 1})
	if w := s.View().Tool("", "x").Weight; w <= tv.Weight {
		t.Errorf("a second session added nothing (weight %.2f → %.2f)", tv.Weight, w)
	}
}

func TestRecordBoundsQueriesPerTool(t *testing.T) {
	s := NewStore(Config{MaxQueriesPerTool: 3, Now: newClock().now})
	for i := range 5 {
		for j := range i + 1 { // query i used by i+1 sessions
			s.Record(Use{Tool: "x", Query: fmt.Sprintf("q%d", i), Session: fmt.Sprintf("s%d-%d", i, j), Weight: 1})
		}
	}
	want := map[string]float64{"q2": 3, "q3": 4, "q4": 5}
	if diff := cmp.Diff(want, queries(s.View(), "x")); diff != "" {
		t.Errorf("kept queries (-want +got):\n%s", diff)
	}
}

func TestDecay(t *testing.T) {
	c := newClock()
	s := NewStore(Config{HalfLife: time.Hour, Now: c.now})
	s.Record(Use{Tool: "x", Query: "q", Session: "a", Weight: 1})
	c.t = c.t.Add(time.Hour)
	if diff := cmp.Diff(map[string]float64{"q": 0.5}, queries(s.View(), "x")); diff != "" {
		t.Errorf("after one half-life (-want +got):\n%s", diff)
	}
	c.t = c.t.Add(6 * time.Hour) // 1/128 < forgetWeight
	if s.View().Len() != 0 {
		t.Errorf("a use faded below %v is still learned", forgetWeight)
	}
}

func TestResetAndRetain(t *testing.T) {
	s := NewStore(Config{})
	for _, tool := range []string{"a", "b", "c"} {
		s.Record(Use{Tool: tool, Query: "q", Session: "s", Weight: 1})
	}
	if !s.Reset("a") || s.Reset("a") {
		t.Error("Reset(a) twice: want true then false")
	}
	if n := s.Retain(func(t string) bool { return t != "b" }); n != 1 {
		t.Errorf("Retain dropped %d tools, want 1", n)
	}
	if got := s.View().Tools(""); !cmp.Equal(got, []string{"c"}) {
		t.Errorf("tools = %v, want [c]", got)
	}
	if n := s.ResetAll(); n != 1 || s.View().Len() != 0 {
		t.Errorf("ResetAll = %d, then %d tools", n, s.View().Len())
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	c := newClock()
	s := NewStore(Config{Now: c.now})
	s.Record(Use{Tool: "github__create_issue", Query: "Open a  BUG report", Session: "a", Weight: 1})
	s.Record(Use{Tool: "github__create_issue", Query: "file an issue", Session: "b", Weight: 0.5})
	s.Record(Use{Tool: "slack__send_message", Query: "ping the team", Session: "a", Weight: 1})
	var first bytes.Buffer
	if err := s.Export(&first); err != nil {
		t.Fatal(err)
	}
	r := NewStore(Config{Now: c.now})
	for range 2 { // importing twice is idempotent
		if st, err := r.Import(bytes.NewReader(first.Bytes())); err != nil || st.Records != 3 || st.Skipped != 0 {
			t.Fatalf("Import = %+v, %v; want 3 records", st, err)
		}
	}
	var second bytes.Buffer
	if err := r.Export(&second); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first.String(), second.String()); diff != "" {
		t.Errorf("export after import (-want +got):\n%s", diff)
	}
}

func TestAttribute(t *testing.T) {
	searches := []Search{ // newest first
		{Query: "latest", Tools: []string{"a", "b"}, Used: []string{"b"}},
		{Query: "none", Tools: []string{"c"}},
		{Query: "older", Tools: []string{"a"}},
		{Query: "oldest", Tools: []string{"a"}},
		{Query: "too old", Tools: []string{"a"}},
	}
	want := []Credit{{Query: "latest", Weight: 1 / math.Sqrt(2), Search: 0}, {Query: "older", Weight: 0.5, Search: 2}, {Query: "oldest", Weight: 0.25, Search: 3}}
	if diff := cmp.Diff(want, Attribute(searches, "a")); diff != "" {
		t.Errorf("Attribute (-want +got):\n%s", diff)
	}
	// A miss: no search returned z; the newest search with a query is
	// credited, shared with the tool it already taught.
	if diff := cmp.Diff([]Credit{{Query: "latest", Weight: MissCreditWeight / math.Sqrt(2), Search: 0, Miss: true}}, Attribute(searches, "z")); diff != "" {
		t.Errorf("Attribute of a tool no search returned (-want +got):\n%s", diff)
	}
	// A tool the session already used (credited to some search) is not
	// a miss of the later ones.
	if got := Attribute(searches, "b")[0]; got.Miss || got.Query != "latest" {
		t.Errorf("Attribute of a returned tool = %+v, want a credit to the search that returned it", got)
	}
	used := []Search{{Query: "new"}, {Query: "old", Used: []string{"z"}}}
	if got := Attribute(used, "z"); got != nil {
		t.Errorf("Attribute of a tool already credited as a miss = %v, want none", got)
	}
	if got := Attribute([]Search{{Tools: []string{"a"}}}, "z"); got != nil {
		t.Errorf("Attribute with no search query = %v, want none", got)
	}
}

// Misses teach a tool at most MaxMissQueriesPerTool distinct queries; a
// miss past the bound counts its session without teaching its query, and
// a session already counted is not counted again.
func TestRecordMissBound(t *testing.T) {
	s := NewStore(Config{Now: newClock().now, MaxMissQueriesPerTool: 2})
	var got []Effect
	for i, q := range []string{"a", "b", "c", "a"} {
		got = append(got, s.Record(Use{Tool: "x", Query: q, Session: fmt.Sprint(i), Weight: 0.5, Miss: true}))
	}
	got = append(got, s.Record(Use{Tool: "x", Query: "d", Session: "2", Weight: 0.5, Miss: true}))
	if diff := cmp.Diff([]Effect{Learned, Learned, Counted, Learned, Ignored}, got); diff != "" {
		t.Errorf("effects of misses a, b, c, a, then d from c's session (-want +got):\n%s", diff)
	}
	if got := s.Record(Use{Tool: "x", Query: "c", Session: "9", Weight: 1}); got != Learned {
		t.Errorf("a use of a returned tool = %v, want Learned: the miss bound is for misses", got)
	}
	if diff := cmp.Diff(map[string]float64{"a": 1, "b": 0.5, "c": 1}, queries(s.View(), "x")); diff != "" {
		t.Errorf("learned queries (-want +got):\n%s", diff)
	}
}

// A tool past its bound on queries learned by misses is still used: every
// session that used it counts among its sessions and its scope's, and its
// version changes (a reader rebuilds).
func TestMissBoundCountsSessions(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	const n = 3 * DefaultMaxMissQueriesPerTool
	for i := range n {
		s.Record(Use{Scope: "sc", Tool: "reader", Query: fmt.Sprintf("request %d", i), Session: fmt.Sprint(i), Weight: 0.5, Miss: true})
	}
	v := s.View()
	tv := v.Tool("sc", "reader")
	if tv == nil || tv.Sessions != n || v.ScopeSessions("sc") != n || len(tv.Queries) != DefaultMaxMissQueriesPerTool {
		t.Fatalf("after %d sessions' misses under distinct queries: %+v, scope sessions %d; want %d sessions of %d, %d queries learned",
			n, tv, v.ScopeSessions("sc"), n, n, DefaultMaxMissQueriesPerTool)
	}
	before := s.Version()
	s.Record(Use{Scope: "sc", Tool: "reader", Query: "one more request", Session: "new", Weight: 0.5, Miss: true})
	if s.Version() == before {
		t.Error("a session counted past the miss bound left the version unchanged")
	}
}

func TestLimiter(t *testing.T) {
	c := newClock()
	l := NewLimiter(1, 2, c.now)
	got := []bool{l.Allow("a"), l.Allow("a"), l.Allow("a"), l.Allow("b")}
	if diff := cmp.Diff([]bool{true, true, false, true}, got); diff != "" {
		t.Errorf("Allow (-want +got):\n%s", diff)
	}
	c.t = c.t.Add(time.Second)
	if !l.Allow("a") || l.Allow("a") {
		t.Error("after one second at 1/s: want exactly one more report")
	}
}

// Charge takes a token for a report made elsewhere, at its own time, and
// never refuses: reports spread over time refill as they would have,
// reports at once empty the bucket and no further.
func TestLimiterCharge(t *testing.T) {
	c := newClock()
	l := NewLimiter(1, 2, c.now)
	for i := range 10 { // one report a second, ten seconds ago and after
		l.Charge("a", c.t.Add(time.Duration(i-10)*time.Second))
	}
	if got := []bool{l.Allow("a"), l.Allow("a"), l.Allow("a")}; !slices.Equal(got, []bool{true, true, false}) {
		t.Errorf("after reports a second apart: Allow = %v, want the burst (2) left here", got)
	}
	for range 5 { // five reports at once, elsewhere
		l.Charge("b", c.t)
	}
	if l.Allow("b") {
		t.Error("after five reports at once: want the bucket empty")
	}
	c.t = c.t.Add(time.Second)
	l.Charge("b", c.t.Add(time.Hour)) // a report from the future charges now
	if l.Allow("b") {
		t.Error("one second later, after one more report: want the bucket empty (it never goes below it)")
	}
	c.t = c.t.Add(time.Second)
	if !l.Allow("b") {
		t.Error("one more second: want one report")
	}
}

func TestScopesLearnApart(t *testing.T) {
	s := NewStore(Config{Now: newClock().now})
	s.Record(Use{Scope: "team-a", Tool: "x", Query: "q", Session: "s", Weight: 1})
	s.Record(Use{Scope: "team-b", Tool: "x", Query: "other", Session: "s", Weight: 1})
	v := s.View()
	if !cmp.Equal(v.Scopes(), []string{"team-a", "team-b"}) || v.Tool("", "x") != nil {
		t.Fatalf("scopes = %v, unscoped x = %v", v.Scopes(), v.Tool("", "x"))
	}
	if diff := cmp.Diff(map[string]float64{"q": 1}, map[string]float64{v.Tool("team-a", "x").Queries[0].Text: v.Tool("team-a", "x").Weight}); diff != "" {
		t.Errorf("team-a (-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		t.Fatal(err)
	}
	r := NewStore(Config{Now: newClock().now})
	if _, err := r.Import(&buf); err != nil {
		t.Fatal(err)
	}
	if got := len(r.View().Find("x")); got != 2 {
		t.Errorf("after export/import, x learned in %d scopes, want 2", got)
	}
	if !r.Reset("x") || r.View().Len() != 0 {
		t.Error("Reset(x) did not forget x in every scope")
	}
}
