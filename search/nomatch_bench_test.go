package search

import (
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
)

// BenchmarkNoMatchRules measures what the no-match rules (unserved, as
// result runs them on a confident search, with the explanation of the rule
// that fires) cost one search, alone: each dev set's labelled queries
// searched once in keyword mode over its catalog, then the rules run on
// each query's calibrated hits, one query per op:
//
//	go test -run '^$' -bench NoMatchRules -benchmem -count 3 ./search
func BenchmarkNoMatchRules(b *testing.B) {
	for _, set := range []string{"bfcl", "stabletoolbench"} {
		b.Run(set, func(b *testing.B) {
			st, searches := keywordSearches(b, set)
			type input struct {
				p  *plan
				hs []hit
			}
			var in []input
			for _, x := range searches {
				if hs, _ := calibrate(x.m.hits, x.m, x.p.exact); len(hs) > 0 {
					in = append(in, input{x.p, hs})
				}
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				x := in[i%len(in)]
				st.unserved(st.newReading(x.p), x.hs)
			}
		})
	}
}

// keywordSearch is a labelled query's plan and its keyword matches
// (keywordSearches).
type keywordSearch struct {
	p *plan
	m matches
}

// keywordSearches searches each labelled query of the dev set set once
// in keyword mode over its catalog (learning off) and returns the
// engine's state with each query's plan and matches: what a benchmark of
// a stage after them (result's) reads.
func keywordSearches(b *testing.B, set string) (*state, []keywordSearch) {
	b.Helper()
	qs, err := evaluation.LoadQueries(evaltest.Bench(b, set+"/queries.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	e := devSetEngine(b, set)
	st := e.state.Load()
	var out []keywordSearch
	for _, q := range qs {
		p, err := st.newPlan(Request{Query: q.Query, Mode: ModeKeyword, MaxResults: 10}, e.limits())
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, keywordSearch{p, e.learnedKeyword(st, p)})
	}
	return st, out
}

// devSetEngine returns an engine (built-in defaults, learning off) over
// the tools of the dev set set (../shared/bench/SET/tools.jsonl), closed
// when b ends.
func devSetEngine(b *testing.B, set string) *Engine {
	b.Helper()
	tools, err := catalog.Load(catalog.Source{Path: evaltest.Bench(b, set+"/tools.jsonl")})
	if err != nil {
		b.Fatal(err)
	}
	e, err := NewFromTools(tools, Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e
}
