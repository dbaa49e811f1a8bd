package fallback

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/analysis"
)

// prefixWeight is the weight of a completion of the query's last word
// relative to the word itself: "send sla" also matches "slack", at 0.5 of
// the weight a literal "slack" would have.
const prefixWeight = 0.5

// maxPrefixExpansions caps the completions of the last word, shortest
// first: "re" in a large catalog would otherwise expand to hundreds of words.
// Example: with 16, "sla" expands to at most 16 words such as "slack",
// "slash", "slate".
const maxPrefixExpansions = 16

// minPrefixLen is the shortest last word that is expanded as a prefix
// (in bytes): "s" or "se" would match most of the catalog.
const minPrefixLen = 3

// minVariantLen is the shortest stem (in bytes) that is matched with its
// extensions by variants: "photo" ~ "photograph", but "stat" is not matched
// with "statu" (status).
const minVariantLen = 5

// maxVariants caps the variants of one query term.
const maxVariants = 8

// variantWeight is the weight of a stem variant (see variants) relative to
// the query word itself. Example: "multiplication" (stem "multipl") matches
// "multiply" (stem "multipli") at 0.2 of its weight; measured on the bench
// dev sets, 0.2 gains about +0.004 nDCG@10 and 0.6 already loses.
const variantWeight = 0.2

// Pseudo-relevance feedback (see feedback): the prfTerms terms that best
// characterize the top prfDocs tools form a second query, and a tool's
// score becomes (1-prfWeight) × its own score + prfWeight × its score for
// that second query. A request that needs several tools of one server ("log
// me out, then fetch order 456") thereby lifts the best match's siblings
// (team_petstore__getorderbyid shares "petstore", "team"... with
// team_petstore__logoutuser) above other servers' look-alikes. Feedback only
// re-ranks tools that match the query; it never adds one.
//
// Worked example: a tool with score 0.60 that shares half of the feedback
// terms' weight scores 0.9 × 0.60 + 0.1 × 0.5 = 0.59; one with 0.60 that
// shares none drops to 0.54. Measured on the bench dev sets (nDCG@10):
// +0.01 on the multi-tool sets, neutral on the single-tool one; feedback
// from 2–3 tools, or prfWeight ≥ 0.15, loses (the 2nd and 3rd tools are too
// often wrong).
const (
	prfDocs   = 1
	prfTerms  = 20
	prfWeight = 0.1
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
}

// plan resolves q's terms to index terms.
func (ix *Index) plan(q Query) plan {
	var p plan
	words := analysis.Words()
	slot := 0
	index := map[int32]int{} // term ID → position in p.terms
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
			ids := ix.wordTerms(w, false)
			var vars []int32
			if len(ids) > 0 {
				vars = ix.variants(ids)
			} else if analyzed := analysis.Standard().Analyze(w); len(analyzed) > 0 {
				vars = ix.variantsOf(analyzed)
				if len(vars) == 0 {
					p.unmatched = append(p.unmatched, w)
					if t.Required {
						p.impossible = true
					}
				}
			}
			weight := queryWordWeight(w)
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

// completions returns the term IDs of up to maxPrefixExpansions vocabulary
// words that start with w (w itself excluded), shortest first.
func (ix *Index) completions(w string) []int32 {
	if len(w) < minPrefixLen {
		return nil
	}
	i, _ := slices.BinarySearch(ix.words, w)
	var cands []string
	for ; i < len(ix.words) && strings.HasPrefix(ix.words[i], w); i++ {
		if ix.words[i] != w {
			cands = append(cands, ix.words[i])
		}
	}
	slices.SortStableFunc(cands, func(a, b string) int { return len(a) - len(b) })
	var ids []int32
	seen := map[int32]bool{}
	for _, c := range cands {
		if len(ids) == maxPrefixExpansions {
			break
		}
		if t := ix.wordTerm[c]; t >= 0 && !seen[t] {
			seen[t] = true
			ids = append(ids, t)
		}
	}
	return ids
}

// variants returns the terms that extend one of ids or that one of ids
// extends, when the shorter of the two has at least minVariantLen bytes:
// stems of one word family that the stemmer left apart ("multipl" of
// "multiplication" and "multipli" of "multiply"; "photo" and "photograph").
func (ix *Index) variants(ids []int32) []int32 {
	terms := make([]string, len(ids))
	for i, id := range ids {
		terms[i] = ix.termText[id]
	}
	return ix.variantsOf(terms)
}

// variantsOf is variants for analyzed terms, which need not be in the index.
func (ix *Index) variantsOf(terms []string) []int32 {
	var out []int32
	for _, t := range terms {
		if len(t) < minVariantLen {
			continue
		}
		// Terms that t is a prefix of.
		i, _ := slices.BinarySearch(ix.sortedTerms, t)
		for ; i < len(ix.sortedTerms) && strings.HasPrefix(ix.sortedTerms[i], t) && len(out) < maxVariants; i++ {
			if v := ix.sortedTerms[i]; v != t {
				out = append(out, ix.terms[v])
			}
		}
		// Terms that are a prefix of t.
		for n := minVariantLen; n < len(t); n++ {
			if v, ok := ix.terms[t[:n]]; ok {
				out = append(out, v)
			}
		}
	}
	return out
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
// the sum over query words.
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
// there (or try Fuzzy). Then pseudo-relevance feedback mixes in a little of
// the match with the best tool's vocabulary (see prfWeight); the result
// stays in [0,1] and is the ranking key (ties by name).
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

	cs := make([]candidate, 0, len(s.touched))
	for _, d := range s.touched {
		if id := int(d); ok(id) && !(hasExact && id == exact) {
			cs = append(cs, candidate{id: id, raw: min(1, s.acc[d]/norm)})
		}
	}
	if len(cs) > 0 {
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
	if hasExact {
		res.Hits = append(res.Hits, Hit{ID: exact, Score: 1, Explain: "exact name; " + ix.explain(exact, p, s.acc[exact], norm)})
	}
	if hasExact && o.Limit == 1 {
		return res
	}
	for _, c := range rk.top(cs, limit) {
		score := c.raw
		if hasExact {
			score = min(score, exactOthersCap)
		}
		res.Hits = append(res.Hits, Hit{ID: c.id, Score: score, Explain: ix.explain(c.id, p, s.acc[c.id], norm)})
	}
	return res
}

// explain lists, per field, the query terms that tool id matched.
func (ix *Index) explain(id int, p plan, raw, norm float64) string {
	b := make([]byte, 0, 128)
	b = append(b, "bm25f="...)
	b = strconv.AppendFloat(b, raw, 'f', 3, 64)
	b = append(b, " ideal="...)
	b = strconv.AppendFloat(b, norm, 'f', 3, 64)
	for f := field(0); f < numFields; f++ {
		first := true
		for _, t := range p.terms {
			if !slices.Contains(ix.docTerms[id][f], t.id) {
				continue
			}
			if first {
				b = append(b, ' ')
				b = append(b, f.String()...)
				b = append(b, '[')
				first = false
			} else {
				b = append(b, ' ')
			}
			b = append(b, ix.termText[t.id]...)
		}
		if !first {
			b = append(b, ']')
		}
	}
	return string(b)
}

// feedback re-ranks the candidates with pseudo-relevance feedback: the
// prfTerms terms that best characterize the top prfDocs candidates (field
// share × IDF, query terms excluded) form a second query; each candidate's
// score becomes (1-prfWeight) × its score + prfWeight × its normalized score
// for that second query. Only candidates (tools that match the query
// itself) are re-ranked: feedback never adds a tool.
func (ix *Index) feedback(s *scratch, p plan, cs []candidate) {
	rk := ranker{names: ix.names}
	top := rk.top(slices.Clone(cs), prfDocs)
	n := len(ix.names)
	inQuery := make(map[int32]bool, len(p.terms))
	for _, t := range p.terms {
		inQuery[t.id] = true
	}
	e := map[int32]float64{}
	for _, c := range top {
		r := c.raw / top[0].raw
		total := 0.0
		for f := field(0); f < numFields; f++ {
			total += fieldWeight[f] * float64(len(ix.docTerms[c.id][f]))
		}
		if total == 0 {
			continue
		}
		for f := field(0); f < numFields; f++ {
			for _, t := range ix.docTerms[c.id][f] {
				if !inQuery[t] {
					e[t] += r * fieldWeight[f] / total * idf(len(ix.postings[t]), n)
				}
			}
		}
	}
	type expansion struct {
		id int32
		w  float64
	}
	ets := make([]expansion, 0, len(e))
	for t, w := range e {
		ets = append(ets, expansion{t, w})
	}
	slices.SortFunc(ets, func(a, b expansion) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	if len(ets) > prfTerms {
		ets = ets[:prfTerms]
	}
	if len(ets) == 0 {
		return
	}
	fb := map[int32]float64{}
	norm := 0.0
	for _, x := range ets {
		ps := ix.postings[x.id]
		w := x.w / ets[0].w * idf(len(ps), n)
		norm += w * max(float64(ix.maxSat[x.id]), ix.refSat)
		for _, post := range ps {
			if s.acc[post.doc] != 0 {
				fb[post.doc] += w * float64(post.sat)
			}
		}
	}
	for i := range cs {
		cs[i].raw = (1-prfWeight)*cs[i].raw + prfWeight*min(1, fb[int32(cs[i].id)]/norm)
	}
}
