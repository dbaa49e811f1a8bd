package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
)

// A tool used in every session whatever it searched (an always-loaded file
// reader), reported over two pods of a fleet on one real PostgreSQL: each
// use is a miss of the session's search. The tool learns at most
// learn.DefaultMaxMissQueriesPerTool queries by misses, fleet-wide, and
// every session still counts: both pods end with the sessions one sidecar
// that saw every use would count (the reader's, its scope's), and both pin
// it. Before, a miss past the bound was dropped before its session was
// counted, and not published: the pods counted 8 of the reader's sessions.
func TestFleetCountsMissesPastTheBound(t *testing.T) {
	url := pgtest.NewDB(t)
	ctx := context.Background()
	args := []string{"--learn-report-rate", "100000", "--learn-pin"}
	pods := []*fleetPod{startPod(t, exampleCatalog, url, 0, args...), startPod(t, exampleCatalog, url, 0, args...)}
	const reader = "filesystem__read_file"
	requests := []string{"weather forecast for the weekend", "send a message to the team channel", "create a calendar event",
		"open a jira ticket", "list the tables in the database"}
	const n = 20
	report := func(c *toolsearch.Client, session, tool string) *toolsearchv1.ReportToolUseResponse {
		t.Helper()
		rep, err := c.ReportToolUse(ctx, session, tool, toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	misses := 0
	for i := range n {
		c, session := pods[i%2].c, fmt.Sprintf("s%d", i)
		q := fmt.Sprintf("%s %d", requests[i%len(requests)], i)
		res, err := c.Search(ctx, q, toolsearch.WithSessionID(session), toolsearch.WithMaxResults(3))
		if err != nil {
			t.Fatal(err)
		}
		refs := res.GetToolReferences()
		if len(refs) == 0 || slices.ContainsFunc(refs, func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == reader }) {
			t.Fatalf("search %q returned %v; the test needs a result, and a miss of %s", q, refs, reader)
		}
		report(c, session, refs[0].GetToolName())
		if rep := report(c, session, reader); rep.GetRecorded() && rep.GetMiss() {
			misses++
		}
	}
	if misses < learn.DefaultMaxMissQueriesPerTool || misses == n {
		t.Fatalf("%d of %d reports of %s learned a query by a miss; want the bound (%d, or a few more while the pods have not read each other's) and not every one",
			misses, n, reader, learn.DefaultMaxMissQueriesPerTool)
	}
	// A marker use on each pod, after the others: once the other pod has
	// learned it, it has read every event before it (the log is in order).
	markers := []struct{ query, tool string }{{"air quality index", "weather__get_air_quality"}, {"explain the plan of a sql query", "postgres__explain_query"}}
	for i, p := range pods {
		session, m := fmt.Sprintf("marker-%d", i), markers[i]
		res, err := p.c.Search(ctx, m.query, toolsearch.WithSessionID(session))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == m.tool }) {
			t.Fatalf("the marker search %q does not return %s", m.query, m.tool)
		}
		if rep := report(p.c, session, m.tool); !rep.GetRecorded() {
			t.Fatalf("marker report = %v", rep)
		}
	}
	for i, m := range markers {
		other := pods[1-i]
		testenv.WaitFor(t, "the marker on the other pod", func() bool {
			_, err := other.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: m.tool})
			return err == nil
		})
	}
	for i, p := range pods {
		got, err := p.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: reader})
		if err != nil {
			t.Fatal(err)
		}
		tv := got.GetTools()[0]
		t.Logf("pod %d: %s used in %d of %d sessions, %d queries learned", i, reader, tv.GetSessions(), tv.GetScopeSessions(), len(tv.GetQueries()))
		if tv.GetSessions() != n || int(tv.GetScopeSessions()) != n+len(markers) {
			t.Fatalf("pod %d: %s used in %d of %d sessions; want %d of %d, as one sidecar that saw every use",
				i, reader, tv.GetSessions(), tv.GetScopeSessions(), n, n+len(markers))
		}
		if len(tv.GetQueries()) > learn.DefaultMaxMissQueriesPerTool {
			t.Errorf("pod %d: %s learned %d queries by misses, past the bound of %d", i, reader, len(tv.GetQueries()), learn.DefaultMaxMissQueriesPerTool)
		}
		// Pins are those of the pod's last rebuild of the learned index,
		// which follows a change in the background.
		testenv.WaitFor(t, fmt.Sprintf("%s pinned on pod %d", reader, i), func() bool {
			got, err := p.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: reader})
			return err == nil && got.GetTools()[0].GetPinned()
		})
	}
}

// A pod restarted with its --cache-dir and --store counts its uses once:
// the fleet's log holds its earlier uses (under its old pod id) and it
// replays the log from the start, so its learned.jsonl is not loaded as
// well. Before, a use reported once counted two sessions and weight 2 on
// the restarted pod, and 1 on the others.
func TestFleetRestartCountsOnce(t *testing.T) {
	url := pgtest.NewDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	a := startPod(t, exampleCatalog, url, 0, "--cache-dir", dir)
	b := startPod(t, exampleCatalog, url, 0)
	use := func(p *fleetPod, session, query, tool string) {
		t.Helper()
		res, err := p.c.Search(ctx, query, toolsearch.WithSessionID(session))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == tool }) {
			t.Fatalf("the search %q does not return %s", query, tool)
		}
		if rep, err := p.c.ReportToolUse(ctx, session, tool, toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS); err != nil || !rep.GetRecorded() {
			t.Fatalf("report = %v, %v", rep, err)
		}
	}
	const tool = "slack__send_message"
	use(a, "s1", "send a message to the team channel", tool)
	a.stop() // flushes the use to the log, and saves learned.jsonl
	if _, err := os.Stat(filepath.Join(dir, learn.FileName)); err != nil {
		t.Fatalf("the stopped pod saved no learned state: %v", err)
	}
	a = startPod(t, exampleCatalog, url, 0, "--cache-dir", dir)
	// A marker use on the other pod: once the restarted pod has learned
	// it, it has replayed every event before it.
	const marker = "weather__get_air_quality"
	use(b, "marker", "air quality index", marker)
	testenv.WaitFor(t, "the marker on the restarted pod", func() bool {
		_, err := a.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: marker})
		return err == nil
	})
	for i, p := range []*fleetPod{a, b} {
		got, err := p.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
		if err != nil {
			t.Fatal(err)
		}
		if tv := got.GetTools()[0]; tv.GetSessions() != 1 || tv.GetWeight() < 0.999 || tv.GetWeight() > 1.001 {
			t.Errorf("pod %d: %s used in %d sessions, weight %.3f; want 1 session, weight 1 (one use)", i, tool, tv.GetSessions(), tv.GetWeight())
		}
	}
}
