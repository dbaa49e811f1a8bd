package search_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
)

func builtin(t testing.TB) embed.Embedder {
	t.Helper()
	b, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func waitIndexed(t testing.TB, e *search.Engine) {
	t.Helper()
	if err := e.WaitIndexed(testenv.Context(t)); err != nil {
		t.Fatalf("indexing: %v", err)
	}
}

func search1(t testing.TB, e *search.Engine, req search.Request) search.Result {
	t.Helper()
	res, err := e.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSemanticFindsWithoutSharedWords: the built-in model's real vectors
// bridge words that keyword search cannot.
func TestSemanticFindsWithoutSharedWords(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	tests := []struct{ query, want string }{
		{"will it rain tomorrow in Berlin", "weather__get_forecast"},
		{"find restaurants near me", "maps__search_places"},
	}
	for _, tt := range tests {
		res := search1(t, e, search.Request{Query: tt.query, Debug: true})
		if res.Metadata.SearchType != search.ModeHybrid || res.Metadata.RequestedSearchType != search.ModeSemantic {
			t.Errorf("%q: answered by %q (requested %q, fallback %q), want hybrid", tt.query, res.Metadata.SearchType, res.Metadata.RequestedSearchType, res.Metadata.FallbackReason)
		}
		if got := names(res); len(got) == 0 || got[0] != tt.want {
			t.Errorf("%q: %v, want %s first", tt.query, got, tt.want)
		}
		if st := res.Metadata.Stages; st.QueryEmbedding <= 0 || st.VectorSearch <= 0 || st.Lexical <= 0 {
			t.Errorf("%q: stages %+v, want every stage timed", tt.query, st)
		}
		if res.Metadata.Confidence <= 0 || !strings.Contains(res.References[0].Explanation, "hybrid") {
			t.Errorf("%q: confidence %v, explanation %q", tt.query, res.Metadata.Confidence, res.References[0].Explanation)
		}
	}
}

func TestSemanticModeWithScopeAndSyntax(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	res := search1(t, e, search.Request{Query: "search for issues", Mode: search.ModeSemantic, Visible: []string{"jira:*"}, MaxResults: 10})
	if len(res.References) == 0 {
		t.Fatal("visible jira:*: no results")
	}
	for _, n := range names(res) {
		if !strings.HasPrefix(n, "jira__") {
			t.Errorf("visible jira:* returned %s", n)
		}
	}
	res = search1(t, e, search.Request{Query: "search issues -jira", MaxResults: 10})
	if len(res.References) == 0 {
		t.Fatal("-jira: no results")
	}
	for _, n := range names(res) {
		if strings.HasPrefix(n, "jira__") {
			t.Errorf("-jira returned %s", n)
		}
	}
	res = search1(t, e, search.Request{Query: "github__create_pull_request"})
	if got := names(res); got[0] != "github__create_pull_request" || res.References[0].Score != 1 {
		t.Errorf("exact name: %v (score %v), want it first with score 1", got, res.References[0].Score)
	}
}

// TestLowConfidenceFallsBack reaches the confidence gate: the query has a
// real vector and real candidates, and a gate stricter than any confidence
// rejects them, so keyword results answer with the computed confidence.
func TestLowConfidenceFallsBack(t *testing.T) {
	snap := loadSnapshot(t, exampleCatalog)
	strict := newEngine(t, snap, search.Config{Embedder: builtin(t), Confidence: &search.Gate{Threshold: 1.01, MarginWeight: 1}})
	waitIndexed(t, strict)
	res := search1(t, strict, search.Request{Query: "weather forecast for tomorrow"})
	if res.Metadata.FallbackReason != search.ReasonLowConfidence || res.Metadata.SearchType != search.ModeKeyword {
		t.Errorf("strict gate: answered by %q with fallback %q, want keyword with low_confidence", res.Metadata.SearchType, res.Metadata.FallbackReason)
	}
	if c := res.Metadata.Confidence; c <= 0 || c > 1 {
		t.Errorf("strict gate: confidence %v, want the gate's computed confidence in (0, 1]", c)
	}
	if got := names(res); len(got) == 0 || !strings.HasPrefix(got[0], "weather__") {
		t.Errorf("strict gate: %v, want a weather tool first", got)
	}
	// The same query through the calibrated gate is confident: hybrid.
	e := newSemanticEngine(t, snap)
	if res := search1(t, e, search.Request{Query: "weather forecast for tomorrow"}); res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("calibrated gate: answered by %q (%q), want hybrid", res.Metadata.SearchType, res.Metadata.FallbackReason)
	}
	// Words the model does not know give a zero query vector: no semantic
	// signal at all, so keyword answers before the gate.
	res = search1(t, e, search.Request{Query: "xqzv jira"})
	if res.Metadata.FallbackReason != search.ReasonLowConfidence || res.Metadata.SearchType != search.ModeKeyword || res.Metadata.Confidence != 0 {
		t.Errorf("zero vector: answered by %q with fallback %q (confidence %v), want keyword with low_confidence", res.Metadata.SearchType, res.Metadata.FallbackReason, res.Metadata.Confidence)
	}
}

func TestIndexWarmingThenSemantic(t *testing.T) {
	f := &embedtest.Faulty{Inner: builtin(t)}
	release := f.HoldDocuments()
	defer release()
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Embedder: f})
	res := search1(t, e, search.Request{Query: "weather forecast"})
	if res.Metadata.FallbackReason != search.ReasonIndexWarming || res.Metadata.SearchType != search.ModeKeyword || len(res.References) == 0 {
		t.Errorf("while warming: %q/%q with %d results, want keyword results with index_warming", res.Metadata.SearchType, res.Metadata.FallbackReason, len(res.References))
	}
	if info := e.Info(); info.IndexState != search.IndexWarming || info.IndexedTools != 0 {
		t.Errorf("info while warming: %+v", info)
	}
	release()
	waitIndexed(t, e)
	res = search1(t, e, search.Request{Query: "weather forecast"})
	if res.Metadata.FallbackReason != "" || res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("after indexing: %q/%q, want hybrid", res.Metadata.SearchType, res.Metadata.FallbackReason)
	}
	info := e.Info()
	if info.IndexState != search.IndexReady || info.IndexedTools != info.ToolCount || info.Embedder != embed.BuiltinModelID || info.Dimensions != 100 {
		t.Errorf("info after indexing: %+v", info)
	}
}

func TestQueryEmbeddingFailures(t *testing.T) {
	f := &embedtest.Faulty{Inner: builtin(t)}
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Embedder: f, QueryTimeout: 20 * time.Millisecond, QueryCacheSize: -1})
	waitIndexed(t, e)

	f.SetQueryDelay(time.Second)
	res := search1(t, e, search.Request{Query: "send an email to bob"})
	if res.Metadata.FallbackReason != search.ReasonEmbedderTimeout || len(res.References) == 0 || res.Metadata.Elapsed > 500*time.Millisecond {
		t.Errorf("slow embedder: %q with %d results after %v, want keyword results with embedder_timeout within the budget",
			res.Metadata.FallbackReason, len(res.References), res.Metadata.Elapsed)
	}
	f.SetQueryDelay(0)
	f.SetErrors(errors.New("connection refused"), nil)
	res = search1(t, e, search.Request{Query: "send an email to bob"})
	if res.Metadata.FallbackReason != search.ReasonEmbedderUnavailable || len(res.References) == 0 {
		t.Errorf("failing embedder: %q with %d results, want keyword results with embedder_unavailable", res.Metadata.FallbackReason, len(res.References))
	}
	f.SetErrors(nil, nil)
	res = search1(t, e, search.Request{Query: "send an email to bob"})
	if res.Metadata.FallbackReason != "" {
		t.Errorf("recovered embedder: fallback %q, want none", res.Metadata.FallbackReason)
	}
}

// TestConnectRetriesInBackground: an embedder that cannot be reached at
// start-up (Ollama not up yet) leaves lexical search answering, and
// semantic search starts once it connects.
func TestConnectRetriesInBackground(t *testing.T) {
	attempts := make(chan struct{}, 10)
	up := make(chan struct{})
	emb := builtin(t)
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Connect: func(ctx context.Context) (embed.Embedder, error) {
		attempts <- struct{}{}
		select {
		case <-up:
			return emb, nil
		default:
			return nil, errors.New("dial tcp 127.0.0.1:11434: connection refused")
		}
	}})
	<-attempts
	res := search1(t, e, search.Request{Query: "weather forecast"})
	if res.Metadata.FallbackReason != search.ReasonEmbedderUnavailable || len(res.References) == 0 {
		t.Errorf("before connecting: %q with %d results, want keyword results with embedder_unavailable", res.Metadata.FallbackReason, len(res.References))
	}
	close(up)
	waitIndexed(t, e)
	if res := search1(t, e, search.Request{Query: "weather forecast"}); res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("after connecting: %q/%q, want hybrid", res.Metadata.SearchType, res.Metadata.FallbackReason)
	}
}

func TestUpsertEmbedsOnlyChangedTools(t *testing.T) {
	c := &embedtest.Counting{Inner: builtin(t)}
	snap := loadSnapshot(t, exampleCatalog)
	e := newEngine(t, snap, search.Config{Embedder: c})
	waitIndexed(t, e)
	if got := c.Texts(); got != snap.Len() {
		t.Fatalf("start-up embedded %d texts, want %d", got, snap.Len())
	}
	c.Seen()
	tool, _ := snap.Get("weather__get_alerts")
	changed := tool[0]
	changed.Description = "Get severe weather warnings such as hurricanes and tornadoes for a region."
	_, err := e.Upsert(context.Background(), []search.Tool{changed, {Name: "pager__page_oncall", Description: "Page the on-call engineer."}, snap.Tool(0)})
	if err != nil {
		t.Fatal(err)
	}
	seen := c.Seen()
	if len(seen) != 2 || !strings.Contains(seen[0]+seen[1], "hurricanes") || !strings.Contains(seen[0]+seen[1], "on-call") {
		t.Errorf("upsert embedded %d texts %q, want the 2 changed ones", len(seen), seen)
	}
	res := search1(t, e, search.Request{Query: "hurricane warning"})
	if got := names(res); len(got) == 0 || got[0] != "weather__get_alerts" || res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("after upsert: %v (%s), want weather__get_alerts first from hybrid search", got, res.Metadata.SearchType)
	}
	c.Seen() // the query's embedding
	if _, err := e.Delete(context.Background(), []string{"pager__page_oncall"}); err != nil {
		t.Fatal(err)
	}
	if seen := c.Seen(); len(seen) != 0 {
		t.Errorf("delete embedded %q, want nothing", seen)
	}
	if info := e.Info(); info.IndexedTools != snap.Len() {
		t.Errorf("after delete: %d tools indexed, want %d", info.IndexedTools, snap.Len())
	}
}

// TestUnembeddedToolKeepsSemantic: a tool the embedder cannot embed yet
// does not turn every search into keyword search; it is found through the
// keyword half of fusion, and the index recovers as soon as the embedder
// answers again, without waiting for the indexer's backoff.
func TestUnembeddedToolKeepsSemantic(t *testing.T) {
	f := &embedtest.Faulty{Inner: builtin(t)}
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{Embedder: f})
	waitIndexed(t, e)
	f.SetErrors(nil, errors.New("documents fail"))
	tool := search.Tool{Name: "lights__turn_off", Server: "lights", Description: "Turn off the lights of a room.", InputSchema: []byte(`{"type":"object"}`)}
	if _, err := e.Upsert(context.Background(), []search.Tool{tool}); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "the index degraded", func() bool { return e.Info().IndexState == search.IndexDegraded })
	if info := e.Info(); info.IndexState != search.IndexDegraded || info.IndexedTools != info.ToolCount-1 {
		t.Fatalf("info with one tool unembedded: %+v, want degraded with all but one indexed", info)
	}
	res := search1(t, e, search.Request{Query: "weather forecast for tomorrow"})
	if res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("one tool unembedded: answered by %q (%q), want hybrid", res.Metadata.SearchType, res.Metadata.FallbackReason)
	}
	res = search1(t, e, search.Request{Query: "turn off the lights"})
	if got := names(res); len(got) == 0 || got[0] != "lights__turn_off" {
		t.Errorf("the unembedded tool: %v, want it first through keyword fusion", got)
	}
	// The embedder recovers; a search nudges the indexer, which embeds the
	// tool at once (its backoff is at least a second).
	f.SetErrors(nil, nil)
	start := time.Now()
	search1(t, e, search.Request{Query: "send an email"})
	waitIndexed(t, e)
	for e.Info().IndexState != search.IndexReady && time.Since(start) < 10*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	if info := e.Info(); info.IndexState != search.IndexReady || info.IndexedTools != info.ToolCount {
		t.Errorf("after recovery: %+v, want ready with every tool indexed", info)
	}
}
