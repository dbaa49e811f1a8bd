package search_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// LearnFromFleet applies other pods' events under this pod's rules: the
// record check, one vote per session across pods, resets; the session's
// report rate refuses none of them (TestLearnFromFleetChargesTheReportRate).
func TestLearnFromFleet(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	use := func(session, tool, query string, w float64) search.FleetEvent {
		return search.FleetEvent{Session: session, Tool: tool, Query: query, Weight: w, At: now.Add(-time.Minute)}
	}
	// at moves ev s seconds later: another report.
	at := func(ev search.FleetEvent, s int) search.FleetEvent {
		ev.At = ev.At.Add(time.Duration(s) * time.Second)
		return ev
	}
	for _, tc := range []struct {
		name   string
		events []search.FleetEvent
		want   search.FleetStats
		// weights are the learned weights by tool afterwards.
		weights map[string]float64
	}{
		{name: "a use is recorded", events: []search.FleetEvent{use("s1", "slack__send_message", "post to the channel", 1)},
			want: search.FleetStats{Recorded: 1}, weights: map[string]float64{"slack__send_message": 1}},
		{name: "one session is one vote across pods", events: []search.FleetEvent{
			use("s1", "slack__send_message", "post to the channel", 1), use("s1", "slack__send_message", "message the team", 1)},
			want: search.FleetStats{Recorded: 1, Ignored: 1}, weights: map[string]float64{"slack__send_message": 1}},
		{name: "a weight past one session's is clamped", events: []search.FleetEvent{use("s1", "slack__send_message", "post", 50)},
			want: search.FleetStats{Recorded: 1}, weights: map[string]float64{"slack__send_message": 1}},
		{name: "invalid events are refused", events: []search.FleetEvent{
			use("s1", "slack__send_message", "", 1),
			use("s2", "", "post", 1),
			use("s3", "slack__send_message", "post", 0),
			{Session: "s4", Tool: "slack__send_message", Query: "post", Weight: 1, At: now.Add(time.Hour)},
			{Session: "s5", Tool: "slack__send_message", Query: "post", Weight: 1}},
			want: search.FleetStats{Refused: 5}, weights: map[string]float64{}},
		{name: "no use is refused for its session's report rate", events: []search.FleetEvent{
			use("s1", "slack__send_message", "post", 1), at(use("s1", "github__create_issue", "file a bug", 1), 1),
			at(use("s1", "github__create_issue", "open an issue", 1), 2)},
			want: search.FleetStats{Recorded: 2, Ignored: 1}, weights: map[string]float64{"slack__send_message": 1, "github__create_issue": 1}},
		{name: "other pods' misses count toward the bound on queries learned by misses, and past it still count their sessions", events: func() []search.FleetEvent {
			var evs []search.FleetEvent
			for i := range learn.DefaultMaxMissQueriesPerTool + 2 {
				ev := use(fmt.Sprintf("m%d", i), "slack__send_message", fmt.Sprintf("unrelated request %d", i), 0.5)
				ev.Miss = true
				evs = append(evs, ev)
			}
			return evs
		}(),
			want:    search.FleetStats{Recorded: learn.DefaultMaxMissQueriesPerTool, Counted: 2},
			weights: map[string]float64{"slack__send_message": 0.5 * learn.DefaultMaxMissQueriesPerTool}},
		{name: "resets", events: []search.FleetEvent{
			use("s1", "slack__send_message", "post", 1), use("s2", "github__create_issue", "file a bug", 1),
			{Reset: true, Tool: "slack__send_message", At: now}},
			want: search.FleetStats{Recorded: 2, Resets: 1}, weights: map[string]float64{"github__create_issue": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Learn: search.LearnConfig{
				Store: learn.NewStore(learn.Config{Now: clock}), ReportRate: 1e-9, ReportBurst: 2, Sync: true, Now: clock}})
			got, err := e.LearnFromFleet(context.Background(), tc.events)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
			weights := map[string]float64{}
			v := e.LearnedView()
			for _, sc := range v.Scopes() {
				for _, tool := range v.Tools(sc) {
					weights[tool] += v.Tool(sc, tool).Weight
				}
			}
			if diff := cmp.Diff(tc.weights, weights, cmpopts.EquateApprox(0, 1e-3)); diff != "" {
				t.Errorf("learned weights (-want +got):\n%s", diff)
			}
		})
	}
}

// Other pods' reports take from a session's report rate here, at the time
// they were made and once per report, and are never refused for it: a pod
// replaying a backlog (a pod starting replays the whole log) learns what
// the pods that admitted the reports learned. Before, each replayed use
// took a token at replay time and past the burst was dropped: a new pod
// learned 2 of a session's 40 reports made a minute apart, under a limit
// of one a minute with a burst of 2.
func TestLearnFromFleetChargesTheReportRate(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	newPod := func(rate float64, burst int) *search.Engine {
		return newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Learn: search.LearnConfig{
			Store: learn.NewStore(learn.Config{Now: clock}), ReportRate: rate, ReportBurst: burst, Sync: true, Now: clock}})
	}
	// report is one report of session s at time at: one use per scope,
	// published together under one time.
	report := func(s string, at time.Time, scopes ...string) []search.FleetEvent {
		var evs []search.FleetEvent
		for _, sc := range scopes {
			evs = append(evs, search.FleetEvent{Session: s, Scope: sc, Tool: "slack__send_message", Query: "post to the channel", Weight: 1, At: at})
		}
		return evs
	}
	local := func(e *search.Engine, s string) error {
		_, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: "slack__send_message", Outcome: search.OutcomeSuccess})
		return err
	}

	t.Run("a backlog is replayed whole", func(t *testing.T) {
		e := newPod(1.0/60, 2) // one report a minute, two at once
		const n = 40
		var evs []search.FleetEvent
		for i := range n {
			evs = append(evs, report("s1", now.Add(time.Duration(i-n)*time.Minute), fmt.Sprintf("sc%d", i))...)
		}
		st, err := e.LearnFromFleet(ctx, evs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(search.FleetStats{Recorded: n}, st); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
		// The reports came a minute apart: the session's rate here is
		// where the fleet's is, with room for its next report.
		if err := local(e, "s1"); err != nil {
			t.Errorf("the session's next report here = %v, want it accepted", err)
		}
	})
	t.Run("reports made at once take from the session's burst here", func(t *testing.T) {
		e := newPod(1e-9, 3)
		// Two reports, each credited to two searches (scopes): two tokens.
		evs := append(report("s1", now.Add(-2*time.Second), "a", "b"), report("s1", now.Add(-time.Second), "a", "c")...)
		st, err := e.LearnFromFleet(ctx, evs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(search.FleetStats{Recorded: 3, Ignored: 1}, st); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
		if err := local(e, "s1"); err != nil {
			t.Errorf("the session's third report = %v, want it accepted (burst 3)", err)
		}
		if err := local(e, "s1"); !errors.Is(err, search.ErrRateLimited) {
			t.Errorf("the session's fourth report = %v, want ErrRateLimited (burst 3, two reports on another pod)", err)
		}
		if err := local(e, "s2"); err != nil {
			t.Errorf("another session's report = %v, want it accepted", err)
		}
	})
}
