package fallback

import (
	"sync"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/query"
)

// maxCachedChunks bounds the query-word cache of an Index (see
// Index.termWords): at most this many distinct query chunks are kept; when
// it is full it is emptied and fills again with the chunks in use. An entry
// takes about 150 bytes, so the cache stays under about 1.5 MB.
//
// Worked example: the 280 StableToolBench requests have 2,536 distinct
// chunks ("weather", "forecast?", "I'm"...), so they all fit.
const maxCachedChunks = 8192

// maxCachedChunkLen is the longest query chunk (in bytes) that is cached:
// longer ones (URLs, pasted identifiers) rarely repeat.
const maxCachedChunkLen = 64

// queryWord is one surface query word (as analysis.Words produces it)
// resolved against the index: what plan needs of it, independent of where
// it stands in the query.
type queryWord struct {
	word   string  // the surface word
	ids    []int32 // its index terms (none for a stop word or an unknown word)
	vars   []int32 // its stem variants (see variants and variantsOf)
	weight float64 // its query-side weight (see queryWordWeight)
	// hasTerms: analysis.Standard gives the word terms (it is not a stop
	// word), whether or not the index has them.
	hasTerms bool
	// other are the word's terms the index does not have (QueryTerms).
	other []string
	// unmatched: the word has terms, but neither they nor any variant
	// occur in the index.
	unmatched bool
	// value: the query chunk the word is of is an argument value by its
	// form (argumentToken of the chunk, as written, or a glob pattern,
	// globCore: "*.bak", whose core has no inner punctuation once its "*"
	// is cut), kept with the chunk's words so that a search does not test
	// each chunk again.
	value bool
	// formed: the chunk is an argument value of a kind by its form
	// (formKind: a path, a file, an e-mail address, a URL, a channel, an
	// issue key; formedKind), whose words plan ranks at formedWeight of
	// the word's weight.
	formed bool
	// kind: on the chunk's first word, the index terms of the chunk's
	// kind (valueKind: "#general" a channel), through which plan matches
	// it too; kept with the chunk's words, as value is, so that a search
	// does not test each chunk's form again (≈ 1.4 µs a bfcl request, in
	// the catalog's keyword search and again in the learned one).
	kind []int32
	// kindOwn: the kind's query-side weight does not follow the word's
	// (a number's, numberWeight) but is a content word's: coordinates
	// say what the request is about, a place (coordinatesKind).
	kindOwn bool
	// pathKind: kind is a path's or a file's (valueKind), which plan
	// reads only with Options.PathKinds.
	pathKind bool
	// short: the index terms of the word's full forms when it is a short
	// form (shortForms: "repo" → repository), and shortKnown: the catalog
	// knows every word of one of them (resolveShort).
	short      []shortTerm
	shortKnown bool
	// otherSense: the word is an everyday word of another common sense
	// (everydayWords: "hot", "warning"), whose short and shortKnown hold
	// only in a request about the weather (weatherContext).
	otherSense bool
	// worn: the word is a thing worn against the weather (everydayWords'
	// worn entries), read so only where the request asks about wearing
	// it (wornAt).
	worn bool
	// alt: on the chunk's first word, the chunk's words read as one
	// lowercase word (solidWord) when it is an acronym's plural ("PRs" →
	// prs; acronymPlural) or a word with a one-letter prefix written solid
	// ("e-mail" → email; letterPrefixed), and the catalog knows that word
	// or, for a short form, its full words; plan reads it with
	// Options.Expand; nil otherwise.
	alt []queryWord
}

// wordCache memoizes the analysis of query chunks (see termWords). It is
// safe for concurrent use.
type wordCache struct {
	mu sync.RWMutex
	m  map[string][]queryWord // chunk text → its words; never nil values
}

// termWords appends to dst the analyzed words of each term's Text, in
// order, and returns it. The word slices are shared: callers must not
// modify them. They are cached per Index (bounded by maxCachedChunks),
// since requests repeat their words; the cache only memoizes, so results
// never depend on it. One read lock serves the whole query.
func (ix *Index) termWords(dst [][]queryWord, terms []query.Term) [][]queryWord {
	dst = dst[:0]
	missing := false
	ix.cache.mu.RLock()
	for _, t := range terms {
		qws := ix.cache.m[t.Text] // nil if not cached
		missing = missing || qws == nil
		dst = append(dst, qws)
	}
	ix.cache.mu.RUnlock()
	if !missing {
		return dst
	}
	var fresh []int // positions in dst to cache
	for i, t := range terms {
		if dst[i] != nil {
			continue
		}
		ws := analysis.Words().Analyze(t.Text)
		qws := make([]queryWord, len(ws)) // non-nil even when empty
		value := len(ws) > 0 && (argumentToken(t.Text) || globCore(t.Text) != "")
		for j, w := range ws {
			qws[j] = ix.resolveWord(w)
			qws[j].value = value
		}
		if len(ws) > 0 {
			if kind, path := valueKind(t.Text); kind != nil {
				for _, w := range kind {
					qws[0].kind = append(qws[0].kind, ix.resolveWord(w).ids...)
				}
				qws[0].pathKind = path
			} else if next := ""; value {
				if i+1 < len(terms) {
					next = terms[i+1].Text
				}
				if coordinatesLength([]string{t.Text, next}) > 0 {
					for _, w := range coordinatesKind {
						qws[0].kind = append(qws[0].kind, ix.resolveWord(w).ids...)
					}
					qws[0].kindOwn = true
				}
			}
			if k := formKind(tokenCore(t.Text)); value && k != "" {
				// A path's, a file's, an address's words name it, not
				// what a tool does: no short forms ("~/docs").
				for j := range qws {
					qws[j].short, qws[j].shortKnown = nil, false
					qws[j].formed = formedKind(k)
				}
			} else {
				ix.shortPairs(ws, qws)
			}
			if w := solidWord(t.Text); w != "" {
				// Only a word the catalog knows, itself or in full: read
				// as one unknown word, "AAs" would count where "a" and
				// "as" were stop words, and Expand lower the coverage.
				if aw := ix.resolveWord(w); len(aw.ids) > 0 || aw.shortKnown {
					aw.value = value
					qws[0].alt = []queryWord{aw} // "PRs" as pr, "e-mail" as the catalog's "email"
				}
			}
		}
		dst[i] = qws
		if len(t.Text) <= maxCachedChunkLen && !coordinatesHead(t.Text) {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return dst
	}
	ix.cache.mu.Lock()
	defer ix.cache.mu.Unlock()
	if ix.cache.m == nil {
		ix.cache.m = make(map[string][]queryWord)
	}
	for _, i := range fresh {
		if len(ix.cache.m) >= maxCachedChunks {
			clear(ix.cache.m)
		}
		ix.cache.m[terms[i].Text] = dst[i]
	}
	return dst
}

// resolveWord resolves one surface word against the index.
func (ix *Index) resolveWord(w string) queryWord {
	qw := queryWord{word: w, weight: queryWordWeight(w)}
	var analyzed []string
	if t, ok := ix.wordTerm.get(w); ok {
		if t >= 0 {
			qw.ids = ix.termIDs[t : t+1 : t+1]
			qw.hasTerms = true
		}
	} else {
		qw.ids, analyzed = ix.analyzeWord(w, false)
		qw.hasTerms = len(analyzed) > 0
		if len(qw.ids) < len(analyzed) {
			for _, term := range analyzed {
				if _, ok := ix.terms.get(term); !ok {
					qw.other = append(qw.other, term)
				}
			}
		}
	}
	if len(qw.ids) > 0 {
		qw.vars = ix.variants(qw.ids)
	} else if len(analyzed) > 0 {
		qw.vars = ix.variantsOf(analyzed)
		qw.unmatched = len(qw.vars) == 0
	}
	if forms := shortFormOf(w); forms != nil {
		qw.short, qw.shortKnown = ix.resolveShort(forms)
		e, _ := everydayEntry(w)
		qw.otherSense, qw.worn = e.sense == otherSense || e.sense == worn, e.sense == worn
		qw.shortKnown = qw.shortKnown && e.sense != ranked
	}
	return qw
}

// formedKind reports whether the words of a value of kind k (formKind)
// rank at formedWeight: every kind but an owner/name pair, which names a
// project as often as an argument ("prometheus/prometheus", "golang/go")
// and also a branch or a relative path. Measured with it ranked at
// formedWeight too: example held-out-9 nDCG@10 −0.013 / −0.010
// (default / keyword), stabletoolbench −0.0008 / −0.0001.
func formedKind(k string) bool { return k != KindRepo }

// QueryTerms calls f with the terms of each word of terms' texts (all of
// them: a term's Excluded, Required and Prefix are not read), as analysis
// works them out for Keyword, word by word: ids the index terms, other
// the terms the index does not have. Together they are the terms of the
// texts (Terms, of the texts joined with spaces: the analysis is
// word-local), each as often as its words have it. The words come from
// the index's query-word cache, the one Keyword reads, so a caller that
// has just searched the same texts finds them at hand; f must not keep
// or modify the slices. Safe for concurrent use.
func (ix *Index) QueryTerms(terms []query.Term, f func(ids []int32, other []string)) {
	if ix == nil || len(terms) == 0 {
		return
	}
	s := ix.getScratch()
	defer ix.putScratch(s)
	s.chunks = ix.termWords(s.chunks, terms)
	for _, qws := range s.chunks {
		for _, qw := range qws {
			if len(qw.ids) > 0 || len(qw.other) > 0 {
				f(qw.ids, qw.other)
			}
		}
	}
}

// TermID returns the ID of the index term term (an analysed term, as
// Terms gives them), and whether the index has it: the IDs QueryTerms
// gives, from 0 to TermCount − 1.
func (ix *Index) TermID(term string) (int32, bool) {
	if ix == nil {
		return 0, false
	}
	return ix.terms.get(term)
}

// TermCount is the number of the index's terms (TermID).
func (ix *Index) TermCount() int {
	if ix == nil {
		return 0
	}
	return ix.termData.Len()
}
