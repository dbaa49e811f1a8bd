package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// learnTools is a small catalog where the tool agents use for meeting
// notes is described tersely, as real descriptions often are.
func learnTools() []search.Tool {
	return []search.Tool{
		{Name: "notion__append_block", Server: "notion", Description: "Interact with the Notion API."},
		{Name: "docs__write_page", Server: "docs", Description: "Write a page of text to a document."},
		{Name: "calendar__create_event", Server: "calendar", Description: "Create a calendar event for a meeting."},
		{Name: "slack__send_message", Server: "slack", Description: "Send a message to a Slack channel."},
		{Name: "mail__send_email", Server: "mail", Description: "Send an email message."},
		{Name: "weather__get_forecast", Server: "weather", Description: "Get the weather forecast for a city."},
	}
}

// learningEngine is an engine over learnTools that learns into store
// (reports indexed at once); nil: learning off.
func learningEngine(t *testing.T, store *learn.Store) *search.Engine {
	t.Helper()
	var lc search.LearnConfig
	if store != nil {
		lc = search.LearnConfig{Store: store, Sync: true}
	}
	return learnToolsEngine(t, lc)
}

// learnToolsEngine is an engine over learnTools with the built-in model
// and learning config lc, indexed.
func learnToolsEngine(t *testing.T, lc search.LearnConfig) *search.Engine {
	t.Helper()
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.NewFromTools(learnTools(), search.Config{Embedder: emb, Learn: lc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.WaitIndexed(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e
}

// exampleLearningEngine is an engine over the example catalog with the
// built-in model, learning into a store of its own (reports indexed at
// once), indexed.
func exampleLearningEngine(t *testing.T) *search.Engine {
	t.Helper()
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Embedder: emb, Learn: search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true}})
	if err := e.WaitIndexed(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	return e
}

const meetingQuery = "save my meeting minutes"

// teach has n sessions search meetingQuery and use tool.
func teach(t *testing.T, e *search.Engine, n int, tool string) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		s := fmt.Sprintf("session-%d", i)
		if _, err := e.Search(ctx, search.Request{Query: meetingQuery, SessionID: s, MaxResults: 10}); err != nil {
			t.Fatal(err)
		}
		rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: tool, Outcome: search.OutcomeSuccess})
		if err != nil || !rep.Recorded {
			t.Fatalf("ReportToolUse = %+v, %v", rep, err)
		}
	}
}

// An engine with learning on and nothing learned ranks exactly as one
// with learning off.
func TestLearningOnNothingLearnedIsIdentical(t *testing.T) {
	off, on := learningEngine(t, nil), learningEngine(t, learn.NewStore(learn.Config{}))
	for _, q := range []string{meetingQuery, "send a message", "weather", "docs__write_page", "+slack message"} {
		for _, mode := range []search.Mode{search.ModeDefault, search.ModeKeyword} {
			req := search.Request{Query: q, Mode: mode, MaxResults: 2}
			a, b := search1(t, off, req), search1(t, on, req)
			a.Metadata.Elapsed, b.Metadata.Elapsed = 0, 0
			a.Metadata.Stages, b.Metadata.Stages = search.Stages{}, search.Stages{}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("query %q, mode %q (-off +on):\n%s", q, mode, diff)
			}
		}
	}
}

func TestLearnedLiftWithinTheRules(t *testing.T) {
	store := learn.NewStore(learn.Config{})
	e := learningEngine(t, store)
	before := search1(t, e, search.Request{Query: meetingQuery, MaxResults: 10})
	if names(before)[0] == "notion__append_block" {
		t.Fatalf("notion__append_block is already first: the test tests nothing")
	}
	teach(t, e, 3, "notion__append_block")

	after := search1(t, e, search.Request{Query: meetingQuery, MaxResults: 10, Debug: true})
	if got := after.References[0]; got.Name != "notion__append_block" || got.Learned == nil || got.Learned.Boost <= 0 {
		t.Errorf("after learning, first = %+v; want notion__append_block with its learned provenance", got)
	}
	// A rewording shares words with the learned query: the tool, which
	// the catalog text alone does not find at all, is lifted into the
	// results and says why.
	lifted := false
	for _, r := range search1(t, e, search.Request{Query: "store the minutes of the meeting", MaxResults: 10}).References {
		lifted = lifted || (r.Name == "notion__append_block" && r.Learned != nil && r.Learned.Signal == search.SignalLearnedQueries)
	}
	if !lifted {
		t.Error("a rewording of the learned query does not bring notion__append_block with learned_queries provenance")
	}
	// An exact name still ranks its tool first.
	if got := names(search1(t, e, search.Request{Query: "docs__write_page", MaxResults: 10}))[0]; got != "docs__write_page" {
		t.Errorf("exact name query: first = %s", got)
	}
	// Never outside the request's scope or filters.
	for _, req := range []search.Request{
		{Query: meetingQuery, Visible: []string{"docs:*", "calendar:*"}},
		{Query: meetingQuery + " server:docs"},
		{Query: meetingQuery, Category: "calendar"},
	} {
		for _, n := range names(search1(t, e, req)) {
			if n == "notion__append_block" {
				t.Errorf("request %+v returned notion__append_block outside its scope", req)
			}
		}
	}
	// Content changes keep what was learned; deletion drops it.
	changed := learnTools()[0]
	changed.Description = "Append a block to a Notion page."
	if _, err := e.Upsert(context.Background(), []search.Tool{changed}); err != nil {
		t.Fatal(err)
	}
	if err := e.RefreshLearned(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.View().Tool("", "notion__append_block") == nil {
		t.Error("a changed tool lost what it learned")
	}
	if _, err := e.Delete(context.Background(), []string{"notion__append_block"}); err != nil {
		t.Fatal(err)
	}
	if err := e.RefreshLearned(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.View().Tool("", "notion__append_block") != nil {
		t.Error("a deleted tool kept what it learned")
	}
}

// In keyword mode the learned stage reads as deep as in the default mode
// (fusionDepth candidates, learnedKeyword), not only the results asked
// for: a tool the catalog's words rank just past max_results is found by
// the catalog's text, and one session's use lifts it, as it would in the
// default mode; what is returned is still max_results long. With nothing
// learned in the scope, keyword mode is as without learning
// (TestLearningOnNothingLearnedIsIdentical).
func TestLearnedKeywordReadsPastTheLimit(t *testing.T) {
	e := learningEngine(t, learn.NewStore(learn.Config{}))
	ctx := context.Background()
	const q = "send the meeting notes"
	req := search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 3}
	three := names(search1(t, e, req))
	if len(three) < 3 {
		t.Fatalf("keyword %q = %v; the test needs three matches", q, three)
	}
	target := three[2] // the catalog's words rank it past max_results 2
	s := "session-keyword"
	if _, err := e.Search(ctx, search.Request{Query: q, Mode: search.ModeKeyword, SessionID: s, MaxResults: 10}); err != nil {
		t.Fatal(err)
	}
	if rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: target, Outcome: search.OutcomeSuccess}); err != nil || !rep.Recorded {
		t.Fatalf("ReportToolUse = %+v, %v", rep, err)
	}
	req.MaxResults = 2
	got := search1(t, e, req)
	if len(got.References) != 2 || !isLifted(got, target) {
		t.Errorf("keyword %q, max_results 2, after one session used %s: %+v; want it among them, lifted", q, target, got.References)
	}
	// In another scope nothing was learned: the results are the catalog's.
	req.Visible = []string{"slack:*", "mail:*", "calendar:*"}
	off := learningEngine(t, nil)
	a, b := search1(t, off, req), search1(t, e, req)
	a.Metadata.Elapsed, b.Metadata.Elapsed = 0, 0
	a.Metadata.Stages, b.Metadata.Stages = search.Stages{}, search.Stages{}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("keyword %q in a scope that learned nothing (-off +on):\n%s", q, diff)
	}
}

// A tool the catalog's text does not find joins a result with the
// evidence of several sessions, counted as sessions where their credit is
// small (learnJoinSpread): three sessions that each missed it after their
// own wording of a request (half a use each, 1.5 in all, below the weight
// of two full uses) make it join a fourth wording; two such sessions (one
// use's weight in all, what two sybils can give) do not.
func TestLearnedJoinBySessions(t *testing.T) {
	e := learningEngine(t, learn.NewStore(learn.Config{}))
	ctx := context.Background()
	const tool = "notion__append_block"
	wordings := []string{"save my meeting minutes", "save the minutes of our meeting", "meeting minutes to save"}
	req := search.Request{Query: "save minutes from the meeting", Mode: search.ModeKeyword, MaxResults: 10}
	has := func() (bool, *search.Learned) {
		for _, r := range search1(t, e, req).References {
			if r.Name == tool {
				return true, r.Learned
			}
		}
		return false, nil
	}
	if in, _ := has(); in {
		t.Fatalf("keyword %q already finds %s: the test tests nothing", req.Query, tool)
	}
	for i, w := range wordings {
		s := fmt.Sprintf("spread-%d", i)
		res, err := e.Search(ctx, search.Request{Query: w, Mode: search.ModeKeyword, SessionID: s, MaxResults: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.References {
			if r.Name == tool {
				t.Fatalf("keyword %q finds %s: the test needs a miss", w, tool)
			}
		}
		rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: tool, Outcome: search.OutcomeSuccess})
		if err != nil || !rep.Recorded || !rep.Miss {
			t.Fatalf("ReportToolUse = %+v, %v; want a recorded miss", rep, err)
		}
		in, l := has()
		switch {
		case i < 2 && in:
			t.Errorf("after %d sessions' misses (weight %.2f), %s joins %q", i+1, 0.5*float64(i+1), tool, req.Query)
		case i == 2 && (!in || l == nil || l.Signal != search.SignalLearnedQueries):
			t.Errorf("after 3 sessions' misses, %s in %q: %v, provenance %+v; want it joined, lifted by learned_queries", tool, req.Query, in, l)
		}
	}
}

// What was learned survives a restart: saved, loaded into a new store,
// the new engine ranks as the old one did.
func TestLearnedSurvivesRestart(t *testing.T) {
	store := learn.NewStore(learn.Config{})
	e := learningEngine(t, store)
	teach(t, e, 3, "notion__append_block")
	req := search.Request{Query: meetingQuery, MaxResults: 10}
	want := names(search1(t, e, req))
	path := filepath.Join(t.TempDir(), learn.FileName)
	if err := store.Save(path); err != nil {
		t.Fatal(err)
	}
	restarted := learn.NewStore(learn.Config{})
	if _, err := restarted.Load(path); err != nil {
		t.Fatal(err)
	}
	e2 := learningEngine(t, restarted)
	if err := e2.RefreshLearned(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, names(search1(t, e2, req))); diff != "" {
		t.Errorf("ranking after restart (-before +after):\n%s", diff)
	}
}

// Each learning scope (visible set and category filter) learns apart,
// unless LearnConfig.Shared.
func TestLearningScopes(t *testing.T) {
	ctx := context.Background()
	const scopedQuery = "keep my meeting minutes in notion"
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			emb, err := embed.NewBuiltin()
			if err != nil {
				t.Fatal(err)
			}
			e, err := search.NewFromTools(learnTools(), search.Config{Embedder: emb,
				Learn: search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true, Shared: shared}})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if err := e.WaitIndexed(ctx); err != nil {
				t.Fatal(err)
			}
			teamA := []string{"notion:*", "docs:*", "calendar:*"}
			teamB := []string{"calendar:*", "docs:*", "notion:*", "slack:*"}
			for i := range 3 {
				s := fmt.Sprintf("a-%d", i)
				search1(t, e, search.Request{Query: scopedQuery, SessionID: s, Visible: teamA, MaxResults: 10})
				if rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: "notion__append_block", Outcome: search.OutcomeSuccess}); err != nil || !rep.Recorded {
					t.Fatalf("ReportToolUse = %+v, %v", rep, err)
				}
			}
			lifted := func(visible []string) bool {
				for _, r := range search1(t, e, search.Request{Query: scopedQuery, Visible: visible, MaxResults: 10}).References {
					if r.Name == "notion__append_block" {
						return r.Learned != nil
					}
				}
				return false
			}
			if !lifted(teamA) {
				t.Error("the scope that learned is not lifted")
			}
			if got := lifted(teamB); got != shared {
				t.Errorf("another scope lifted = %v, want %v", got, shared)
			}
		})
	}
}

// Close is idempotent and safe to call from several goroutines at once,
// with learning on; searches keep working after it, and a synchronous
// report still rebuilds the learned index in the caller.
func TestCloseIdempotentWithLearning(t *testing.T) {
	e := learningEngine(t, learn.NewStore(learn.Config{}))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := e.Close(); err != nil {
				t.Errorf("Close = %v", err)
			}
		})
	}
	wg.Wait()
	if err := e.Close(); err != nil {
		t.Fatalf("Close again = %v", err)
	}
	teach(t, e, 2, "notion__append_block")
	res := search1(t, e, search.Request{Query: meetingQuery, MaxResults: 10})
	if len(res.References) == 0 || res.References[0].Name != "notion__append_block" {
		t.Errorf("after Close, %q ranks %v first, want notion__append_block learned", meetingQuery, res.References)
	}
}

// A request the confidence gate rejects is answered by keyword search, and
// the learned stage lifts the semantic candidates the gate rejected as it
// lifts a fused search's: one session that used slack__get_user_profile
// after "what time zone is Kenji in? I want to ping him without waking him
// up" lifts it into the answer to "is it too late to ping her right now?
// where is she based", which shares no word with its catalog text (the
// keyword answer does not have it) but which its own vector finds. With
// nothing learned it is not there. (The request named "U04ABCD12" until
// h38-rank2: a user's chat id now matches through "user", and the keyword
// answer has the tool.)
func TestLearnedLiftsWhatTheGateRejected(t *testing.T) {
	e := exampleLearningEngine(t)
	ctx := testenv.Context(t)
	const tool = "slack__get_user_profile"
	req := search.Request{Query: "is it too late to ping her right now? where is she based", MaxResults: 10}
	find := func() (search.Result, *search.Reference) {
		res := search1(t, e, req)
		for i, r := range res.References {
			if r.Name == tool {
				return res, &res.References[i]
			}
		}
		return res, nil
	}
	res, ref := find()
	if res.Metadata.FallbackReason != search.ReasonLowConfidence || ref != nil {
		t.Fatalf("before learning: reason %q, %s %+v; want the gate's rejection and no %s: the test tests nothing",
			res.Metadata.FallbackReason, tool, ref, tool)
	}
	const s = "profile-once"
	if _, err := e.Search(ctx, search.Request{Query: "what time zone is Kenji in? I want to ping him without waking him up", SessionID: s, MaxResults: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: tool, Outcome: search.OutcomeSuccess}); err != nil {
		t.Fatal(err)
	}
	res, ref = find()
	if res.Metadata.FallbackReason != search.ReasonLowConfidence {
		t.Errorf("after learning: reason %q, want %q", res.Metadata.FallbackReason, search.ReasonLowConfidence)
	}
	if ref == nil || ref.Learned == nil {
		t.Fatalf("after one session's use, %q gives %v; want %s lifted by learning, with provenance", req.Query, names(res), tool)
	}
}

// learnFrom records sessions of one search each of query q, after which
// the agent used tool: n sessions' successful uses.
func learnFrom(t *testing.T, e *search.Engine, q, tool string, n int) {
	t.Helper()
	for i := range n {
		learnSession(t, e, fmt.Sprintf("%s/%d", q, i), q, tool)
	}
}

// learnSession has session search q and use tools, in order.
func learnSession(t *testing.T, e *search.Engine, session, q string, tools ...string) {
	t.Helper()
	ctx := testenv.Context(t)
	if _, err := e.Search(ctx, search.Request{Query: q, SessionID: session, MaxResults: 10}); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: session, Tool: tool, Outcome: search.OutcomeSuccess}); err != nil || !rep.Recorded {
			t.Fatalf("ReportToolUse = %+v, %v", rep, err)
		}
	}
}

// TestLearnedServesTheRequestsAction: learning lifts email__send_email
// for "delete the email from the bank" (sessions used it after "send an
// email to the bank ..."), but its learned queries do not say "delete",
// so the lift does not vouch for it to the no-match rules, which flag the
// request; a request that says what they said ("send the bank an email
// ...") is served by it (learnedAgrees).
func TestLearnedServesTheRequestsAction(t *testing.T) {
	e := exampleLearningEngine(t)
	const tool = "email__send_email"
	learnFrom(t, e, "send an email to the bank about my new card", tool, 3)
	// The request's words are read as every other rule reads them
	// (fallback.Words): "deleteEmail" says delete.
	for _, q := range []string{"delete the email from the bank", "deleteEmail from the bank"} {
		res := search1(t, e, search.Request{Query: q, MaxResults: 5})
		if len(res.References) == 0 || res.References[0].Name != tool || res.References[0].Learned == nil {
			t.Fatalf("%q: %v; want %s first, lifted by learning: the test tests nothing", q, names(res), tool)
		}
		if !res.Metadata.NoConfidentMatch {
			t.Errorf("%q: %v not flagged no_confident_match; want it flagged (no learned query of %s says delete)", q, names(res), tool)
		}
	}
}

// TestLearnedGateReadsLearnedQueries: the semantic gate rejects "call the
// dentist" on the catalog's cosines, but a learned query of
// calendar__update_event is a close rewording of it (learnedGatePasses):
// the search is fused and the learned tool lifted — and still flagged
// no_confident_match, since a search the gate passed on learned queries
// gets no vouching from them (the example catalog has no tool that calls).
func TestLearnedGateReadsLearnedQueries(t *testing.T) {
	e := exampleLearningEngine(t)
	const tool = "calendar__update_event"
	req := search.Request{Query: "call the dentist", MaxResults: 5}
	res := search1(t, e, req)
	if res.Metadata.FallbackReason != search.ReasonLowConfidence || !res.Metadata.NoConfidentMatch {
		t.Fatalf("before learning: reason %q, flagged %v; want the gate's rejection, flagged: the test tests nothing", res.Metadata.FallbackReason, res.Metadata.NoConfidentMatch)
	}
	learnFrom(t, e, "push my dentist appointment on Friday to 4pm", tool, 3)
	res = search1(t, e, req)
	if res.Metadata.FallbackReason != "" || !isLifted(res, tool) {
		t.Fatalf("after learning: reason %q, %v; want a fused search (no fallback reason) with %s lifted by learning", res.Metadata.FallbackReason, names(res), tool)
	}
	if !res.Metadata.NoConfidentMatch {
		t.Errorf("after learning: %v not flagged no_confident_match", names(res))
	}
}

// A tool whose learned queries share a word or two of a request is lifted
// by their share of the best learned similarity (bestShare), not by its
// sessions: after four sessions fetched pages ("fetch
// https://go.dev/doc/effective_go …", "get https://example.org/robots.txt")
// with fetch__fetch_url and five got files from github repositories ("get
// go.mod from golang/tools on github", …) with github__get_file_contents,
// "get the page at https://go.dev/doc" keeps fetch__fetch_url first and
// the catalog's second, fetch__web_search, above github__get_file_contents,
// which its five sessions' "get" lifted over it.
func TestLearnedLiftByItsShareOfTheBest(t *testing.T) {
	e := exampleLearningEngine(t)
	req := search.Request{Query: "get the page at https://go.dev/doc", Mode: search.ModeKeyword, MaxResults: 5}
	if got := names(search1(t, e, req)); len(got) < 2 || got[0] != "fetch__fetch_url" || got[1] != "fetch__web_search" {
		t.Fatalf("without learning, %q ranks %v; want fetch__fetch_url, fetch__web_search first", req.Query, got)
	}
	for i, q := range []string{
		"fetch https://go.dev/doc/effective_go and summarise it",
		"fetch https://news.ycombinator.com",
		"get https://example.org/robots.txt",
		"grab the text of https://go.dev/blog/loopvar-preview so I can read it here",
	} {
		learnSession(t, e, fmt.Sprintf("fetch-%d", i), q, "fetch__fetch_url")
	}
	for i, q := range []string{
		"get src/main.go from acme/api on github",
		"get go.mod from golang/tools on github",
		"get docs/index.md from acme/web on github",
		"show README.md from the torvalds/linux repo on github",
		"get the Dockerfile on the main branch of hashicorp/vault",
	} {
		learnSession(t, e, fmt.Sprintf("github-%d", i), q, "github__get_file_contents")
	}
	got := names(search1(t, e, req))
	if got[0] != "fetch__fetch_url" || slices.Index(got, "github__get_file_contents") < slices.Index(got, "fetch__web_search") {
		t.Errorf("after learning, %q ranks %v; want fetch__fetch_url first and fetch__web_search above github__get_file_contents", req.Query, got)
	}
}

// TestLearnedBestByMargin: two sessions searched the web, one after
// "search the web for go release notes": for "google the latest release
// notes for Kubernetes 1.31" fetch__web_search is the request's best
// learned match by a margin, and its lift weighs learnStrongWeight
// (learnMarginShare) though its evidence is two sessions': it ranks
// first, above notes__search_notes, which the catalog's words ("notes")
// rank first. With learnWeight it stays second.
func TestLearnedBestByMargin(t *testing.T) {
	e := exampleLearningEngine(t)
	req := search.Request{Query: "google the latest release notes for Kubernetes 1.31", MaxResults: 5}
	if got := names(search1(t, e, req)); len(got) == 0 || got[0] != "notes__search_notes" {
		t.Fatalf("without learning, %q ranks %v; want notes__search_notes first", req.Query, got)
	}
	learnSession(t, e, "release", "search the web for go release notes", "fetch__web_search")
	learnSession(t, e, "google", "google how to center a div", "fetch__web_search")
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "fetch__web_search" || !isLifted(res, "fetch__web_search") {
		t.Errorf("after learning, %q ranks %v; want fetch__web_search first, lifted", req.Query, got)
	}
}

// TestLearnedSiblingsWords: jira__get_issue's learned queries match
// "find jira issues assigned to me that are in progress" by "jira" and
// "issue", which every jira tool's name says, and jira__search_issues'
// one learned query by "assigned", which only it says: the sibling that
// matches by its server's words alone is not lifted over the one that
// matches by its own (learnSiblingDistinct). Without the rule
// jira__get_issue ranks first.
func TestLearnedSiblingsWords(t *testing.T) {
	e := exampleLearningEngine(t)
	sessions := [][]string{
		{"show jira ticket OPS-123", "jira__get_issue"},
		{"what's the story with INFRA-88? who reported it and where is it at", "jira__get_issue"},
		{"where are we on OPS-1422?", "jira__get_issue"},
		{"show me jira issue OPS-9", "jira__get_issue"},
		{"what does jira issue INFRA-2 say", "jira__get_issue"},
		{"pull up jira issue OPS-5", "jira__get_issue"},
		{"get jira issues WEB-7 and WEB-8", "jira__get_issue"},
		{"look up jira OPS-1500 and post its summary to #ops on slack", "jira__get_issue", "slack__send_message"},
		{"Look up Jira issue OPS-880 and post its summary to Slack channel C05QPL8 for the team.", "jira__get_issue", "slack__send_message"},
		{"I'm on call tonight. Can you tell me which tickets in the PAY project are still open and assigned to me?", "jira__search_issues"},
		{"mark the jira ticket as done", "jira__transition_issue"},
		{"move OPS-77 to review", "jira__transition_issue"},
		{"create a jira ticket for the outage", "jira__create_issue"},
	}
	for n, s := range sessions {
		learnSession(t, e, fmt.Sprintf("s%d", n), s[0], s[1:]...)
	}
	req := search.Request{Query: "find jira issues assigned to me that are in progress", MaxResults: 5}
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "jira__search_issues" {
		t.Errorf("after learning, %q ranks %v; want jira__search_issues first", req.Query, got)
	}
}
