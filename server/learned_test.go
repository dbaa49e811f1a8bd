package server_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// learningSidecar serves tools from paths with learning on (reports
// indexed at once) and returns a client of it and the store.
func learningSidecar(t *testing.T, lc search.LearnConfig, paths ...string) (*toolsearch.Client, *search.Engine) {
	t.Helper()
	tools, err := catalog.Load(catalog.ParseSources(paths...)...)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	lc.Sync = true
	e, err := search.NewFromTools(tools, search.Config{Embedder: emb, Learn: lc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.WaitIndexed(context.Background()); err != nil {
		t.Fatal(err)
	}
	c, err := toolsearch.Dial(servertest.Start(t, e), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, e
}

// rankIn is tool's rank (1-based) in the top 10 that c's search for query
// (with opts) returns; 0 when it is not there.
func rankIn(t *testing.T, c *toolsearch.Client, tool, query string, opts ...toolsearch.SearchOption) int {
	t.Helper()
	resp, err := c.Search(context.Background(), query, append(opts, toolsearch.WithMaxResults(10))...)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range resp.GetToolReferences() {
		if r.GetToolName() == tool {
			return i + 1
		}
	}
	return 0
}

// fixedClock never advances: rate limits never refill, so a test can
// exhaust one without timing anything.
func fixedClock() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }

func report(ctx context.Context, c *toolsearch.Client, session, tool string) (*toolsearchv1.ReportToolUseResponse, error) {
	return c.Raw().ReportToolUse(ctx, &toolsearchv1.ReportToolUseRequest{SessionId: session, ToolName: tool, Outcome: toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS})
}

// ReportToolUse through the real client: what it learns, its no-op
// answers, its errors, GetLearned, ResetLearned and the provenance of a
// lifted result.
func TestReportToolUse(t *testing.T) {
	ctx := context.Background()
	store := learn.NewStore(learn.Config{})
	c, _ := learningSidecar(t, search.LearnConfig{Store: store, Now: fixedClock}, filepath.Join("testdata", "catalog.json"))

	if _, err := c.Search(ctx, "post a note for the team", toolsearch.WithSessionID("s1"), toolsearch.WithVisibleTools("slack:*")); err != nil {
		t.Fatal(err)
	}
	got, err := report(ctx, c, "s1", "slack__send_message")
	if err != nil {
		t.Fatal(err)
	}
	if !got.GetRecorded() || !slices.Equal(got.GetQueries(), []string{"post a note for the team"}) {
		t.Errorf("report of a revealed tool = %v, want recorded for the session's query", got)
	}
	// A tool no search of the session returned is a miss: the session's
	// newest search teaches it, once.
	if got, err := report(ctx, c, "s1", "filesystem__write_file"); err != nil || !got.GetRecorded() || !got.GetMiss() {
		t.Errorf("report of a tool the session never saw = %v, %v; want recorded as a miss", got, err)
	}
	for _, tc := range []struct {
		name, session, tool, reason string
	}{
		{"unknown session", "nobody", "slack__send_message", search.ReasonUnknownSession},
		{"missed tool used again", "s1", "filesystem__write_file", search.ReasonNotRevealed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := report(ctx, c, tc.session, tc.tool)
			if err != nil || got.GetRecorded() || got.GetReason() != tc.reason {
				t.Errorf("ReportToolUse = %v, %v; want not recorded, reason %q", got, err, tc.reason)
			}
		})
	}
	for _, tc := range []struct {
		name string
		req  *toolsearchv1.ReportToolUseRequest
		code codes.Code
	}{
		{"empty session", &toolsearchv1.ReportToolUseRequest{ToolName: "slack__send_message", Outcome: toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS}, codes.InvalidArgument},
		{"no outcome", &toolsearchv1.ReportToolUseRequest{SessionId: "s1", ToolName: "slack__send_message"}, codes.InvalidArgument},
		{"unknown tool", &toolsearchv1.ReportToolUseRequest{SessionId: "s1", ToolName: "nope__nothing", Outcome: toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS}, codes.NotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Raw().ReportToolUse(ctx, tc.req)
			if status.Code(err) != tc.code {
				t.Errorf("ReportToolUse = %v, want %v", err, tc.code)
			}
		})
	}

	learned, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: "slack__send_message"})
	if err != nil {
		t.Fatal(err)
	}
	if tools := learned.GetTools(); !learned.GetLearning() || len(tools) != 1 || tools[0].GetQueries()[0].GetQuery() != "post a note for the team" {
		t.Errorf("GetLearned = %v", learned)
	}

	// The learned query now lifts the tool in the scope that learned it,
	// and the result says so; a request with another scope is untouched.
	liftOf := func(opts ...toolsearch.SearchOption) *toolsearchv1.LearnedBoost {
		t.Helper()
		resp, err := c.Search(ctx, "post a note for the team", append(opts, toolsearch.WithMaxResults(3))...)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.GetToolReferences() {
			if r.GetToolName() == "slack__send_message" {
				return r.GetLearned()
			}
		}
		return nil
	}
	if lifted := liftOf(toolsearch.WithVisibleTools("slack:*")); lifted == nil || lifted.GetBoost() <= 0 || lifted.GetSignal() == "" {
		t.Errorf("slack__send_message's reference carries learned = %v, want the signal and a positive boost", lifted)
	}
	if lifted := liftOf(); lifted != nil {
		t.Errorf("an unscoped request was lifted by what the slack:* scope learned: %v", lifted)
	}
	if got := learned.GetTools()[0].GetScope(); got != "visible=slack:*" {
		t.Errorf("learned scope = %q, want visible=slack:*", got)
	}

	if _, err := c.Raw().ResetLearned(ctx, &toolsearchv1.ResetLearnedRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("ResetLearned with nothing named = %v, want InvalidArgument", err)
	}
	reset, err := c.Raw().ResetLearned(ctx, &toolsearchv1.ResetLearnedRequest{ToolName: "slack__send_message"})
	if err != nil || reset.GetTools() != 1 {
		t.Errorf("ResetLearned = %v, %v; want 1 tool", reset, err)
	}
	if _, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: "slack__send_message"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetLearned after reset = %v, want NotFound", err)
	}
}

// A session past its report rate is told RESOURCE_EXHAUSTED; another
// session is not affected.
func TestReportToolUseRateLimit(t *testing.T) {
	ctx := context.Background()
	c, _ := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), ReportBurst: 3, Now: fixedClock}, filepath.Join("testdata", "catalog.json"))
	for _, s := range []string{"a", "b"} {
		if _, err := c.Search(ctx, "send a slack message", toolsearch.WithSessionID(s)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		if _, err := report(ctx, c, "a", "slack__send_message"); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
	}
	if _, err := report(ctx, c, "a", "slack__send_message"); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("4th report of a session with a burst of 3 = %v, want ResourceExhausted", err)
	}
	if _, err := report(ctx, c, "b", "slack__send_message"); err != nil {
		t.Errorf("another session's report = %v, want it accepted", err)
	}
}

// With learning off the report is a no-op that says so.
func TestReportToolUseLearningOff(t *testing.T) {
	ctx := context.Background()
	c, _ := learningSidecar(t, search.LearnConfig{}, filepath.Join("testdata", "catalog.json"))
	if _, err := c.Search(ctx, "send a slack message", toolsearch.WithSessionID("s")); err != nil {
		t.Fatal(err)
	}
	got, err := report(ctx, c, "s", "slack__send_message")
	if err != nil || got.GetRecorded() || got.GetReason() != search.ReasonLearningDisabled {
		t.Errorf("ReportToolUse with learning off = %v, %v; want reason %q", got, err, search.ReasonLearningDisabled)
	}
}

// A miss of a tool that already learned all it may by misses teaches no
// query but counts its session: the report says so with its own reason,
// miss_bound, not session_bound (which the session did not reach: it
// taught the tool nothing before). Through the real server and client.
func TestReportToolUseMissBound(t *testing.T) {
	ctx := context.Background()
	c, _ := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{MaxMissQueriesPerTool: 1}), Now: fixedClock},
		filepath.Join("testdata", "catalog.json"))
	const tool = "filesystem__write_file"
	for i, tc := range []struct {
		session, query, reason string
		recorded               bool
	}{
		{"s1", "post a note for the team", "", true},
		{"s2", "message the channel about the outage", search.ReasonMissBound, false},
	} {
		if _, err := c.Search(ctx, tc.query, toolsearch.WithSessionID(tc.session), toolsearch.WithVisibleTools("slack:*")); err != nil {
			t.Fatal(err)
		}
		got, err := report(ctx, c, tc.session, tool)
		if err != nil || got.GetRecorded() != tc.recorded || got.GetReason() != tc.reason || tc.recorded && !got.GetMiss() {
			t.Errorf("report %d, of a tool session %s never saw = %v, %v; want recorded %v (a miss), reason %q", i, tc.session, got, err, tc.recorded, tc.reason)
		}
	}
	learned, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
	if err != nil {
		t.Fatal(err)
	}
	if tools := learned.GetTools(); len(tools) != 1 || len(tools[0].GetQueries()) != 1 || tools[0].GetSessions() != 2 {
		t.Errorf("GetLearned(%s) = %v; want one query learned and both sessions counted", tool, learned)
	}
}

// The poisoning test: one session reporting 10,000 uses of tool X, for
// queries unrelated to X (each made to reveal X by adding X's name),
// cannot move X above rank 3 for those queries without X's name, nor put
// X into the results of a request whose scope excludes it.
func TestLearnPoisoning(t *testing.T) {
	ctx := context.Background()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, "livemcpbench/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c, e := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), ReportBurst: 20000, Now: fixedClock},
		evaltest.Bench(t, "livemcpbench/tools.jsonl"))
	const x = "weather__get_weather_by_city"
	if _, ok := e.Snapshot().Lookup(x); !ok {
		t.Fatalf("%s is not in the catalog", x)
	}
	var unrelated []evaluation.Query
	for _, q := range qs {
		if !slices.Contains(q.Relevant, x) && !strings.Contains(strings.ToLower(q.Query), "weather") {
			unrelated = append(unrelated, q)
		}
	}
	unrelated = unrelated[:20]
	rankOf := func(query string, opts ...toolsearch.SearchOption) int {
		t.Helper()
		return rankIn(t, c, x, query, opts...)
	}
	// Another agent, configured with a scope that holds X and the tools
	// the queries want, learns apart: its ranking must not move at all.
	other := strings.SplitN(unrelated[0].Relevant[0], "__", 2)[0]
	victim := toolsearch.WithVisibleTools("weather:*", other+":*")
	before := make([]int, len(unrelated))
	victimBefore := make([]int, len(unrelated))
	for i, q := range unrelated {
		before[i] = rankOf(q.Query)
		victimBefore[i] = rankOf(q.Query+" "+strings.ReplaceAll(strings.ReplaceAll(x, "__", " "), "_", " "), victim)
	}

	const poisoner = "poisoner"
	name := strings.ReplaceAll(strings.ReplaceAll(x, "__", " "), "_", " ")
	for _, q := range unrelated {
		resp, err := c.Search(ctx, q.Query+" "+name, toolsearch.WithSessionID(poisoner), toolsearch.WithMaxResults(10))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(resp.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == x }) {
			t.Fatalf("the poisoning search %q does not reveal %s", q.Query+" "+name, x)
		}
	}
	recorded := 0
	for range 10000 {
		got, err := report(ctx, c, poisoner, x)
		if err != nil {
			t.Fatal(err)
		}
		if got.GetRecorded() {
			recorded++
		}
	}
	if recorded == 0 {
		t.Fatal("no poisoning report was recorded; the test tests nothing")
	}
	learned, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: x})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of 10000 reports recorded; %s learned weight %.2f from %d queries", recorded, x, learned.GetTools()[0].GetWeight(), len(learned.GetTools()[0].GetQueries()))

	for i, q := range unrelated {
		after := rankOf(q.Query)
		if after >= 1 && after <= 3 && (before[i] == 0 || before[i] > 3) {
			t.Errorf("query %q: %s rose to rank %d (was %d) after one session's poisoning", q.Query, x, after, before[i])
		}
	}
	for i, q := range unrelated {
		if after := rankOf(q.Query+" "+name, victim); after != victimBefore[i] {
			t.Errorf("query %q in another scope: %s moved from rank %d to %d", q.Query, x, victimBefore[i], after)
		}
	}
	// Another agent's scope excludes X: X never enters its results.
	for _, q := range unrelated {
		if r := rankOf(q.Query+" "+name, toolsearch.WithVisibleTools(other+":*")); r != 0 {
			t.Errorf("query %q in scope %s:* returned %s at rank %d", q.Query, other, x, r)
		}
	}
}

// The Agent helper's one call, ToolCalled, teaches a learning sidecar what
// the model called after its tool_search. (The search must show the tool:
// a model-facing answer without a confident match reveals nothing.)
func TestAgentToolCalledTeaches(t *testing.T) {
	ctx := context.Background()
	store := learn.NewStore(learn.Config{})
	c, _ := learningSidecar(t, search.LearnConfig{Store: store}, filepath.Join("testdata", "catalog.json"))
	agent := toolsearch.NewAgent(c)
	if _, err := agent.HandleToolCall(ctx, "conv-1", `{"query":"send a message to the team on slack","max_results":3}`); err != nil {
		t.Fatal(err)
	}
	if err := agent.ToolCalled(ctx, "conv-1", "slack__send_message", nil); err != nil {
		t.Fatal(err)
	}
	if err := agent.ToolCalled(ctx, "conv-1", "github__create_issue", errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	if got := store.View().Tools(""); !slices.Equal(got, []string{"slack__send_message"}) {
		t.Errorf("learned tools = %v, want [slack__send_message] (the failed call teaches nothing)", got)
	}
}

// Misses teach (learn.Attribute): a tool no search of the session returned
// is credited to the session's newest search, and the report says so.
// But two sybil sessions that search "weather forecast" and report an
// unrelated tool cannot put it into the top 5 for that request: a miss
// weighs half a use, and a tool the catalog's text did not find joins
// results only with the evidence of several sessions.
func TestLearnMissSybils(t *testing.T) {
	ctx := context.Background()
	c, e := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), Now: fixedClock},
		evaltest.Bench(t, "livemcpbench/tools.jsonl"))
	const x = "searxng__excel_read"
	if _, ok := e.Snapshot().Lookup(x); !ok {
		t.Fatalf("%s is not in the catalog", x)
	}
	requests := []string{"weather forecast", "what is the weather forecast for tomorrow", "weather forecast in Paris this weekend"}
	rankOf := func(query string) int {
		t.Helper()
		return rankIn(t, c, x, query)
	}
	for _, s := range []string{"sybil-1", "sybil-2"} {
		resp, err := c.Search(ctx, "weather forecast", toolsearch.WithSessionID(s), toolsearch.WithMaxResults(10))
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(resp.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == x }) {
			t.Fatalf("the search reveals %s; the test needs a miss", x)
		}
		got, err := report(ctx, c, s, x)
		if err != nil {
			t.Fatal(err)
		}
		if !got.GetRecorded() || !got.GetMiss() || !slices.Equal(got.GetQueries(), []string{"weather forecast"}) {
			t.Fatalf("report of a tool the search missed = %v, want recorded as a miss of %q", got, "weather forecast")
		}
		again, err := report(ctx, c, s, x)
		if err != nil || again.GetRecorded() {
			t.Errorf("the session's second report of %s = %v, %v; want nothing more recorded", x, again, err)
		}
	}
	for _, q := range requests {
		if r := rankOf(q); r >= 1 && r <= 5 {
			t.Errorf("query %q: two sybil sessions put %s at rank %d", q, x, r)
		}
	}
}

// A tool used in nearly every session, whatever was searched (an
// always-loaded file reader), is credited as a miss to each session's
// search. That must not lift it into the top 5 for requests unrelated to
// those (none of their paraphrases): it learns at most
// learn.DefaultMaxMissQueriesPerTool queries by misses, and what it
// learned from one request is no evidence for another (only its learned
// queries that resemble a request count toward joining). A session's later
// uses of it are not misses of its later searches. (For the requests it
// was used after, and their paraphrases, it is lifted as any tool those
// sessions used: the reports cannot tell an always-loaded tool from a
// useful one there.)
func TestLearnAlwaysUsedTool(t *testing.T) {
	ctx := context.Background()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, "livemcpbench/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), Now: fixedClock},
		evaltest.Bench(t, "livemcpbench/tools.jsonl"))
	const x = "searxng__excel_read"
	var learned, other []evaluation.Query
	for _, q := range qs {
		switch {
		case slices.Contains(q.Relevant, x) || strings.Contains(strings.ToLower(q.Query), "excel"):
		case len(learned) <= len(other):
			learned = append(learned, q)
		default:
			other = append(other, q)
		}
	}
	rankOf := func(query string) int {
		t.Helper()
		return rankIn(t, c, x, query)
	}
	ranks := func(qs []evaluation.Query) []int {
		r := make([]int, len(qs))
		for i, q := range qs {
			r[i] = rankOf(q.Query)
		}
		return r
	}
	// The other requests that are not paraphrases of a learned one (share
	// less than half their words with each) are unrelated to what the tool
	// was used after.
	words := func(q string) []string {
		return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	other = slices.DeleteFunc(other, func(o evaluation.Query) bool {
		ow := words(o.Query)
		for _, l := range learned {
			lw := words(l.Query)
			shared := 0
			for _, w := range ow {
				if slices.Contains(lw, w) {
					shared++
				}
			}
			if 2*shared >= min(len(ow), len(lw)) {
				return true
			}
		}
		return false
	})
	if len(other) < 5 {
		t.Fatalf("only %d unrelated requests", len(other))
	}
	before := ranks(other)
	misses := 0
	for i, q := range learned {
		session := fmt.Sprintf("s%d", i)
		for _, query := range []string{q.Query, "check the result of " + q.Query} {
			if _, err := c.Search(ctx, query, toolsearch.WithSessionID(session), toolsearch.WithMaxResults(5)); err != nil {
				t.Fatal(err)
			}
			for _, tool := range append(slices.Clone(q.Relevant), x) {
				got, err := report(ctx, c, session, tool)
				if err != nil {
					t.Fatal(err)
				}
				if tool == x && got.GetMiss() {
					misses++
				}
			}
		}
	}
	if misses == 0 || misses > learn.DefaultMaxMissQueriesPerTool {
		t.Fatalf("%s learned %d queries by misses in %d sessions, want some and at most %d", x, misses, len(learned), learn.DefaultMaxMissQueriesPerTool)
	}
	for i, q := range other {
		if after := rankOf(q.Query); after >= 1 && after <= 5 && (before[i] == 0 || after < before[i]) {
			t.Errorf("query %q: %s rose to rank %d (was %d) after being used in every session", q.Query, x, after, before[i])
		}
	}
}
