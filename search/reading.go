package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

// reading is one search's request as the request rules read it
// (requestRead, ownActionCoverage and the no-match rules, unserved): what
// several of them derive from the same request and hits — its text
// without filters (request), its ranking words, its opening, its clauses,
// the word evidence of a tool (WordMatches), the best tools they read
// (servingTop), its values' kinds — derived once, when a rule first needs
// it, where each rule derived it again.
//
// The search that makes it (result, newReading) owns it: it is read on
// that search's goroutine only and never shared, so its fields are filled
// lazily without a lock. Its plan stays immutable.
//
// Measured with the other cuts of that step (eleventh session, h37-lat;
// docs/benchmarks.md, "Latency with ~1,000 learned tools"): allocations
// per search without learning 419 → 211 on BenchmarkLearnedSearch, every
// answer the same.
type reading struct {
	*plan
	st *state
	// req is request(plan.query): the query without its filters' tokens
	// in Raw. Its Terms are the plan's, so its ranking words are too.
	req query.Query

	ws      []string // the ranking words (fallback.Index.RankingWords)
	wsRead  bool
	op      fallback.Opening // fallback.RequestOpening(req.Raw)
	opRead  bool
	cls     []fallback.Clause // fallback.RequestClauses(req.Raw)
	clsRead bool
	vals    []fallback.Value // fallback.ValueKinds(req.Raw)
	valRead bool
	labels  map[string]string // kindLabels(req.Raw)
	labRead bool
	// evidence holds WordMatches(req, id) of each tool read, in the order
	// first read (a search reads one to a few).
	evidence []toolEvidence
	// servingTop of the hits whose best are the tools topOf keeps those
	// of them keep says (all: every one); the rules of one search read
	// the same hits, topOf tells if they changed.
	topOf  [unservedDepth]int
	keep   [unservedDepth]bool
	topN   int
	all    bool
	topSet bool
}

// toolEvidence is the word evidence of one tool for the request
// (reading.matches).
type toolEvidence struct {
	id    int
	words []fallback.WordMatch
}

// newReading returns the reading of p's request, with nothing derived yet.
func (st *state) newReading(p *plan) *reading {
	return &reading{plan: p, st: st, req: request(p.query)}
}

// words returns the request's ranking words (fallback.Index.RankingWords
// of the plan's query; the request's are the same, request keeps the
// terms).
func (r *reading) words() []string {
	if !r.wsRead {
		r.ws, r.wsRead = r.st.lex.RankingWords(r.query), true
	}
	return r.ws
}

// opening returns fallback.RequestOpening of the request's text.
func (r *reading) opening() fallback.Opening {
	if !r.opRead {
		r.op, r.opRead = fallback.RequestOpening(r.req.Raw), true
	}
	return r.op
}

// verb returns the opening's Verb and VerbValue (fallback.RequestVerb:
// the request read only up to its verb, unless its opening was read).
func (r *reading) verb() (string, bool) {
	if r.opRead {
		return r.op.Verb, r.op.VerbValue
	}
	return fallback.RequestVerb(r.req.Raw)
}

// clauses returns the clauses of the request's text
// (fallback.RequestClauses), all of them.
func (r *reading) clauses() []fallback.Clause {
	if !r.clsRead {
		r.cls, r.clsRead = slices.Collect(fallback.RequestClauses(r.req.Raw)), true
	}
	return r.cls
}

// values returns fallback.ValueKinds of the request's text.
func (r *reading) values() []fallback.Value {
	if !r.valRead {
		r.vals, r.valRead = fallback.ValueKinds(r.req.Raw), true
	}
	return r.vals
}

// kindLabels returns kindLabels(req.Raw), read once.
func (r *reading) kindLabels() map[string]string {
	if !r.labRead {
		r.labels, r.labRead = kindLabels(r.req.Raw), true
	}
	return r.labels
}

// matches returns fallback.Index.WordMatches of the request and tool id.
// The slice is shared: callers must not modify it.
func (r *reading) matches(id int) []fallback.WordMatch {
	for _, e := range r.evidence {
		if e.id == id {
			return e.words
		}
	}
	ws := r.st.lex.WordMatches(r.req, id)
	r.evidence = append(r.evidence, toolEvidence{id, ws})
	return ws
}

// servingTop returns servingTop(r, hs): which of the unservedDepth best
// of hs it keeps is decided once for the same best tools (the rules of one
// search read the same hits), and the hits are hs's own.
func (r *reading) servingTop(hs []hit) []hit {
	n := min(len(hs), unservedDepth)
	same := r.topSet && r.topN == n
	for k := 0; same && k < n; k++ {
		same = r.topOf[k] == hs[k].id
	}
	if !same {
		top := r.st.servingTop(r, hs)
		r.topSet, r.topN, r.all = true, n, len(top) == n
		for k := range n {
			r.topOf[k], r.keep[k] = hs[k].id, slices.ContainsFunc(top, func(h hit) bool { return h.id == hs[k].id })
		}
	}
	if r.all {
		return hs[:n]
	}
	var out []hit
	for k := range n {
		if r.keep[k] {
			out = append(out, hs[k])
		}
	}
	return out
}

// openingAfter returns fallback.RequestOpening of the request's text after
// its leading server's name (afterServer), the request's opening when
// server is "".
func (r *reading) openingAfter(server string) fallback.Opening {
	if server == "" {
		return r.opening()
	}
	return fallback.RequestOpening(afterServer(r.req.Raw, server))
}
