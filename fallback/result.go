package fallback

import (
	"cmp"
	"slices"
)

// Hit is one matching tool.
type Hit struct {
	// ID is the tool's position in the slice given to NewIndex.
	ID int
	// Score is in [0, 1], higher is better; see each mode for its meaning.
	Score float64
	// Explain says, for debugging, which fields and terms matched and how
	// the score was computed. Its format is for humans and may change. It
	// is filled only when the search's Options.Explain is set, and is ""
	// otherwise.
	Explain string
}

// Options restrict and cut a search. The zero value means: every tool, no
// limit.
type Options struct {
	// Limit is the maximum number of hits returned; 0 or less means no
	// limit. Select ignores it.
	Limit int
	// Allow, when non-nil, reports whether a tool may appear in results
	// (scoping). It is applied before limiting and counting, so Total never
	// counts a tool the caller may not see. It must be safe to call from the
	// searching goroutine; it is never retained.
	Allow func(id int) bool
	// Explain asks for Hit.Explain to be filled (debug requests). Building
	// explanations costs a string per hit, so it is off by default: with
	// false, every Hit.Explain is "". Rankings and scores do not depend on
	// it.
	Explain bool
	// Unordered tells Keyword that the caller reads Hits as a set: they
	// may come in any order. They are the same hits as without it (the
	// best Limit, and at a tie on the cut the same ones), found without
	// ordering them: in linear time when no tie straddles the cut, or, in
	// an index whose tools have no names (ties are then frequent), with
	// the heap alone, its comparisons written for scores (topUnnamed).
	Unordered bool
	// NoCoverage tells Keyword that the caller does not read
	// Result.Coverage (it reads WordCoverage, or neither): Keyword then
	// leaves Coverage 0 and need not tell the names of places and people
	// (locativeNames) from the other words the catalog does not know,
	// which only Coverage leaves out. Everything else is the same.
	NoCoverage bool
	// Hits, when not nil, is a buffer that Keyword returns Result.Hits in
	// (from its start, grown if it is too short), so that a caller that
	// searches often, and is done with a result before the next search,
	// reuses one; nil: a new slice. Its contents are overwritten, so one
	// buffer serves one search at a time: two concurrent searches (or a
	// result still read) must not share it. The hits are the same either
	// way.
	Hits []Hit
	// Expand tells Keyword to match a request's colloquial verb also by
	// its plain verbs (VerbSynonyms: "bin the draft" also as delete,
	// remove), at expansionWeight (see requestExpansions for which
	// verbs), and a short form by its full words ("repo" as repository,
	// "PRs" as pull request: shortforms.go), at shortFormWeight, counting
	// the short form as known in Result.Coverage when the catalog knows
	// them.
	Expand bool
	// CoverageVerbs, when non-nil, gives the plain verbs a tool's text may
	// use for a request's word ("remove" → delete, "ping" → send): a word
	// the catalog does not know counts as known in Result.Coverage when
	// the catalog knows one of them (the words a request says otherwise,
	// not what it asks for). With Expand, it is also asked for a frame's
	// key of VerbSynonyms ("move _ time", "_ time"), whose plain words make
	// the words the frame reads known (Result.Coverage). Rankings do not
	// read it. It must be safe to
	// call from the searching goroutine; it is never retained, nor are the
	// slices it returns.
	CoverageVerbs func(word string) []string
	// PathKinds tells Keyword to match a path or a file name also through
	// the word of what it names (PathKindWords: "file" for "notes.txt",
	// "directory" and "folder" for "~/Downloads"), at kindWeight in the
	// value's slot, as a channel matches through "channel" (valueKind),
	// and to count such a value as known in Result.Coverage when the
	// catalog knows the word. The caller sets it when it reads the path as
	// what the request acts on (search's path rule: a short request), not
	// where its result goes.
	PathKinds bool
}

func (o Options) allowed(id int) bool { return o.Allow == nil || o.Allow(id) }

// Result is the answer of a search.
type Result struct {
	// Hits are sorted by Score descending, then by tool name ascending.
	Hits []Hit
	// Total is the number of matching (and allowed) tools before Limit.
	Total int
	// Scanned is set by Regex when the pattern has no literal of 3 bytes
	// that every match contains, so the trigram index could not narrow the
	// search and every tool was matched (see trigram.go): a caller counts
	// these, e.g. as a metric, to see how often regex mode is slow.
	Scanned bool
	// Unmatched lists the query words that occur nowhere in the catalog
	// (keyword mode only), in query order; a caller may try Fuzzy for them.
	Unmatched []string
	// Coverage is the share of the query's ranking words (not stop words,
	// not -terms) that occur in the catalog, each word weighed by its
	// query-side weight (queryWordWeight): 1 when every word is known, 0.4
	// when "turn off the living room lights" meets a catalog that knows only
	// "lights" and "turn". Words of an argument value by its form (a term
	// with a digit or an inner @ / . : # _: a path, a URL, a #channel, an
	// issue key, a glob pattern) that the catalog does not know are left out: "rename
	// report.txt to final.txt" has coverage 1 when "rename" is known, since
	// no catalog is expected to know the file. A value of a kind the
	// catalog knows (valueKind's word or coordinates' words are words of
	// some tool: a #channel, an e-mail address, coordinates) counts as one
	// known word at the kind's weight: the catalog understands it ("Which
	// street is 40.7484,-73.9857 on?" has coverage 0.5, "street" unknown). So are the unknown names of
	// places and people after "in", "from", "to", "near", "around" or
	// "between" (locativeNames): "is it going to rain in Seattle this
	// weekend" is about the rain, not Seattle. So are the unknown words of
	// a message's text after the request's verb (freeTextWords: "message
	// #frontend that the build is broken" has coverage 1 when "message" is
	// known). So are the unknown words of quoted text (quotedTerms): a
	// title or a name the caller passes ("open a bug called 'Tooltip
	// clipped in Safari 17'"). A word the catalog does not know counts as known when
	// Options.CoverageVerbs gives a plain verb for it that the catalog
	// knows ("remove the team lunch from my calendar" and "delete"), as
	// does a word that a frame of the request reads as a plain word the
	// catalog knows through Options.CoverageVerbs ("push" and "friday" of
	// "push my dentist appointment on Friday to 4pm", read as reschedule
	// and the event's time: framed), and, with Options.Expand, a short form whose full words it knows ("db"
	// and "database"). It is 1 for a query with no ranking words. Set by
	// Keyword.
	Coverage float64
	// WhenCoverage is Coverage with the words that say when and that the
	// catalog does not know left out as well ("today", "tonight", "this
	// morning", "Thursday", "10am"): a time is when the tool is to act, an
	// argument value of the request, where the catalog's words are about
	// what it does. Coverage itself counts them (they are also the words
	// of near misses' times: "what's the pollen count in Vienna today");
	// package search reads WhenCoverage where the request names the top
	// tool's thing. Set by Keyword; Coverage when no word is left.
	WhenCoverage float64
	// WordCoverage is Coverage with every ranking word counted, argument
	// values too: the share of the query's words the index knows. The
	// learned stage of package search weighs a request's match with a
	// tool's learned queries by it (an index of learned queries knows few
	// paths, and a long request with paths would otherwise match learned
	// text better than it does). Set by Keyword.
	WordCoverage float64
	// Tally is what Coverage and WhenCoverage are computed from: package
	// search discounts some unknown words by it. Set by Keyword.
	Tally CoverageTally
}

// candidate is a scored tool before ranking; raw is the mode's internal
// score (higher is better), used for ordering.
type candidate struct {
	id  int
	raw float64
}

// ranker orders candidates: raw score descending, then tool name ascending.
type ranker struct {
	ix *Index
	// unnamed: no tool of ix has a name (such as the learned stage's index
	// in package search), so every name compares equal and less need not
	// read them.
	unnamed bool
}

func newRanker(ix *Index) ranker { return ranker{ix: ix, unnamed: ix.maxName == 0} }

func (r ranker) less(a, b candidate) bool { // a ranks before b
	if a.raw != b.raw || r.unnamed {
		return a.raw > b.raw
	}
	return r.ix.name(a.id) < r.ix.name(b.id)
}

// top returns the best limit candidates in rank order (all when limit <= 0).
// It may reorder cs.
func (r ranker) top(cs []candidate, limit int) []candidate {
	if limit <= 0 || limit >= len(cs) {
		slices.SortFunc(cs, func(a, b candidate) int {
			if r.less(a, b) {
				return -1
			}
			if r.less(b, a) {
				return 1
			}
			return cmp.Compare(a.id, b.id)
		})
		return cs
	}
	h := r.best(cs, limit, make([]candidate, 0, limit))
	out := make([]candidate, len(h.cs))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = h.pop()
	}
	return out
}

// topUnordered returns the candidates top keeps, in any order: all of
// cs when limit keeps them all, else the heap of the best limit that top
// builds (best), as it stands once every candidate is in (so ties on the cut go
// the same way), without top's popping it in rank order; the heap is in
// buf's memory, returned for reuse. For Options.Unordered, where topSet
// cannot tell the set (a tie straddles the cut).
func (r ranker) topUnordered(cs []candidate, limit int, buf []candidate) (out, scratch []candidate) {
	if limit <= 0 || limit >= len(cs) {
		return cs, buf
	}
	h := r.best(cs, limit, buf[:0])
	return h.cs, h.cs
}

// topUnnamed is topUnordered for an unnamed ranker, whose less compares
// scores alone: the same heap (best), built with the comparisons written
// out instead of called, and for every search, without topSet's
// selection first. It keeps the same candidates as topUnordered, and as
// topSet when that can tell them: the learned stage's index (package
// search) ranks a few hundred candidates a search and, half the time,
// ties straddle its cut, so topSet's pass was often spent for nothing.
func (r ranker) topUnnamed(cs []candidate, limit int, buf []candidate) (out, scratch []candidate) {
	if limit <= 0 || limit >= len(cs) {
		return cs, buf
	}
	// h[i] ranks below h[j] (minHeap.less(i, j)) when h[j].raw > h[i].raw.
	h := buf[:0]
	for _, c := range cs {
		if len(h) < limit {
			// push: up from the new leaf.
			h = append(h, c)
			for j := len(h) - 1; ; {
				i := (j - 1) / 2 // parent
				if i == j || !(h[i].raw > h[j].raw) {
					break
				}
				h[i], h[j] = h[j], h[i]
				j = i
			}
			continue
		}
		if !(c.raw > h[0].raw) {
			continue
		}
		// fix(0): down from the root; up(0) would not move it.
		h[0] = c
		n, i := len(h), 0
		for {
			j1 := 2*i + 1
			if j1 >= n || j1 < 0 {
				break
			}
			j := j1
			if j2 := j1 + 1; j2 < n && h[j1].raw > h[j2].raw {
				j = j2
			}
			if !(h[i].raw > h[j].raw) {
				break
			}
			h[i], h[j] = h[j], h[i]
			i = j
		}
	}
	return h, h
}

// best returns a heap of the best limit candidates of cs, the
// worst-ranked at the root (the algorithm of container/heap, without
// boxing candidates), built in buf's memory (empty, any capacity): what
// top pops in rank order and topUnordered returns as it stands.
func (r ranker) best(cs []candidate, limit int, buf []candidate) minHeap {
	h := minHeap{r: r, cs: buf}
	for _, c := range cs {
		if len(h.cs) < limit {
			h.push(c)
		} else if r.less(c, h.cs[0]) {
			h.cs[0] = c
			h.fix(0)
		}
	}
	return h
}

// topSet returns the best limit candidates of cs, in cs's order (moved
// to its front, so it may overwrite cs, as top may reorder it), when
// they are the only candidates scoring at least the limit-th best score:
// then they are the set top keeps (a candidate scoring at least that is
// never the worst of a full heap while another one it holds scores less,
// and one scoring less never displaces the worst once every one of them
// is in). ok is false when a score on the cut is shared across it (top's
// heap alone knows which of the tied candidates it keeps), when a score is
// NaN, or when limit keeps them all (top returns them all). raws is
// scratch for the scores; topSet returns it for reuse.
func topSet(cs []candidate, limit int, raws []float64) (out []candidate, scratch []float64, ok bool) {
	if limit <= 0 || limit >= len(cs) {
		return nil, raws, false
	}
	raws = raws[:0]
	for _, c := range cs {
		if c.raw != c.raw { // NaN
			return nil, raws, false
		}
		raws = append(raws, c.raw)
	}
	v := nthLargest(raws, limit-1)
	n := 0
	for _, c := range cs {
		if c.raw >= v {
			n++
		}
	}
	if n != limit {
		return nil, raws, false
	}
	out = cs[:0] // in place: a kept candidate moves only forward
	for _, c := range cs {
		if c.raw >= v {
			out = append(out, c)
		}
	}
	return out, raws, true
}

// nthLargest returns the k-th largest of xs (k from 0; no NaN), reordering
// xs: quickselect, median-of-three pivots, with insertion sort for short
// ranges.
func nthLargest(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for hi-lo > 8 {
		mid := lo + (hi-lo)/2
		// Order xs[lo], xs[mid], xs[hi] descending; the median is the pivot.
		if xs[mid] > xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] > xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] > xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		p := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] > p {
				i++
			}
			for xs[j] < p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	for i := lo + 1; i <= hi; i++ {
		for j := i; j > lo && xs[j] > xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs[k]
}

// minHeap keeps the worst-ranked kept candidate at the root. Its methods
// are container/heap's Push, Fix and Pop, specialized.
type minHeap struct {
	r  ranker
	cs []candidate
}

// less reports whether cs[i] ranks below cs[j].
func (h *minHeap) less(i, j int) bool { return h.r.less(h.cs[j], h.cs[i]) }

func (h *minHeap) push(c candidate) {
	h.cs = append(h.cs, c)
	h.up(len(h.cs) - 1)
}

func (h *minHeap) pop() candidate {
	n := len(h.cs) - 1
	h.cs[0], h.cs[n] = h.cs[n], h.cs[0]
	h.down(0, n)
	c := h.cs[n]
	h.cs = h.cs[:n]
	return c
}

func (h *minHeap) fix(i int) {
	if !h.down(i, len(h.cs)) {
		h.up(i)
	}
}

func (h *minHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h.cs[i], h.cs[j] = h.cs[j], h.cs[i]
		j = i
	}
}

func (h *minHeap) down(i0, n int) bool {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2 // = 2*i + 2  // right child
		}
		if !h.less(j, i) {
			break
		}
		h.cs[i], h.cs[j] = h.cs[j], h.cs[i]
		i = j
	}
	return i > i0
}
