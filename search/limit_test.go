package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/search"
)

// TestKeywordFirstAnswerAnyLimit: a search's answer at max_results n is
// the first n of its answer at 10, in every mode, so the first tool does
// not depend on max_results. Keyword mode read only max_results hits, so
// at max_results 1 the verb and question rules had one hit to reorder:
// "What's in the /srv/uploads folder?" answered notes__create_note at 1
// and filesystem__list_directory at 2 and 5 (ruleDepth).
func TestKeywordFirstAnswerAnyLimit(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	queries, err := evaluation.LoadQueries("testdata/eval/example/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"What's in the /srv/uploads folder?"}
	for _, q := range queries {
		texts = append(texts, q.Query)
	}
	ctx := context.Background()
	for _, mode := range []search.Mode{search.ModeKeyword, search.ModeDefault} {
		for _, q := range texts {
			full, err := e.Search(ctx, search.Request{Query: q, Mode: mode, MaxResults: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3, 5} {
				res, err := e.Search(ctx, search.Request{Query: q, Mode: mode, MaxResults: n})
				if err != nil {
					t.Fatal(err)
				}
				got, want := names(res), names(full)
				if !slices.Equal(got, want[:min(n, len(want))]) {
					t.Errorf("mode %q, %q: max %d answers %v, max 10 begins %v", mode, q, n, got, want)
				}
			}
		}
	}
}
