package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// A tool used in every session whatever it searched (an always-loaded file
// reader), through the engine's live path: each session's use of it is a
// miss of the session's search. It learns at most
// learn.DefaultMaxMissQueriesPerTool queries that way, and the sessions
// past that bound still count among its sessions and its scope's: its
// share is every session, so learning pins it, and search damps its
// learned weight as a tool every session uses (learnCommonShare). Before,
// a miss past the bound was dropped before its session was counted: the
// tool had 8 of 20 sessions, under the pin share, and was damped as one
// used in 40 % of sessions.
func TestLearnAlwaysUsedToolCountsEverySession(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Learn: search.LearnConfig{
		Store: learn.NewStore(learn.Config{}), Sync: true, Pin: true, ReportRate: 1000, ReportBurst: 1000}})
	const reader = "filesystem__read_file"
	requests := []string{"weather forecast for the weekend", "send a message to the team channel", "create a calendar event",
		"open a jira ticket", "list the tables in the database"}
	const n = 20
	var misses, counted int
	for i := range n {
		session := fmt.Sprintf("s%d", i)
		q := fmt.Sprintf("%s %d", requests[i%len(requests)], i)
		res := search1(t, e, search.Request{Query: q, SessionID: session, MaxResults: 3})
		if len(res.References) == 0 || slices.ContainsFunc(res.References, func(r search.Reference) bool { return r.Name == reader }) {
			t.Fatalf("search %q returned %v; the test needs a result, and a miss of %s", q, res.References, reader)
		}
		for _, tool := range []string{res.References[0].Name, reader} {
			rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: session, Tool: tool, Outcome: search.OutcomeSuccess})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tool != reader:
			case rep.Recorded && rep.Miss:
				misses++
			case !rep.Recorded && rep.Reason == search.ReasonMissBound:
				counted++
			default:
				t.Fatalf("report of %s in session %s = %+v", reader, session, rep)
			}
		}
	}
	if misses != learn.DefaultMaxMissQueriesPerTool || counted != n-misses {
		t.Errorf("%s learned %d queries by misses and was past the bound %d times, want %d and %d",
			reader, misses, counted, learn.DefaultMaxMissQueriesPerTool, n-learn.DefaultMaxMissQueriesPerTool)
	}
	v := e.LearnedView()
	if tv := v.Tool("", reader); tv == nil || tv.Sessions != n || v.ScopeSessions("") != n {
		t.Errorf("%s: %+v of %d scope sessions; want %d of %d", reader, tv, v.ScopeSessions(""), n, n)
	}
	if got := e.LearnedPinned(""); !slices.Contains(got, reader) {
		t.Errorf("pinned %v, want %s among them (used in every session)", got, reader)
	}
}

// Over the fleet's replay (LearnFromFleet), a miss past the tool's bound
// counts its session as on the pod that learned it: a pod that only read
// the others' uses holds the sessions one pod that saw every use holds.
func TestLearnFromFleetCountsMissesPastTheBound(t *testing.T) {
	ctx := context.Background()
	one := learn.NewStore(learn.Config{})
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Learn: search.LearnConfig{
		Store: learn.NewStore(learn.Config{}), Sync: true, ReportRate: 1000, ReportBurst: 1000}})
	const n = 3 * learn.DefaultMaxMissQueriesPerTool
	var evs []search.FleetEvent
	for i := range n {
		u := learn.Use{Scope: "sc", Tool: "filesystem__read_file", Query: fmt.Sprintf("request %d", i), Session: fmt.Sprintf("s%d", i),
			Weight: learn.MissCreditWeight, Miss: true}
		if one.Record(u) == learn.Ignored {
			t.Fatalf("use %d changed nothing on the one pod that saw every use", i)
		}
		evs = append(evs, search.FleetEvent{Session: u.Session, Scope: u.Scope, Tool: u.Tool, Query: u.Query, Weight: u.Weight, Miss: true, At: time.Now()})
	}
	st, err := e.LearnFromFleet(ctx, evs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(search.FleetStats{Recorded: learn.DefaultMaxMissQueriesPerTool, Counted: n - learn.DefaultMaxMissQueriesPerTool}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	want, got := one.View(), e.LearnedView()
	if w, g := want.Tool("sc", "filesystem__read_file"), got.Tool("sc", "filesystem__read_file"); g == nil || g.Sessions != w.Sessions ||
		got.ScopeSessions("sc") != want.ScopeSessions("sc") || w.Sessions != n {
		t.Errorf("replayed: %+v of %d scope sessions; one pod: %+v of %d; want %d sessions", g, got.ScopeSessions("sc"), w, want.ScopeSessions("sc"), n)
	}
}
