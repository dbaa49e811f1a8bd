package fallback

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/analysis"
)

// Index is the lexical index of a tool catalog. It is immutable after
// NewIndex (apart from a bounded, internally locked memo of analyzed query
// words that never changes results) and safe for concurrent use by any
// number of goroutines. The zero value is an empty index.
type Index struct {
	names   []string       // tool names by ID
	byName  map[string]int // exact name → ID
	byLower map[string]int // lowercase name → lowest ID with that lowercase name
	maxName int            // the longest key of byName and byLower, in bytes

	servers    []string // lowercase server per ID ("" if none)
	categories []string // lowercase category per ID
	descs      []string // descriptions per ID (regex)
	paramNames []string // parameter names per ID, space-joined (regex)

	terms        map[string]int32 // analyzed term → term ID
	termText     []string         // term ID → analyzed term
	sortedTerms  []string         // termText, sorted
	termIDs      []int32          // termIDs[t] == t: one-term slices without allocating
	termVariants [][]int32        // per term ID, its variants (see variants)
	postings     [][]posting      // per term ID, by ascending doc
	maxSat       []float32        // per term ID, the largest posting sat
	idf          []float64        // per term ID, idf(len(postings), tools)
	docTerms     [][numFields][]int32

	words    []string         // sorted surface vocabulary (analysis.Words)
	wordTerm map[string]int32 // surface word → term ID, -1 for stop words
	wordDF   map[string]int   // surface word → number of tools using it
	nameKeys []string         // per ID, the lowercase name without separators (fuzzy)
	// wordsByLen[n] lists the non-stop vocabulary words of n runes (fuzzy).
	wordsByLen [][]string

	// pairs maps the adjacent term pairs (pairKey) of each tool's name,
	// server and description to the tools that have them, by ascending ID.
	pairs map[uint64][]int32

	serverOf    []int32     // tool ID → server ID
	numServers  int         // number of server IDs
	srvPostings [][]posting // per term ID, servers by ascending ID
	srvIdf      []float64   // per term ID, idf(len(srvPostings), numServers)

	// grams indexes the regex-searched texts (names, descriptions,
	// parameter names) by trigram (see trigram.go).
	grams *trigramIndex

	refSat float64 // sat of one occurrence in an average-length name
	pool   sync.Pool
	cache  wordCache // analyzed query chunks (see termWords)
}

// posting says that a term occurs in a tool; sat is its BM25F saturated
// pseudo term frequency tf/(k1+tf), in (0, 1).
type posting struct {
	doc int32
	sat float32
}

// NewIndex indexes docs; a tool's ID is its position in docs. Duplicate
// names are tolerated (Lookup and Select find the lowest ID). NewIndex does
// not retain docs.
func NewIndex(docs []Document) *Index {
	ix := &Index{
		names:      make([]string, len(docs)),
		byName:     make(map[string]int, len(docs)),
		byLower:    make(map[string]int, len(docs)),
		servers:    make([]string, len(docs)),
		categories: make([]string, len(docs)),
		descs:      make([]string, len(docs)),
		paramNames: make([]string, len(docs)),
		terms:      make(map[string]int32),
		docTerms:   make([][numFields][]int32, len(docs)),
		wordTerm:   make(map[string]int32),
		wordDF:     make(map[string]int),
		nameKeys:   make([]string, len(docs)),
	}
	// Pass 1: every field's words; the dictionary for decompounding names.
	words := analysis.Words()
	fieldWords := make([][numFields][]string, len(docs))
	nameDF := map[string]int{}
	dict := map[string]bool{}
	for id := range docs {
		texts := fieldTexts(&docs[id])
		seen := map[string]bool{}
		for f, text := range texts {
			ws := words.Analyze(text)
			fieldWords[id][f] = ws
			for _, w := range ws {
				if compoundField(field(f)) {
					if !seen[w] {
						seen[w] = true
						nameDF[w]++
					}
				} else {
					dict[w] = true
				}
			}
		}
	}
	for w, df := range nameDF {
		if df >= 2 {
			dict[w] = true
		}
	}
	decompound := analysis.Decompound(func(w string) bool { return dict[w] })

	// Pass 2: terms, field lengths.
	var lens [numFields][]float64
	var sum [numFields]float64
	for id := range docs {
		d := &docs[id]
		ix.names[id] = d.Name
		if _, ok := ix.byName[d.Name]; !ok {
			ix.byName[d.Name] = id
		}
		lower := strings.ToLower(d.Name)
		if _, ok := ix.byLower[lower]; !ok {
			ix.byLower[lower] = id
		}
		ix.maxName = max(ix.maxName, len(d.Name), len(lower))
		ix.servers[id] = strings.ToLower(d.Server)
		ix.categories[id] = strings.ToLower(d.Category)
		ix.descs[id] = d.Description
		ix.paramNames[id] = strings.Join(d.ParamNames, " ")
		ix.nameKeys[id] = nameKey(d.Name)
		seen := map[string]bool{}
		for f := field(0); f < numFields; f++ {
			ws := fieldWords[id][f]
			if compoundField(f) {
				ws = decompound.Filter(ws)
			}
			var ts []int32
			for _, w := range ws {
				if !seen[w] {
					seen[w] = true
					ix.wordDF[w]++
				}
				ts = append(ts, ix.wordTerms(w, true)...)
			}
			ix.docTerms[id][f] = ts
			lens[f] = append(lens[f], float64(len(ts)))
			sum[f] += float64(len(ts))
		}
	}
	var avg [numFields]float64
	for f := range avg {
		avg[f] = 1
		if len(docs) > 0 && sum[f] > 0 {
			avg[f] = sum[f] / float64(len(docs))
		}
	}
	ix.refSat = fieldWeight[fieldName] / (bm25K1 + fieldWeight[fieldName])

	ix.buildServers(lens)
	ix.pairs = map[uint64][]int32{}
	for id := range docs {
		for _, f := range []field{fieldName, fieldServer, fieldDesc} {
			addPairs(ix.pairs, int32(id), ix.docTerms[id][f])
		}
	}
	ix.postings = make([][]posting, len(ix.terms))
	ix.maxSat = make([]float32, len(ix.terms))
	tf := map[int32]float64{}
	for id := range docs {
		clear(tf)
		for f := field(0); f < numFields; f++ {
			norm := 1 - fieldB[f] + fieldB[f]*lens[f][id]/avg[f]
			for _, t := range ix.docTerms[id][f] {
				tf[t] += fieldWeight[f] / norm
			}
		}
		for t, v := range tf {
			sat := float32(v / (bm25K1 + v))
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(id), sat: sat})
			ix.maxSat[t] = max(ix.maxSat[t], sat)
		}
	}
	ix.idf = make([]float64, len(ix.postings))
	ix.srvIdf = make([]float64, len(ix.postings))
	for t := range ix.postings {
		slices.SortFunc(ix.postings[t], func(a, b posting) int { return int(a.doc - b.doc) })
		ix.idf[t] = idf(len(ix.postings[t]), len(docs))
		ix.srvIdf[t] = idf(len(ix.srvPostings[t]), ix.numServers)
	}
	ix.words = make([]string, 0, len(ix.wordTerm))
	for w := range ix.wordTerm {
		ix.words = append(ix.words, w)
	}
	slices.Sort(ix.words)
	ix.sortedTerms = slices.Sorted(slices.Values(ix.termText))
	ix.termIDs = make([]int32, len(ix.termText))
	ix.termVariants = make([][]int32, len(ix.termText))
	for t, text := range ix.termText {
		ix.termIDs[t] = int32(t)
		ix.termVariants[t] = ix.variantsOf([]string{text})
	}
	for _, w := range ix.words {
		if ix.wordTerm[w] < 0 {
			continue
		}
		n := utf8.RuneCountInString(w)
		for len(ix.wordsByLen) <= n {
			ix.wordsByLen = append(ix.wordsByLen, nil)
		}
		ix.wordsByLen[n] = append(ix.wordsByLen[n], w)
	}
	ix.grams = newTrigramIndex(len(docs), ix.regexTexts)
	ix.pool.New = func() any { return ix.newScratch() }
	return ix
}

// wordTerms returns the term IDs of a surface word (as produced by
// analysis.Words): none for a stop word, usually one. With add, unknown
// terms are added to the index (building only).
func (ix *Index) wordTerms(w string, add bool) []int32 {
	if t, ok := ix.wordTerm[w]; ok {
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
// index (building only).
func (ix *Index) analyzeWord(w string, add bool) ([]int32, []string) {
	analyzed := analysis.Standard().Analyze(w)
	var out []int32
	for _, term := range analyzed {
		t, ok := ix.terms[term]
		if !ok {
			if !add {
				continue
			}
			t = int32(len(ix.terms))
			ix.terms[term] = t
			ix.termText = append(ix.termText, term)
		}
		out = append(out, t)
	}
	if add {
		switch len(out) {
		case 0:
			ix.wordTerm[w] = -1
		case 1:
			ix.wordTerm[w] = out[0]
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

// Len returns the number of tools in the index.
func (ix *Index) Len() int { return len(ix.names) }

// Name returns the name of tool id, or "" if id is out of range.
func (ix *Index) Name(id int) string {
	if id < 0 || id >= len(ix.names) {
		return ""
	}
	return ix.names[id]
}

// Lookup returns the ID of the tool with exactly this name; failing that,
// of the tool whose name equals it ignoring case (the lowest such ID).
func (ix *Index) Lookup(name string) (int, bool) {
	if id, ok := ix.byName[name]; ok {
		return id, true
	}
	id, ok := ix.byLower[strings.ToLower(name)]
	return id, ok
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
	f(ix.names[id])
	f(ix.descs[id])
	f(ix.paramNames[id])
}
