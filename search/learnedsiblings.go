package search

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

// A learned lift compares the request with each tool's learned queries
// word by word (the learned index's BM25), and a tool's learned queries
// say its server's words as often as its own: "show jira ticket
// OPS-123" and "look up jira issue OPS-880" taught jira__get_issue
// "jira" and "issue", which every jira tool's name says. Among one
// server's tools those words tell nothing apart, and yet they lifted
// jira__get_issue over jira__search_issues for "find jira issues
// assigned to me that are in progress", where only the latter's learned
// query ("which tickets … are still open and assigned to me") says what
// sets it apart from its siblings. The naive stand-in (each learned
// query appended to the tool's description, searched with the catalog's
// BM25F) gets this for free: a word every sibling's name and server
// field already has adds little to any of them.
//
// siblingTerms weighs each learned tool's learned terms by how well they
// tell it from the other catalog tools of its server (its siblings), as
// idf within the server: a term only this tool's learned queries say
// weighs 1, one every sibling's name or learned queries say nearly 0. A
// search (siblingDemote) sums, for a learned candidate, the weights of the
// request's terms its learned queries have: its distinct match. Where the
// candidate with the largest learned similarity of its server's
// candidates matches the request mostly by its server's words (a distinct
// match below learnSiblingDistinct) and a sibling candidate matches it by
// words of its own (at least learnSiblingDistinct), that candidate's
// similarity is scaled by its distinct match's share of
// learnSiblingDistinct. It only lowers one similarity; the scale of every
// other lift (bestShare's best) and the best learned match by a margin
// (learnMarginShare) read the similarities before it.

// learnSiblingDistinct is the distinct match (siblingTerms: the summed
// within-server idf weights, 1 for a term only the tool's learned queries
// say, of the request's terms in its learned queries) below which a
// server's most similar learned candidate is demoted in favour of a
// sibling candidate that has at least this much (siblingDemote). Measured
// on the example pool's replay (pool.sh: ratio of learning's nDCG@10 gain
// to the naive stand-in's, even / odd; keyword in brackets), main at
// 15019e9 → with the rule: .50 / .97 → .56 / .97 (.33 / 1.04, the
// same); at 16feb20 .54 / .92 → .62 / .92 (.33 / 1.12, the same); the
// dev replays the same but bfcl's even half with learning .7747 → .7746
// (keyword .7663 → .7656). With the share offset by 0.1, (d+0.1)/(τ+0.1),
// at 15019e9: 0.5 and 0.6 .53 / .97 (.33 / 1.04); 0.8 and 1.0 .56 / .96
// (.33 / 1.02, .33 / 1.01), and 0.8 let one more of the pool's no-answer
// requests through with learning (keyword mode). Docs:
// docs/benchmarks.md, "Siblings' words" (fourteenth session).
const learnSiblingDistinct = 0.7

// siblingTerms holds, for each tool of a learned index (by its position),
// the IDs (in learnedTerms' numbering, sorted) of its learned queries'
// terms and their within-server weights, and its server's number among
// the index's servers with siblings; -1 (and no terms) for a tool whose
// server has no other learned tool. Built with the index (immutable).
type siblingTerms struct {
	server []int32
	ids    [][]int32
	w      [][]float32
}

// newSiblingTerms computes siblingTerms for the learned tools names (with
// their terms in t) against snap, the catalog they were learned on: a
// tool's server is its catalog Server, and its siblings are every catalog
// tool of that server, learned or not. A term's weight is its idf among
// the server's n tools, df of which have it in their name, their server
// or (learned ones) their learned queries: ln(1 + (n−df+½)/(df+½)),
// scaled so that df = 1 weighs 1.
func newSiblingTerms(t *learnedTerms, names []string, snap *catalog.Snapshot) siblingTerms {
	st := siblingTerms{server: make([]int32, len(names)), ids: make([][]int32, len(names)), w: make([][]float32, len(names))}
	learned := map[string][]int{} // server → its learned tools
	for i, name := range names {
		st.server[i] = -1
		if snap == nil {
			continue
		}
		if id, ok := snap.Lookup(name); ok {
			if s := snap.Tool(id).Server; s != "" {
				learned[s] = append(learned[s], i)
			}
		}
	}
	sibled := map[string]bool{}
	for s, tools := range learned {
		if len(tools) >= 2 {
			sibled[s] = true
		}
	}
	if len(sibled) == 0 {
		return st
	}
	// The terms of each sibling's name and server, in t's numbering (a
	// term no learned query has matters to no distinct match).
	named := map[string][][]int32{}
	byName := map[string]int{}
	for _, tool := range snap.All() {
		if !sibled[tool.Server] {
			continue
		}
		var ids []int32
		for _, term := range fallback.Terms(strings.ReplaceAll(tool.Name, "_", " ") + " " + tool.Server) {
			if id, ok := t.ids[term]; ok {
				ids = append(ids, id)
			}
		}
		byName[tool.Name] = len(named[tool.Server])
		named[tool.Server] = append(named[tool.Server], ids)
	}
	g := int32(0)
	for s := range sibled {
		sibs := named[s]
		has := make([][]int32, len(sibs)) // each sibling's distinct terms
		copy(has, sibs)
		for _, i := range learned[s] {
			k := byName[names[i]]
			has[k] = append(slices.Clone(has[k]), distinctTerms(t.tool(i))...)
		}
		df := map[int32]int{}
		for k := range has {
			slices.Sort(has[k])
			has[k] = slices.Compact(has[k])
			for _, id := range has[k] {
				df[id]++
			}
		}
		n := float64(len(sibs))
		top := math.Log(1 + (n-0.5)/1.5)
		for _, i := range learned[s] {
			st.server[i] = g
			ids := distinctTerms(t.tool(i))
			st.ids[i], st.w[i] = ids, make([]float32, len(ids))
			for k, id := range ids {
				d := float64(df[id])
				st.w[i][k] = float32(math.Log(1+(n-d+0.5)/(d+0.5)) / top)
			}
		}
		g++
	}
	return st
}

// distinctTerms returns the term IDs of a tool's learned queries (rec, as
// learnedTerms.tool returns it), each once, sorted.
func distinctTerms(rec []int32) []int32 {
	var ids []int32
	for len(rec) > 0 {
		_, q, rest := nextQuery(rec)
		ids = append(ids, q...)
		rec = rest
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// distinct returns learned tool i's distinct match of the request's
// terms set: the weights of those of its terms that set has.
func (st siblingTerms) distinct(i int, set termSet) float64 {
	d := 0.0
	for k, id := range st.ids[i] {
		if set[id/64]&(1<<(id%64)) != 0 {
			d += float64(st.w[i][k])
		}
	}
	return d
}

// siblingDemote scales, in kws (the similarities of the learned
// candidates cands, by position), the similarity of each server's most
// similar candidate whose distinct match of the request's terms set is
// below learnSiblingDistinct when a sibling candidate's is at least that,
// by its share of it. When debug, notes[k] says why candidate k was
// scaled (notes has len(cands) entries, or is nil without debug).
func (st siblingTerms) siblingDemote(cands []fallback.Hit, set termSet, kws []float64, notes []string) {
	if set == nil {
		return
	}
	// done marks the candidates whose server was read, one per candidate:
	// on the stack for the learned keyword search's usual depth
	// (learnedKeywordDepth), allocated for more (a caller's larger depth
	// must not panic here).
	var doneBuf [learnedKeywordDepth]bool
	var done []bool
	if len(cands) <= len(doneBuf) {
		done = doneBuf[:len(cands)]
	} else {
		done = make([]bool, len(cands))
	}
	for k, c := range cands {
		if done[k] || kws[k] <= 0 || c.ID >= len(st.server) || st.server[c.ID] < 0 {
			continue
		}
		g := st.server[c.ID]
		// The server's most similar candidate.
		top, n := k, 0
		for j := k; j < len(cands); j++ {
			if kws[j] > 0 && cands[j].ID < len(st.server) && st.server[cands[j].ID] == g {
				done[j] = true
				n++
				if kws[j] > kws[top] {
					top = j
				}
			}
		}
		if n < 2 {
			continue
		}
		d := st.distinct(cands[top].ID, set)
		if d >= learnSiblingDistinct {
			continue
		}
		for j := k; j < len(cands); j++ {
			if j == top || kws[j] <= 0 || cands[j].ID >= len(st.server) || st.server[cands[j].ID] != g {
				continue
			}
			if o := st.distinct(cands[j].ID, set); o >= learnSiblingDistinct {
				f := d / learnSiblingDistinct
				if notes != nil {
					notes[top] = fmt.Sprintf("; its server's words: distinct match %.2f, a sibling's %.2f: similarity × %.2f", d, o, f)
				}
				kws[top] *= f
				break
			}
		}
	}
}
