package search_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// pinEngine is a learning engine over learnTools with pinning on.
func pinEngine(t *testing.T) *search.Engine {
	t.Helper()
	return learnToolsEngine(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true, Pin: true, ReportBurst: 1000, ReportRate: 1000})
}

// useIn has session s search q in visible and report a successful use of
// tool, and returns whether the use taught something.
func useIn(t *testing.T, e *search.Engine, s, q, tool string, visible []string) bool {
	t.Helper()
	ctx := context.Background()
	search1(t, e, search.Request{Query: q, SessionID: s, Visible: visible, MaxResults: 10})
	rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: tool, Outcome: search.OutcomeSuccess})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Recorded
}

// Through the engine's live path (search, then report): one session, however
// many searches and reports, never pins a tool; enough distinct sessions of
// a scope pin the tool they all use, in that scope only, and only among the
// tool list's tools.
func TestToolsetLearningPins(t *testing.T) {
	e := pinEngine(t)
	team := []string{"notion:*", "docs:*", "calendar:*", "weather:*"}
	other := []string{"notion:*", "docs:*"}
	list := func(visible []string) search.ToolsetLearning {
		_, tools, _, err := e.Scoped("", visible)
		if err != nil {
			t.Fatal(err)
		}
		return e.ToolsetLearning(visible, tools)
	}
	for i := range 50 {
		useIn(t, e, "poisoner", fmt.Sprintf("notion block %d", i%5), "notion__append_block", team)
		useIn(t, e, "poisoner", "weather in paris", "weather__get_forecast", team)
	}
	if got := list(team).Pinned; len(got) > 0 {
		t.Fatalf("one session pinned %v", got)
	}
	for i := range learn.DefaultPinMinSessions - 1 {
		s := fmt.Sprintf("s%d", i)
		if !useIn(t, e, s, "append a block to notion", "notion__append_block", team) {
			t.Fatalf("session %s taught nothing", s)
		}
		if i%2 == 0 && !useIn(t, e, s, "weather in paris", "weather__get_forecast", team) {
			t.Fatalf("session %s taught nothing", s)
		}
	}
	got := list(team)
	if diff := cmp.Diff([]string{"notion__append_block"}, got.Pinned); diff != "" {
		t.Errorf("pinned after %d sessions (-want +got):\n%s", learn.DefaultPinMinSessions, diff)
	}
	if got.Evidence["notion__append_block"] <= got.Evidence["weather__get_forecast"] || got.Evidence["weather__get_forecast"] <= 0 {
		t.Errorf("evidence = %v", got.Evidence)
	}
	if diff := cmp.Diff([]string{"notion__append_block"}, e.LearnedPinned(got.Scope)); diff != "" {
		t.Errorf("LearnedPinned (-want +got):\n%s", diff)
	}
	if o := list(other); len(o.Pinned)+len(o.Evidence) > 0 || o.Scope == got.Scope {
		t.Errorf("another scope: %+v", o)
	}
	// Within the scope's learning, a list that does not hold the tool (a
	// visible set naming the same scope's tools differently is another
	// scope; so filter by the list's tools directly).
	_, tools, _, _ := e.Scoped("", []string{"docs:*"})
	if o := e.ToolsetLearning(team, tools); len(o.Pinned)+len(o.Evidence) > 0 {
		t.Errorf("outside the list's tools: %+v", o)
	}
}

// With pinning off, nothing is pinned, but the evidence that orders a
// capped deferred list is there.
func TestToolsetLearningPinOff(t *testing.T) {
	e := learningEngine(t, learn.NewStore(learn.Config{}))
	teach(t, e, 6, "notion__append_block")
	_, tools, _, _ := e.Scoped("", nil)
	got := e.ToolsetLearning(nil, tools)
	if len(got.Pinned) > 0 || got.Evidence["notion__append_block"] <= 0 {
		t.Errorf("ToolsetLearning = %+v", got)
	}
}

// A fleet pins from its shared state: a pod that only read other pods'
// uses (LearnFromFleet, the --store path) pins what their sessions used in
// most sessions, under the same one-vote rule: one session's events on
// many pods never pin.
func TestPinFromFleet(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Learn: search.LearnConfig{
		Store: learn.NewStore(learn.Config{}), Sync: true, Pin: true, ReportRate: 1000, ReportBurst: 1000}})
	var evs []search.FleetEvent
	for i := range 20 { // one session, reported by 20 pods under 20 wordings
		evs = append(evs, search.FleetEvent{Session: "s0", Tool: "slack__send_message", Query: fmt.Sprintf("post %d", i), Weight: 1, At: time.Now()})
	}
	if _, err := e.LearnFromFleet(context.Background(), evs); err != nil {
		t.Fatal(err)
	}
	if got := e.LearnedPinned(""); len(got) > 0 {
		t.Fatalf("one session's events pinned %v", got)
	}
	evs = evs[:0]
	for i := 1; i < learn.DefaultPinMinSessions; i++ {
		evs = append(evs, search.FleetEvent{Session: fmt.Sprintf("s%d", i), Tool: "slack__send_message", Query: "post to the channel", Weight: 1, At: time.Now()})
	}
	if _, err := e.LearnFromFleet(context.Background(), evs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slack__send_message"}, e.LearnedPinned("")); diff != "" {
		t.Errorf("pinned from the fleet's uses (-want +got):\n%s", diff)
	}
}
