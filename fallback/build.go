package fallback

import (
	"slices"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/internal/par"
)

// buildOptions are build's test hooks: a fresh build that reproduces an
// Index made by Apply.
type buildOptions struct {
	// stats, when set, are used instead of the docs' own.
	stats *stats
	// termOrder, when set, numbers terms: the term termOrder[t] gets ID t
	// ("" marks an unused ID); other terms get the following IDs. Term IDs
	// break ties between feedback terms (see feedback).
	termOrder []string
}

// NewIndex indexes docs; a tool's ID is its position in docs. Duplicate
// names are tolerated (Lookup and Select find the lowest ID). NewIndex
// retains docs' strings (for Apply's full rebuilds) but no slice of docs.
func NewIndex(docs []Document) *Index { return build(docs, buildOptions{}) }

// build makes an index of docs in two passes over them: the first splits
// every field into words, from which the statistics come (unless o gives
// them); the second analyses each tool into terms with them. The postings,
// pairs and vocabularies follow from the tools.
func build(docs []Document, o buildOptions) *Index {
	ix := &Index{}
	ix.byName.direct, ix.byLower.direct, ix.dups.direct = true, true, true
	ix.terms.direct, ix.wordTerm.direct, ix.wordDF.direct = true, true, true
	ix.pairs.direct, ix.serverKey.direct = true, true
	ix.pairs.base = map[uint64][]int32{}

	fieldWords := splitFields(docs) // pass 1
	ix.st = o.stats
	if ix.st == nil {
		ix.st = newStats(fieldWords)
	}
	ix.numberTerms(o.termOrder)
	lengths := ix.addDocs(docs, fieldWords) // pass 2
	if o.stats == nil {
		ix.st.setAverages(lengths, len(docs), ix.members.Len())
	}
	ix.refSat = fieldWeight[fieldName] / (bm25K1 + fieldWeight[fieldName])

	// The trigram index needs only the documents, complete from here on:
	// it is built on another core while this one builds the rest.
	grams := make(chan *trigramIndex, 1)
	go func() { grams <- newTrigramIndex(len(docs), ix.regexTexts) }()

	ix.addServerPostings()
	ix.addPairs()
	ix.addPostings()
	ix.sortTerms()
	ix.addVariants()
	ix.sortWords()
	ix.grams = <-grams
	ix.finish()
	ix.expansionLists()
	return ix
}

// splitFields is pass 1: every tool's words of every field, on every core.
func splitFields(docs []Document) [][numFields][]string {
	fieldWords := make([][numFields][]string, len(docs))
	par.For(len(docs), func(lo, hi int) {
		for id := lo; id < hi; id++ {
			fieldWords[id] = rawWords(&docs[id])
		}
	})
	return fieldWords
}

// newStats returns the statistics of a full build, with the dictionary for
// decompounding names: every word of a field that is not a name, and the
// name words of at least two tools. The averages are set by setAverages
// once the tools are analysed.
func newStats(fieldWords [][numFields][]string) *stats {
	st := &stats{dict: map[string]bool{}}
	nameDF := map[string]int{}
	for id := range fieldWords {
		seen := map[string]bool{}
		for f, ws := range fieldWords[id] {
			for _, w := range ws {
				if compoundField(field(f)) {
					if !seen[w] {
						seen[w] = true
						nameDF[w]++
					}
				} else {
					st.dict[w] = true
				}
			}
		}
	}
	for w, df := range nameDF {
		if df >= 2 {
			st.dict[w] = true
		}
	}
	st.dec = analysis.Decompound(func(w string) bool { return st.dict[w] })
	return st
}

// setAverages sets the average field lengths of tools and of servers from
// the total lengths in terms of each field over n tools and ns servers
// (1 for a field no tool has).
func (st *stats) setAverages(lengths [numFields]float64, n, ns int) {
	for f := range st.avg {
		st.avg[f] = 1
		if n > 0 && lengths[f] > 0 {
			st.avg[f] = lengths[f] / float64(n)
		}
	}
	for f := range st.srvAvg {
		st.srvAvg[f] = 1
		if lengths[f] > 0 {
			st.srvAvg[f] = lengths[f] / float64(ns)
		}
	}
}

// numberTerms gives the terms of termOrder their IDs (see buildOptions).
func (ix *Index) numberTerms(termOrder []string) {
	for t, text := range termOrder {
		m := ix.termData.Mut(t)
		if text != "" {
			m.text = text
			ix.terms.set(text, int32(t))
		}
	}
}

// addDocs is pass 2: it analyses each tool into terms, files it under its
// name and server, and returns the total length in terms of each field.
func (ix *Index) addDocs(docs []Document, fieldWords [][numFields][]string) [numFields]float64 {
	var sum [numFields]float64
	for id := range docs {
		d := &docs[id]
		ix.addName(d.Name, int32(id))
		info := ix.newDocInfo(d, fieldWords[id], nil)
		ix.serverOf(&info, int32(id))
		*ix.docs.Mut(id) = info
		for f := range numFields {
			sum[f] += float64(len(info.terms[f]))
		}
	}
	return sum
}

// addServerPostings gives every term its servers' postings.
func (ix *Index) addServerPostings() {
	for s := range ix.members.Len() {
		for t, sat := range ix.serverSats(s) {
			m := ix.termData.Mut(int(t))
			m.srvPostings = append(m.srvPostings, posting{doc: int32(s), sat: sat})
		}
	}
	ix.numServers = ix.members.Len()
}

// addPairs files every tool under its adjacent term pairs.
func (ix *Index) addPairs() {
	for id := range ix.docs.Len() {
		for _, ts := range ix.docs.At(id).pairTerms() {
			addPairs(ix.pairs.base, int32(id), ts)
		}
	}
}

// addPostings gives every term its tools' postings, by ascending ID.
func (ix *Index) addPostings() {
	for id := range ix.docs.Len() {
		for t, sat := range ix.docSats(ix.docs.At(id)) {
			m := ix.termData.Mut(int(t))
			m.postings = append(m.postings, posting{doc: int32(id), sat: sat})
			m.maxSat = max(m.maxSat, sat)
		}
	}
}

// sortTerms sorts every term's server postings and lists the live terms
// in order; a term of buildOptions.termOrder that no tool has is dropped.
func (ix *Index) sortTerms() {
	for t := range ix.termData.Len() {
		m := ix.termData.Mut(t)
		slices.SortFunc(m.srvPostings, func(a, b posting) int { return int(a.doc - b.doc) })
		if len(m.postings) > 0 {
			ix.sortedTerms.base = append(ix.sortedTerms.base, m.text)
		} else if m.text != "" {
			ix.terms.del(m.text)
		}
	}
	slices.Sort(ix.sortedTerms.base)
}

// addVariants gives every live term its variants (see variants), which
// need the sorted terms.
func (ix *Index) addVariants() {
	for t := range ix.termData.Len() {
		if m := ix.termData.Mut(t); len(m.postings) > 0 {
			m.variants = ix.variantsOf([]string{m.text})
		}
	}
}

// sortWords lists the surface vocabulary in order, and by length.
func (ix *Index) sortWords() {
	for w := range ix.wordTerm.base {
		ix.words.base = append(ix.words.base, w)
	}
	slices.Sort(ix.words.base)
	ix.groupWordsByLen()
}
