package fallback

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/analysis"
)

// exactOthersCap is the highest score of the other hits when a query names a
// tool exactly: the named tool scores 1 and the rest at most 0.99, so the
// order is preserved even when another tool covers the query words fully.
const exactOthersCap = 0.99

// scratch is per-query working memory, pooled by the Index.
type scratch struct {
	acc     []float64 // raw score per tool
	touched []int32   // tools with acc != 0

	slot        []float64 // best score per tool for the current query word
	slotTouched []int32   // tools with slot != 0

	pairSeen []uint64 // query term pairs already scored

	cands []candidate // candidates of the current query

	termPos    []int32     // per term ID, scratch marks for feedback and explain (all zero between uses)
	bits       []uint64    // explain's matched-term bitset
	expansions []expansion // feedback terms

	srv            []float64 // normalized score per server (see serverWeight)
	srvTouched     []int32   // servers with srv != 0
	srvSlot        []float64 // best score per server for the current query word
	srvSlotTouched []int32   // servers with srvSlot != 0
}

func (ix *Index) getScratch() *scratch {
	if s, ok := ix.pool.Get().(*scratch); ok && len(s.acc) == len(ix.names) {
		return s
	}
	return &scratch{acc: make([]float64, len(ix.names)), slot: make([]float64, len(ix.names))}
}

func (ix *Index) putScratch(s *scratch) {
	for _, d := range s.touched {
		s.acc[d] = 0
	}
	s.touched = s.touched[:0]
	for _, d := range s.srvTouched {
		s.srv[d] = 0
	}
	s.srvTouched = s.srvTouched[:0]
	ix.pool.Put(s)
}

// qterm is one analyzed query term with its query-side weight; slot groups a
// word with its prefix completions (one slot per query word).
type qterm struct {
	id     int32
	weight float64
	slot   int
}

// plan is a query resolved against the index.
type plan struct {
	terms      []qterm
	required   [][]int32 // each: all of these terms must occur
	excluded   [][]int32 // each: tools with all of these terms are dropped
	impossible bool      // a required word occurs nowhere
	unmatched  []string
	seq        []seqWord // ranking words with index terms, in query order
}

// seqWord is one ranking query word with its own index terms.
type seqWord struct {
	ids    []int32
	weight float64
}

// plan resolves q's terms to index terms.
func (ix *Index) plan(q Query) plan {
	var p plan
	words := analysis.Words()
	slot := 0
	index := make(map[int32]int, 2*len(q.Terms)) // term ID → position in p.terms
	for _, t := range q.Terms {
		ws := words.Analyze(t.Text)
		if t.Excluded {
			var ids []int32
			known := true
			for _, w := range ws {
				wt := ix.wordTerms(w, false)
				if len(wt) == 0 && len(analysis.Standard().Analyze(w)) > 0 {
					known = false
				}
				ids = append(ids, wt...)
			}
			if known && len(ids) > 0 {
				p.excluded = append(p.excluded, ids)
			}
			continue
		}
		var req []int32
		for i, w := range ws {
			var ids, vars []int32
			var analyzed []string
			if t, ok := ix.wordTerm[w]; ok {
				if t >= 0 {
					ids = ix.termIDs[t : t+1 : t+1]
				}
			} else {
				ids, analyzed = ix.analyzeWord(w, false)
			}
			if len(ids) > 0 {
				vars = ix.variants(ids)
			} else if len(analyzed) > 0 {
				vars = ix.variantsOf(analyzed)
				if len(vars) == 0 {
					p.unmatched = append(p.unmatched, w)
					if t.Required {
						p.impossible = true
					}
				}
			}
			weight := queryWordWeight(w)
			if len(ids) > 0 {
				p.seq = append(p.seq, seqWord{ids: ids, weight: weight})
			}
			for _, id := range ids {
				req = append(req, id)
				if j, ok := index[id]; ok {
					p.terms[j].weight = max(p.terms[j].weight, weight)
					continue
				}
				index[id] = len(p.terms)
				p.terms = append(p.terms, qterm{id: id, weight: weight, slot: slot})
			}
			for _, id := range vars {
				if _, ok := index[id]; ok {
					continue
				}
				index[id] = len(p.terms)
				p.terms = append(p.terms, qterm{id: id, weight: weight * variantWeight, slot: slot})
			}
			if t.Prefix && i == len(ws)-1 {
				for _, id := range ix.completions(w) {
					if _, ok := index[id]; ok {
						continue
					}
					index[id] = len(p.terms)
					p.terms = append(p.terms, qterm{id: id, weight: weight * prefixWeight, slot: slot})
				}
			}
			slot++
		}
		if t.Required && len(req) > 0 {
			p.required = append(p.required, req)
		}
	}
	return p
}

// has reports whether tool id contains term t.
func (ix *Index) has(id int, t int32) bool {
	ps := ix.postings[t]
	i, ok := slices.BinarySearchFunc(ps, int32(id), func(p posting, d int32) int { return int(p.doc - d) })
	_ = i
	return ok
}

// hasAll reports whether tool id contains every term of ts.
func (ix *Index) hasAll(id int, ts []int32) bool {
	for _, t := range ts {
		if !ix.has(id, t) {
			return false
		}
	}
	return true
}

// inScope reports whether tool id passes q's server: and category: filters.
func (ix *Index) inScope(q *Query, id int) bool {
	if len(q.Servers) > 0 && !slices.ContainsFunc(q.Servers, func(s string) bool {
		return strings.EqualFold(s, ix.servers[id]) || strings.EqualFold(s, serverPrefix(ix.names[id]))
	}) {
		return false
	}
	if len(q.Categories) > 0 && !slices.ContainsFunc(q.Categories, func(c string) bool {
		return strings.EqualFold(c, ix.categories[id])
	}) {
		return false
	}
	return true
}

// exactName returns the tool that the whole query names, if any: the query
// trimmed of spaces and of one level of surrounding quotes or backticks.
func (ix *Index) exactName(raw string) (int, bool) {
	s := strings.TrimSpace(raw)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" {
		return 0, false
	}
	return ix.Lookup(s)
}

// Keyword ranks tools by BM25F relevance to q.
//
// Scoring: each query word is analyzed like the tools' text
// (analysis.Standard). A word's contribution to a tool is
// weight × IDF × tf/(k1+tf), where tf is the BM25F pseudo frequency over the
// fields (see fieldWeight, fieldB, bm25K1) and weight is the query-side
// weight of the word (see queryWordWeight). A word may match through itself,
// a stem variant (variantWeight) or, for the last word, a completion
// (prefixWeight); it counts once, by its best match. The tool's raw score is
// the sum over query words, plus a phrase bonus for every two adjacent query
// words that are also adjacent in the tool's name, server or description
// (see pairWeight).
//
// Score normalization (Hit.Score): the raw score divided by the raw score of
// an ideal tool for this query — one that matches every query word found in
// the catalog as strongly as the best tool does, and at least as strongly as
// one occurrence in an average-length name. So 1.0 means "covers every known
// query word as well as anything in the catalog, by name"; a tool that
// matches one of four equally rare words scores about 0.25, and a tool that
// matches the only query word in a parameter description scores about 0.3
// however weak its competitors are. Query words found nowhere in the catalog
// are left out of the ideal (no tool could match them) and reported in
// Result.Unmatched: a caller that wants to distrust such a query can look
// there (or try Fuzzy). Then the score is mixed with the score of the
// tool's server as a whole (see serverWeight), and pseudo-relevance feedback
// mixes in a little of the match with the best tool's vocabulary (see
// prfWeight); the result stays in [0,1] and is the ranking key (ties by
// name).
//
// Syntax: +terms must occur (in any field, after analysis), tools with all
// the words of a -term are dropped, server:/category: filter; filters and
// o.Allow apply before Limit and Total. A query that is exactly a tool name
// (possibly in quotes or backticks, case-insensitive) ranks that tool first
// with score 1; the others then score at most exactOthersCap. A query with
// no ranking words (only filters, or empty) lists every tool that passes its
// filters, in name order, with score 1. Keyword never panics.
func (ix *Index) Keyword(q Query, o Options) Result {
	if ix == nil || len(ix.names) == 0 {
		return Result{}
	}
	p := ix.plan(q)
	ok := func(id int) bool {
		if !o.allowed(id) || !ix.inScope(&q, id) {
			return false
		}
		for _, req := range p.required {
			if !ix.hasAll(id, req) {
				return false
			}
		}
		for _, ex := range p.excluded {
			if ix.hasAll(id, ex) {
				return false
			}
		}
		return true
	}
	rk := ranker{names: ix.names}
	exact, hasExact := ix.exactName(q.Raw)
	hasExact = hasExact && ok(exact)

	if p.impossible {
		return Result{Unmatched: p.unmatched}
	}
	// No ranking terms: list the tools that pass the filters.
	if len(p.terms) == 0 {
		if len(p.unmatched) > 0 && !hasExact {
			return Result{Unmatched: p.unmatched}
		}
		var cs []candidate
		for id := range ix.names {
			if ok(id) {
				cs = append(cs, candidate{id: id, raw: 1})
			}
		}
		res := Result{Total: len(cs), Unmatched: p.unmatched}
		for _, c := range rk.top(cs, o.Limit) {
			res.Hits = append(res.Hits, Hit{ID: c.id, Score: 1, Explain: "matches all filters"})
		}
		return res
	}

	s := ix.getScratch()
	defer ix.putScratch(s)
	n := len(ix.names)
	// A query word counts once per tool, by its best-matching term (the
	// word itself, a stem variant or a completion), so raw ≤ norm.
	norm := 0.0
	for i := 0; i < len(p.terms); {
		j := i
		slotMax := 0.0
		for ; j < len(p.terms) && p.terms[j].slot == p.terms[i].slot; j++ {
			t := p.terms[j]
			ps := ix.postings[t.id]
			w := t.weight * idf(len(ps), n)
			for _, post := range ps {
				if v := w * float64(post.sat); v > s.slot[post.doc] {
					if s.slot[post.doc] == 0 {
						s.slotTouched = append(s.slotTouched, post.doc)
					}
					s.slot[post.doc] = v
				}
			}
			slotMax = max(slotMax, w*max(float64(ix.maxSat[t.id]), ix.refSat))
		}
		norm += slotMax
		for _, d := range s.slotTouched {
			if s.acc[d] == 0 {
				s.touched = append(s.touched, d)
			}
			s.acc[d] += s.slot[d]
			s.slot[d] = 0
		}
		s.slotTouched = s.slotTouched[:0]
		i = j
	}
	norm += ix.addPairScores(s, p)

	cs := s.cands[:0]
	defer func() { s.cands = cs[:0] }()
	for _, d := range s.touched {
		if id := int(d); ok(id) && !(hasExact && id == exact) {
			cs = append(cs, candidate{id: id, raw: min(1, s.acc[d]/norm)})
		}
	}
	if len(cs) > 0 {
		ix.smoothByServer(s, p, cs)
		ix.feedback(s, p, cs)
	}
	total := len(cs)
	limit := o.Limit
	if hasExact {
		total++
		if limit > 0 {
			limit--
		}
	}
	res := Result{Total: total, Unmatched: p.unmatched}
	ix.markQuery(s, p)
	defer ix.unmarkQuery(s, p)
	if hasExact {
		res.Hits = append(res.Hits, Hit{ID: exact, Score: 1, Explain: "exact name; " + ix.explain(s, exact, p, s.acc[exact], norm)})
	}
	if hasExact && o.Limit == 1 {
		return res
	}
	for _, c := range rk.top(cs, limit) {
		score := c.raw
		if hasExact {
			score = min(score, exactOthersCap)
		}
		res.Hits = append(res.Hits, Hit{ID: c.id, Score: score, Explain: ix.explain(s, c.id, p, s.acc[c.id], norm)})
	}
	return res
}

// explain lists, per field, the query terms that tool id matched.
func (ix *Index) explain(s *scratch, id int, p plan, raw, norm float64) string {
	b := make([]byte, 0, 128)
	b = append(b, "bm25f="...)
	b = strconv.AppendFloat(b, raw, 'f', 3, 64)
	b = append(b, " ideal="...)
	b = strconv.AppendFloat(b, norm, 'f', 3, 64)
	for f := range numFields {
		// The matched query terms, as a bitset over positions in p.terms
		// (s.termPos holds position+1, see markQuery).
		clear(s.bits)
		any := false
		for _, t := range ix.docTerms[id][f] {
			if i := s.termPos[t] - 1; i >= 0 {
				s.bits[i/64] |= 1 << (i % 64)
				any = true
			}
		}
		if !any {
			continue
		}
		b = append(b, ' ')
		b = append(b, f.String()...)
		b = append(b, '[')
		first := true
		for i, t := range p.terms {
			if s.bits[i/64]&(1<<(i%64)) == 0 {
				continue
			}
			if !first {
				b = append(b, ' ')
			}
			first = false
			b = append(b, ix.termText[t.id]...)
		}
		b = append(b, ']')
	}
	return string(b)
}

// markQuery sets s.termPos[t] to t's position in p.terms plus one, for
// explain; unmarkQuery resets it to zero.
func (ix *Index) markQuery(s *scratch, p plan) {
	if len(s.termPos) != len(ix.termText) {
		s.termPos = make([]int32, len(ix.termText))
	}
	for i, t := range p.terms {
		s.termPos[t.id] = int32(i + 1)
	}
	s.bits = slices.Grow(s.bits[:0], (len(p.terms)+63)/64)[:(len(p.terms)+63)/64]
}

func (ix *Index) unmarkQuery(s *scratch, p plan) {
	for _, t := range p.terms {
		s.termPos[t.id] = 0
	}
}
