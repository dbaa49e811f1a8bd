package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/learn"
)

// The learned vectors' rules, stage by stage: a tool that the catalog's
// own text did not find joins the semantic candidates through its learned
// queries' vectors only with learnJoinEvidence (or learnJoinSpread), never outside the
// request's scope, and with its provenance.
func TestLearnedVectors(t *testing.T) {
	const (
		tool  = "notion__append_block"
		query = "keep my meeting minutes" // no word of any tool: "save" would find docs__write_page by "write" (fallback.VerbSynonyms)
	)
	tools := []Tool{
		{Name: tool, Server: "notion", Description: "Interact with the Notion API."},
		{Name: "docs__write_page", Server: "docs", Description: "Write a page of text to a document."},
		{Name: "weather__get_forecast", Server: "weather", Description: "Get the weather forecast for a city."},
	}
	tests := []struct {
		name     string
		sessions int
		visible  []string
		want     bool
	}{
		{name: "one session is not enough to join", sessions: 1},
		// Two sessions' weight has decayed a little below 2 by the time
		// the second is recorded; canJoin allows for that (learnJoinSlack).
		{name: "two sessions join", sessions: 2, want: true},
		{name: "never outside the scope", sessions: 2, visible: []string{"docs:*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emb, err := embed.NewBuiltin()
			if err != nil {
				t.Fatal(err)
			}
			e := learnedEngine(t, tools, emb, LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true, Shared: true})
			ctx := context.Background()
			for i := range tt.sessions {
				s := fmt.Sprintf("s%d", i)
				if _, err := e.Search(ctx, Request{Query: query, SessionID: s, MaxResults: 10}); err != nil {
					t.Fatal(err)
				}
				if rep, err := e.ReportToolUse(ctx, ToolUse{SessionID: s, Tool: tool, Outcome: OutcomeSuccess}); err != nil || !rep.Recorded {
					t.Fatalf("ReportToolUse = %+v, %v", rep, err)
				}
			}
			st := e.state.Load()
			p, err := st.newPlan(Request{Query: query, Visible: tt.visible, MaxResults: 10}, e.limits())
			if err != nil {
				t.Fatal(err)
			}
			raw, ok := e.queries.get(p.query.RankingText())
			if !ok {
				t.Fatal("the query's vector is not cached")
			}
			p.learned = e.beginLearned(st, p, false)
			got := e.learnedVectors(st, p, project(raw, st.sem.pc), nil, func(int) bool { return false })
			id, _ := st.snap.Lookup(tool)
			found := false
			for _, h := range got {
				if h.id != id {
					continue
				}
				found = true
				if h.learned == nil || h.learned.Signal != SignalLearnedVectors || !canJoin(h.learned.Evidence) || h.score < learnedVectorJoin {
					t.Errorf("%s joined as %+v (learned %+v); want its learned_vectors provenance", tool, h, h.learned)
				}
			}
			if found != tt.want {
				t.Errorf("%s among the candidates: %v, want %v (candidates %+v)", tool, found, tt.want, got)
			}
		})
	}
}
