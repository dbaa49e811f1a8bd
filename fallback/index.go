package fallback

import (
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/internal/pvec"
)

// Index is the lexical index of a tool catalog. It never changes after
// NewIndex or Apply returns it (apart from a bounded, internally locked memo
// of analyzed query words that never changes results) and is safe for
// concurrent use by any number of goroutines, Apply included: Apply derives
// a new Index that shares the unchanged parts with this one. The zero value
// is an empty index.
type Index struct {
	docs pvec.Vec[docInfo] // per tool ID

	// byName maps an exact name to the lowest ID with that name, byLower a
	// lowercase name to the lowest ID with that lowercase name; dups maps
	// the keys held by several IDs ('n' + name, 'l' + lowercase name) to
	// all of them, ascending.
	byName, byLower omap[string, int32]
	dups            omap[string, []int32]
	maxName         int // at least the longest key of byName and byLower, in bytes

	terms       omap[string, int32] // analyzed term → term ID (live terms only)
	termData    pvec.Vec[termInfo]  // per term ID (dead IDs have no postings)
	termIDs     []int32             // termIDs[t] == t: one-term slices without allocating
	sortedTerms slist               // the live terms
	idfs        []float64           // idfs[df] = idf(df, idfN) for small df (see termIdf)
	idfN        int

	words    slist               // the surface vocabulary (analysis.Words) of words with at most one term
	wordTerm omap[string, int32] // surface word → term ID, -1 for stop words
	wordDF   omap[string, int]   // surface word → number of tools using it
	// wordsByLen[n] lists the non-stop vocabulary words of n runes (fuzzy).
	wordsByLen []slist

	// pairs maps the adjacent term pairs (pairKey) of each tool's name,
	// server and description to the tools that have them, by ascending ID.
	pairs omap[uint64, []int32]

	serverKey  omap[string, int32] // server key (see serverKeyOf) → server ID
	members    pvec.Vec[[]int32]   // per server ID, its tools, ascending (none: a dead ID)
	numServers int                 // number of servers with tools
	srvIdfs    []float64           // srvIdfs[df] = idf(df, srvIdfN) for small df
	srvIdfN    int
	// srvSat overrides the sats in srvPostings of the servers that Apply
	// recomputed since the lists were last rewritten (see maxSrvOverrides):
	// srvSat[s] holds every term of server s, and srvOver[s] is set (nil
	// when srvSat is empty). Which servers a list holds is always exact.
	srvSat  map[int32]map[int32]float32
	srvOver []bool

	// grams indexes the regex-searched texts (names, descriptions,
	// parameter names) by trigram (see trigram.go).
	grams *trigramIndex

	// prfList holds, for an index whose tools have no names, each tool's
	// feedback terms weighed as the best candidate, in expansionOrder:
	// tool id's are prfList[prfStart[id]:prfStart[id+1]]
	// (expansionLists). nil otherwise, and in an index Apply updated.
	prfList  []expansion
	prfStart []int32

	st      *stats // the statistics frozen at the last full build
	changed int    // tools written by Apply since the last full build

	refSat float64 // sat of one occurrence in an average-length name
	// names is the sorted name keys for fuzzyName, made on first use.
	names atomic.Pointer[nameKeys]
	pool  sync.Pool
	cache wordCache // analyzed query chunks (see termWords)
}

// docInfo is what the index keeps of one tool.
//
// The fields that scans over every tool read (regex: paramNames,
// doc.Name, doc.Description) come first, so that they share two cache
// lines.
type docInfo struct {
	paramNames string   // parameter names, space-joined (regex)
	doc        Document // as given, for a full rebuild by Apply
	nameKey    string   // the lowercase name without separators (fuzzy)
	server     string   // lowercase server ("" if none)
	category   string   // lowercase category
	serverID   int32
	terms      [numFields][]int32 // the analyzed terms of each field, in order
}

// termInfo is what the index keeps of one term.
type termInfo struct {
	text        string
	postings    []posting // tools, by ascending ID
	maxSat      float32   // the largest posting sat
	variants    []int32   // its variants (see variants)
	srvPostings []posting // servers, by ascending server ID
}

// stats are the corpus statistics that Apply does not update: they are
// computed by a full build and kept until the next one.
type stats struct {
	avg    [numFields]float64 // tools' average field lengths
	srvAvg [numFields]float64 // servers' average field lengths
	dict   map[string]bool    // the decompounding dictionary
	dec    analysis.Filter    // decompounding with dict
}

// posting says that a term occurs in a tool; sat is its BM25F saturated
// pseudo term frequency tf/(k1+tf), in (0, 1).
type posting struct {
	doc int32
	sat float32
}

// groupWordsByLen fills wordsByLen from words (a build or a load).
func (ix *Index) groupWordsByLen() {
	for _, w := range ix.words.base {
		if t, _ := ix.wordTerm.get(w); t < 0 {
			continue
		}
		n := utf8.RuneCountInString(w)
		for len(ix.wordsByLen) <= n {
			ix.wordsByLen = append(ix.wordsByLen, slist{})
		}
		ix.wordsByLen[n].base = append(ix.wordsByLen[n].base, w)
	}
}

// finish ends a build or an Apply: every part becomes read-only.
func (ix *Index) finish() {
	ix.byName.finish()
	ix.byLower.finish()
	ix.dups.finish()
	ix.terms.finish()
	ix.wordTerm.finish()
	ix.wordDF.finish()
	ix.pairs.finish()
	ix.serverKey.finish()
	ix.docs.Done()
	ix.termData.Done()
	ix.members.Done()
	if n := ix.termData.Len(); len(ix.termIDs) < n {
		ids := make([]int32, n+n/2+16) // room for the next Apply's new terms
		for t := range ids {
			ids[t] = int32(t)
		}
		ix.termIDs = ids
	}
	if ix.idfs == nil || ix.idfN != ix.Len() {
		ix.idfs, ix.idfN = idfTable(ix.Len()), ix.Len()
	}
	if ix.srvIdfs == nil || ix.srvIdfN != ix.numServers {
		ix.srvIdfs, ix.srvIdfN = idfTable(ix.numServers), ix.numServers
	}
	ix.pool = sync.Pool{New: func() any { return ix.newScratch() }}
}

// idfTableLen bounds the precomputed idf values: terms in fewer tools than
// this (most terms) find their idf in a table, others compute it.
const idfTableLen = 1024

// idfTable returns idf(df, n) for df < min(n+1, idfTableLen).
func idfTable(n int) []float64 {
	tab := make([]float64, min(n+1, idfTableLen))
	for df := range tab {
		tab[df] = idf(df, n)
	}
	return tab
}

// rawWords returns the words of each field of d (before decompounding).
func rawWords(d *Document) [numFields][]string {
	texts := fieldTexts(d)
	words := analysis.Words()
	var fw [numFields][]string
	for f, text := range texts {
		fw[f] = words.Analyze(text)
	}
	return fw
}

// indexWords returns the indexed words of each field: rawWords with
// identifier fields decompounded.
func (st *stats) indexWords(fw [numFields][]string) [numFields][]string {
	for f := range fw {
		if compoundField(field(f)) {
			fw[f] = st.dec.Filter(fw[f])
		}
	}
	return fw
}

// newDocInfo analyzes tool d (whose rawWords are fw), adding new terms and
// counting its words in wordDF. words, when not nil, collects its distinct
// words.
func (ix *Index) newDocInfo(d *Document, fw [numFields][]string, words *[]string) docInfo {
	info := docInfo{
		doc:        *d,
		server:     strings.ToLower(d.Server),
		category:   strings.ToLower(d.Category),
		paramNames: strings.Join(d.ParamNames, " "),
		nameKey:    nameKey(d.Name),
	}
	// The index keeps its own parameter slices: the caller may reuse its.
	info.doc.ParamNames = slices.Clone(d.ParamNames)
	info.doc.ParamDescs = slices.Clone(d.ParamDescs)
	fw = ix.st.indexWords(fw)
	seen := map[string]bool{}
	for f := field(0); f < numFields; f++ {
		var ts []int32
		for _, w := range fw[f] {
			if !seen[w] {
				seen[w] = true
				if words != nil {
					*words = append(*words, w)
				} else {
					df, _ := ix.wordDF.get(w)
					ix.wordDF.set(w, df+1)
				}
			}
			ts = append(ts, ix.wordTerms(w, true)...)
		}
		info.terms[f] = ts
	}
	return info
}

// docSats returns the saturated BM25F term frequency of each term of a
// tool, with the frozen average field lengths.
func (ix *Index) docSats(d *docInfo) map[int32]float32 {
	tf := map[int32]float64{}
	for f := field(0); f < numFields; f++ {
		norm := 1 - fieldB[f] + fieldB[f]*float64(len(d.terms[f]))/ix.st.avg[f]
		for _, t := range d.terms[f] {
			tf[t] += fieldWeight[f] / norm
		}
	}
	return saturate(tf)
}

// saturate turns BM25F pseudo term frequencies into saturated ones,
// tf/(k1+tf), the sats of postings.
func saturate(tf map[int32]float64) map[int32]float32 {
	out := make(map[int32]float32, len(tf))
	for t, v := range tf {
		out[t] = float32(v / (bm25K1 + v))
	}
	return out
}

// pairTerms returns the term sequences whose adjacent pairs are indexed.
func (d *docInfo) pairTerms() [3][]int32 {
	return [3][]int32{d.terms[fieldName], d.terms[fieldServer], d.terms[fieldDesc]}
}

// addName records that tool id has this name.
func (ix *Index) addName(name string, id int32) {
	ix.maxName = max(ix.maxName, len(name))
	addKey(&ix.byName, &ix.dups, "n", name, id)
	lower := strings.ToLower(name)
	ix.maxName = max(ix.maxName, len(lower))
	addKey(&ix.byLower, &ix.dups, "l", lower, id)
}

// removeName records that tool id no longer has this name.
func (ix *Index) removeName(name string, id int32) {
	removeKey(&ix.byName, &ix.dups, "n", name, id)
	removeKey(&ix.byLower, &ix.dups, "l", strings.ToLower(name), id)
}

// addKey adds id to the IDs of key k in m (the lowest) and dups (all, when
// several; tag + k).
func addKey(m *omap[string, int32], dups *omap[string, []int32], tag, k string, id int32) {
	first, ok := m.get(k)
	if !ok {
		m.set(k, id)
		return
	}
	all, ok := dups.get(tag + k)
	if !ok {
		all = []int32{first}
	}
	i, _ := slices.BinarySearch(all, id)
	all = slices.Insert(slices.Clone(all), i, id)
	dups.set(tag+k, all)
	m.set(k, all[0])
}

// removeKey removes id from the IDs of key k (see addKey).
func removeKey(m *omap[string, int32], dups *omap[string, []int32], tag, k string, id int32) {
	all, ok := dups.get(tag + k)
	if !ok {
		m.del(k)
		return
	}
	i, _ := slices.BinarySearch(all, id)
	all = slices.Delete(slices.Clone(all), i, i+1)
	if len(all) == 1 {
		dups.del(tag + k)
	} else {
		dups.set(tag+k, all)
	}
	m.set(k, all[0])
}

// wordTerms returns the term IDs of a surface word (as produced by
// analysis.Words): none for a stop word, usually one. With add, unknown
// terms are added to the index (build and Apply only).
func (ix *Index) wordTerms(w string, add bool) []int32 {
	if t, ok := ix.wordTerm.get(w); ok {
		if t < 0 {
			return nil
		}
		if int(t) < len(ix.termIDs) {
			return ix.termIDs[t : t+1 : t+1] // no allocation
		}
		return []int32{t}
	}
	ids, _ := ix.analyzeWord(w, add)
	return ids
}

// analyzeWord returns the term IDs of a surface word that is not in
// wordTerm, and its analyzed terms. With add, unknown terms are added to the
// index (build and Apply only).
func (ix *Index) analyzeWord(w string, add bool) ([]int32, []string) {
	analyzed := analysis.Standard().Analyze(w)
	var out []int32
	for _, term := range analyzed {
		t, ok := ix.terms.get(term)
		if !ok {
			if !add {
				continue
			}
			t = int32(ix.termData.Len())
			ix.terms.set(term, t)
			ix.termData.Mut(int(t)).text = term
		}
		out = append(out, t)
	}
	if add {
		switch len(out) {
		case 0:
			ix.wordTerm.set(w, -1)
		case 1:
			ix.wordTerm.set(w, out[0])
		}
	}
	return out, analyzed
}

// idf is BM25's inverse document frequency of a term found in df of n tools.
//
// Worked example: in 2,500 tools, a term in 5 tools has idf 6.1, a term in
// 500 tools 1.6.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// termIdf returns the idf of term t over the current tools.
func (ix *Index) termIdf(t int32) float64 {
	df := len(ix.termData.At(int(t)).postings)
	if df < len(ix.idfs) {
		return ix.idfs[df]
	}
	return idf(df, ix.Len())
}

// srvIdf returns the idf of term t over the current servers.
func (ix *Index) srvIdf(t int32) float64 {
	df := len(ix.termData.At(int(t)).srvPostings)
	if df < len(ix.srvIdfs) {
		return ix.srvIdfs[df]
	}
	return idf(df, ix.numServers)
}

// Len returns the number of tools in the index.
func (ix *Index) Len() int { return ix.docs.Len() }

// Name returns the name of tool id, or "" if id is out of range.
func (ix *Index) Name(id int) string {
	if id < 0 || id >= ix.Len() {
		return ""
	}
	return ix.docs.At(id).doc.Name
}

// Document returns the document of tool id as given to NewIndex or Apply
// (0 ≤ id < Len; it panics otherwise). Its slices are the index's own:
// callers must not modify them.
func (ix *Index) Document(id int) Document { return ix.docs.At(id).doc }

// Server returns tool id's server, lowercased ("" if none; 0 ≤ id < Len).
func (ix *Index) Server(id int) string { return ix.docs.At(id).server }

// Category returns tool id's category, lowercased (0 ≤ id < Len).
func (ix *Index) Category(id int) string { return ix.docs.At(id).category }

// name returns the name of tool id (0 ≤ id < Len).
func (ix *Index) name(id int) string { return ix.docs.At(id).doc.Name }

// Lookup returns the ID of the tool with exactly this name; failing that,
// of the tool whose name equals it ignoring case (the lowest such ID).
func (ix *Index) Lookup(name string) (int, bool) {
	if id, ok := ix.byName.get(name); ok {
		return int(id), true
	}
	id, ok := ix.byLower.get(strings.ToLower(name))
	return int(id), ok
}

// nameKey is a tool name lowercased with separators removed, so that
// "get_weather", "getWeather" and "get-weather" compare equal.
func nameKey(name string) string {
	var b strings.Builder
	for _, w := range analysis.Words().Analyze(name) {
		b.WriteString(w)
	}
	return b.String()
}

// compoundField reports whether a field holds identifiers, whose
// run-together words ("getvideosbytag") are split by decompounding.
func compoundField(f field) bool {
	return f == fieldName || f == fieldServer || f == fieldParamName
}

// regexTexts calls f with each text of tool id that regex mode matches.
func (ix *Index) regexTexts(id int, f func(string)) {
	d := ix.docs.At(id)
	f(d.doc.Name)
	f(d.doc.Description)
	f(d.paramNames)
}
