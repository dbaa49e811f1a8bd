package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/search"
)

// TestModelFacingFloor checks the relevance floor of model-facing answers
// on the example catalog: no padding with other servers' tools, nothing
// revealed by an answer without a confident match, and the answer's best
// tool kept wherever the gRPC default ranks a relevant tool first.
func TestModelFacingFloor(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	ctx := context.Background()

	res, err := e.Search(ctx, search.Request{Query: "weather forecast", ForModel: true, SessionID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.References) == 0 || res.References[0].Name != "weather__get_forecast" {
		t.Fatalf("weather forecast: %v; want weather__get_forecast first", names(res))
	}
	for _, r := range res.References {
		if !strings.HasPrefix(r.Name, "weather__") {
			t.Errorf("weather forecast returned %s to the model", r.Name)
		}
	}
	if res.TotalMatches != len(res.References) {
		t.Errorf("total_matches %d, want the %d results that clear the floor", res.TotalMatches, len(res.References))
	}

	res, err = e.Search(ctx, search.Request{Query: "buy bitcoin", ForModel: true, SessionID: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := revealedNames(t, e, "b"); len(got) != 0 {
		t.Errorf("buy bitcoin revealed %v (answer %v)", got, names(res))
	}
	// The gRPC API's default (no floor) still returns and reveals what it
	// did: that caller asked for it.
	res, err = e.Search(ctx, search.Request{Query: "buy bitcoin", SessionID: "b2"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Metadata.NoConfidentMatch || len(res.References) == 0 || len(revealedNames(t, e, "b2")) != len(res.References) {
		t.Errorf("gRPC default for buy bitcoin: %d references, no_confident_match %v", len(res.References), res.Metadata.NoConfidentMatch)
	}
	// Asking for a tool by name reveals it.
	if _, err := e.Search(ctx, search.Request{Query: "select:fetch__fetch_url", ForModel: true, SessionID: "b"}); err != nil {
		t.Fatal(err)
	}
	if got := revealedNames(t, e, "b"); len(got) != 1 || got[0] != "fetch__fetch_url" {
		t.Errorf("select: revealed %v, want [fetch__fetch_url]", got)
	}

	queries, err := evaluation.LoadQueries("testdata/eval/example/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		all, err := e.Search(ctx, search.Request{Query: q.Query})
		if err != nil {
			t.Fatal(err)
		}
		shown, err := e.Search(ctx, search.Request{Query: q.Query, ForModel: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(shown.References) > len(all.References) {
			t.Errorf("%s: the floor added results: %v over %v", q.ID, names(shown), names(all))
		}
		if len(all.References) > 0 && evaluation.Score(q, names(all)[:1]).Recall1 > 0 && (len(shown.References) == 0 || shown.References[0].Name != all.References[0].Name) {
			t.Errorf("%s: the floor dropped the relevant best tool %s: %v", q.ID, all.References[0].Name, names(shown))
		}
	}
}
