package search_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// LearnFromFleet applies other pods' events under this pod's rules: the
// record check, one vote per session across pods, the session's report
// rate counting the fleet, resets.
func TestLearnFromFleet(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	use := func(session, tool, query string, w float64) search.FleetEvent {
		return search.FleetEvent{Session: session, Tool: tool, Query: query, Weight: w, At: now.Add(-time.Minute)}
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
		{name: "the session's rate counts other pods' reports", events: []search.FleetEvent{
			use("s1", "slack__send_message", "post", 1), use("s1", "github__create_issue", "file a bug", 1),
			use("s1", "github__create_issue", "open an issue", 1)},
			want: search.FleetStats{Recorded: 2, RateLimited: 1}, weights: map[string]float64{"slack__send_message": 1, "github__create_issue": 1}},
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
