package fallback

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/query"
)

// scratch is per-query working memory, pooled by the Index.
type scratch struct {
	// tools holds the raw score per tool (acc, touched, and the per-word
	// slot); embedded, so s.tools.acc and s.tools.touched name the tools' scores.
	tools sparse

	pairSeen []uint64 // query term pairs already scored

	cands []candidate // candidates of the current query
	raws  []float64   // topSet's scratch
	heap  []candidate // topUnordered's scratch

	// termPos marks terms, per term ID: a term of the current plan holds its
	// position in plan.terms plus one (set by plan, for plan itself,
	// feedback and explain); a feedback term holds minus its position in
	// expansions plus one, while feedback runs; every other entry is zero.
	// putScratch clears the plan's marks.
	termPos    []int32
	terms      []qterm       // the current plan's terms (plan.terms' buffer)
	chunks     [][]queryWord // the words of each query term (see termWords)
	seq        []seqWord     // plan.seq's buffer
	bits       []uint64      // explain's matched-term bitset
	expansions []expansion   // feedback terms
	// The verb expansion's buffers (plan, with Options.Expand): the
	// query's words, their expansions, and the lookup of a synonym's
	// terms (synonymTerms).
	planWords []planWord
	verbs     []verbExpansion
	quoted    []bool // the query's terms inside quoted text (quotedTerms)
	synTerm   [1]query.Term
	synWords  [][]queryWord

	// servers holds the score per server (see serverWeight), normalized by
	// scoreServers.
	servers sparse
}

func (ix *Index) newScratch() *scratch {
	return &scratch{
		tools:   sparse{acc: make([]float64, ix.Len()), slot: make([]float64, ix.Len())},
		termPos: make([]int32, ix.termData.Len()),
	}
}

func (ix *Index) getScratch() *scratch {
	if s, ok := ix.pool.Get().(*scratch); ok && len(s.tools.acc) == ix.Len() && len(s.termPos) == ix.termData.Len() {
		return s
	}
	return ix.newScratch()
}

// putScratch returns s to the pool, all zero again.
func (ix *Index) putScratch(s *scratch) {
	for _, d := range s.tools.touched {
		s.tools.acc[d] = 0
	}
	s.tools.touched = s.tools.touched[:0]
	for _, t := range s.terms {
		s.termPos[t.id] = 0
	}
	s.terms = s.terms[:0]
	clear(s.seq) // drop references to the query's words
	s.seq = s.seq[:0]
	clear(s.chunks)
	s.chunks = s.chunks[:0]
	clear(s.planWords)
	s.planWords = s.planWords[:0]
	clear(s.verbs)
	s.verbs = s.verbs[:0]
	clear(s.synWords)
	s.synWords = s.synWords[:0]
	s.synTerm[0] = query.Term{}
	for _, d := range s.servers.touched {
		s.servers.acc[d] = 0
	}
	s.servers.touched = s.servers.touched[:0]
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
	// known and weight sum the query-side weights of the ranking words
	// found in the catalog and of all of them (Result.Coverage), leaving
	// out unknown argument values; knownAll and weightAll count those too
	// (Result.WordCoverage).
	known, weight       float64
	knownAll, weightAll float64
	// when sums the weights of the words in weight that say when
	// (saysWhen) and are not known: Result.WhenCoverage leaves them out.
	when float64
	// unknown are the words counted in weight and not in known
	// (Result.Unknown).
	unknown []UnknownWord
	seq     []seqWord // ranking words with index terms, in query order
}

// otherNameWeight is the share of its weight an unknown name in no
// locative place (requestNames: "where Priya talked about the budget", "the
// GPS position of the Sydney Opera House") keeps in Result.Coverage: such a
// name is most often an argument (who, which place), but sometimes the
// service asked for ("on Spotify"), so it is discounted, not left out.
// Measured (twelfth session, h38-calib; docs/benchmarks.md, "Names as
// arguments weigh half in coverage"), 1 → 0.5 with requestNames'
// exceptions: the example pairs pooled with 22 and 24, answerable
// flagged 53 → 49 of 817 (keyword 58 → 53), no-answer 755 → 755 of 810
// (keyword 756 → 755: held-out-9 "how high above sea level is Denver?");
// bfcl answerable 3.6 → 3.4 % (keyword 4.2 → 3.7 %); nDCG@10 of every set
// and the dev no-answer sets unchanged. No other weight was measured.
const otherNameWeight = 0.5

// coverage is Result.Coverage of the plan.
func (p *plan) coverage() float64 {
	return knownShare(p.known, p.weight)
}

// whenCoverage is Result.WhenCoverage of the plan.
func (p *plan) whenCoverage() float64 {
	return knownShare(p.known, coverageWhole(p.weight, p.when, true))
}

// knownShare is a coverage: the share known of whole, the weight of the
// words counted; 1 when none is.
func knownShare(known, whole float64) float64 {
	if whole <= 0 {
		return 1
	}
	return known / whole
}

// coverageWhole is the weight a coverage divides by: weight, less when
// (the unknown words of a time) with leaveWhen if any weight is left
// (WhenCoverage).
func coverageWhole(weight, when float64, leaveWhen bool) float64 {
	if leaveWhen && weight-when > 0 {
		return weight - when
	}
	return weight
}

// wordCoverage is Result.WordCoverage of the plan.
func (p *plan) wordCoverage() float64 {
	if p.weightAll <= 0 {
		return 1
	}
	return p.knownAll / p.weightAll
}

// seqWord is one ranking query word with its own index terms.
type seqWord struct {
	ids    []int32
	weight float64
}

// plan resolves q's terms to index terms. It marks the plan's terms in
// s.termPos and keeps its buffers in s (putScratch releases them). Without
// coverage its known and weight (Result.Coverage) leave out no place's or
// person's name (locativeNames): the caller does not read them. Without
// pathKinds a path or a file name matches by its own words alone
// (Options.PathKinds).
func (ix *Index) plan(s *scratch, q query.Query, coverage, expand, pathKinds bool, synonyms func(string) []string) plan {
	p := plan{terms: s.terms[:0], seq: s.seq[:0]}
	s.chunks = ix.termWords(s.chunks, q.Terms)
	slot := 0
	var verbs []verbExpansion              // the request's verbs to expand (Options.Expand)
	stmtFrom, stmtTo, stmtAt := -1, -1, -1 // the terms of an SQL statement written in the request (inlineStatement), its keyword's word
	if expand || coverage {
		s.quoted = quotedTerms(q.Terms, s.quoted[:0])
	}
	if expand {
		s.planWords = s.planWords[:0]
		stmtFrom, stmtTo = inlineStatement(q.Terms)
		for k, t := range q.Terms {
			if k == stmtFrom {
				stmtAt = len(s.planWords)
			}
			if !t.Excluded {
				thread := threadValue(t.Text)
				for _, qw := range chunkWords(s.chunks[k], expand) {
					s.planWords = append(s.planWords, planWord{word: qw.word, hasTerms: qw.hasTerms, value: qw.value, thread: thread})
				}
			}
		}
		verbs = requestExpansions(s.planWords, s.verbs[:0])
		if stmtFrom >= 0 && stmtAt < len(s.planWords) {
			verbs = append(verbs, verbExpansion{at: stmtAt, key: DataKey}) // the statement's keyword reads as SQL
		}
		s.verbs = verbs
	}
	weather := -1                           // weatherContext of the request, once a word of another sense asks (-1: not yet)
	at := 0                                 // the word's position among the words of s.planWords
	var names, others, text map[string]bool // requestNames and freeTextWords of q.Raw, once a word is unknown
	var notWhen map[string]bool             // timesNotWhen of q.Raw, once a time is unknown
	for k, t := range q.Terms {
		qws := s.chunks[k]
		if t.Excluded {
			var ids []int32
			known := true
			for _, qw := range qws {
				if len(qw.ids) == 0 && qw.hasTerms {
					known = false
				}
				ids = append(ids, qw.ids...)
			}
			if known && len(ids) > 0 {
				p.excluded = append(p.excluded, ids)
			}
			continue
		}
		var req []int32
		qws = chunkWords(qws, expand)
		for i := range qws {
			qw := &qws[i]
			short, shortKnown := qw.short, qw.shortKnown
			if expand && qw.otherSense {
				// An everyday word of another sense reads as its
				// plain name only in a request about the weather or a
				// place: "compiler warnings" are no weather alerts; a
				// thing worn only where it is asked about as worn.
				if weather < 0 {
					weather = 0
					if weatherContext(q.Raw, s.planWords) {
						weather = 1
					}
				}
				if weather == 0 && !weatherIt(s.planWords, at) || qw.worn && !wornAt(s.planWords, at) {
					short, shortKnown = nil, false
				}
			}
			if qw.hasTerms {
				p.weightAll += qw.weight
				if !qw.unmatched {
					p.knownAll += qw.weight
				}
			}
			if qw.unmatched && !qw.value && names == nil && coverage {
				names, others = requestNames(q.Raw)
				if len(others) > 0 {
					// The object of the request's verb is what it asks
					// about, name or not: "save Cafe Lisboa to my places".
					if o := RequestOpening(q.Raw); o.Verb != "" {
						for _, w := range o.Object {
							delete(others, w)
						}
					}
				}
				text = freeTextWords(q.Raw)
			}
			// A frame's time after "to" is no place: "move the dentist
			// appointment to Thursday at 4" (framed). Measured (ninth
			// session, h35-flags): example held-out-2 answerable flagged
			// 10.0 → 6.7 % (keyword 13.3 → 10.0 %), nothing else moves.
			framedName := names[qw.word] && coverage && synonyms != nil && ix.framed(verbs, at, qw.word, synonyms)
			quoted := coverage && s.quoted[k]
			if qw.hasTerms && !(qw.unmatched && (qw.value || countWords[qw.word] || quoted || names[qw.word] && !framedName || text[qw.word])) {
				// An argument value the catalog does not know says nothing
				// about whether it serves the request (coverageValues),
				// nor does a number written as a word (countWords: "these
				// four depots", as "these 4 depots"),
				// nor does a place or a person's name after "in", "from",
				// "to" (locativeNames), nor a word of a message's text
				// (freeTextWords), nor an unknown word of quoted text
				// (quotedTerms: the text the caller passes, a title or a
				// name; fuzzy search's quoted corrections are words the
				// catalog knows).
				known := !qw.unmatched || expand && shortKnown || coverage && synonyms != nil && (ix.knowsAny(synonyms(qw.word)) || ix.framed(verbs, at, qw.word, synonyms))
				w := qw.weight
				switch {
				case known:
				case others[qw.word]:
					w *= otherNameWeight // a name in no locative place: likely an argument, maybe the service asked for
				case hedges[qw.word]:
					w *= fillerWeight // how the asker judges or hedges, not what is asked
				}
				p.weight += w
				if known {
					p.known += qw.weight // known, in full (shortForms) or said otherwise (Options.CoverageVerbs, a frame's reading)
				} else {
					u := UnknownWord{Word: qw.word, Weight: w}
					if saysWhen(qw.word) {
						if notWhen == nil {
							notWhen = timesNotWhen(q.Raw)
						}
						if !notWhen[qw.word] {
							p.when += w // as counted in weight: a hedge or a name weighs less
							u.When = true
						}
					}
					if coverage {
						if p.unknown == nil {
							p.unknown = make([]UnknownWord, 0, len(q.Terms)-k) // one allocation: at most the words left
						}
						p.unknown = append(p.unknown, u)
					}
				}
			}
			if qw.unmatched {
				p.unmatched = append(p.unmatched, qw.word)
				if t.Required {
					p.impossible = true
				}
			}
			weight := qw.weight
			for _, v := range verbs {
				if v.at == at && v.own > 0 {
					weight *= v.own
				}
			}
			if expand && retrievalVerbs[qw.word] {
				weight *= ix.retrievalScale(s, qw.ids)
			}
			if expand && s.quoted[k] && !qw.formed {
				weight *= formedWeight // quoted text is a value: the text the caller passes
			}
			if k >= stmtFrom && k <= stmtTo && !qw.formed {
				weight *= formedWeight // an SQL statement is a value: the query the caller passes
			}
			kw := weight // the kind's weight: the value's, not its words'
			if qw.formed {
				weight *= formedWeight
			}
			if len(qw.ids) > 0 {
				p.seq = append(p.seq, seqWord{ids: qw.ids, weight: weight})
			}
			for _, id := range qw.ids {
				if t.Required {
					req = append(req, id)
				}
				if j := s.termPos[id]; j > 0 {
					p.terms[j-1].weight = max(p.terms[j-1].weight, weight)
					continue
				}
				p.terms = append(p.terms, qterm{id: id, weight: weight, slot: slot})
				s.termPos[id] = int32(len(p.terms))
			}
			for _, id := range qw.vars {
				if s.termPos[id] > 0 {
					continue
				}
				p.terms = append(p.terms, qterm{id: id, weight: weight * variantWeight, slot: slot})
				s.termPos[id] = int32(len(p.terms))
			}
			// An argument value also matches through its kind, as a
			// parameter's name or description would say it (valueKind,
			// on the chunk's first word): "#general" a channel.
			if qw.kindOwn {
				kw = 1 // coordinates: a place, not a number
			}
			kind := qw.kind
			if qw.pathKind && !pathKinds {
				kind = nil
			}
			if coverage && qw.value && qw.unmatched && len(kind) > 0 {
				// A value of a kind the catalog knows is understood
				// (Result.Coverage): one known word, at the kind's weight.
				p.weight += kw
				p.known += kw
			}
			for _, id := range kind {
				if s.termPos[id] > 0 {
					continue
				}
				p.terms = append(p.terms, qterm{id: id, weight: kw * kindWeight, slot: slot})
				s.termPos[id] = int32(len(p.terms))
			}
			if t.Prefix && i == len(qws)-1 {
				for _, id := range ix.completions(qw.word) {
					if s.termPos[id] > 0 {
						continue
					}
					p.terms = append(p.terms, qterm{id: id, weight: weight * prefixWeight, slot: slot})
					s.termPos[id] = int32(len(p.terms))
				}
			}
			// A short form also matches its full words, in its slot
			// (shortforms.go): "repo" as repository; a later word of
			// a full form of several gets its slot after the verbs'.
			if expand {
				p.terms = ix.shortTerms(s, p.terms, short, weight, slot, 0)
			}
			// A colloquial verb also matches its plain verbs, in its
			// slot (expansion.go): "bin" as delete, remove.
			for _, v := range verbs {
				if v.at != at {
					continue
				}
				for _, syn := range verbSynonyms[v.key] {
					sw := expansionWeight
					if retrievalVerbs[syn] {
						sw *= ix.retrievalScale(s, ix.synonymTerms(s, syn))
					}
					for _, id := range ix.synonymTerms(s, syn) {
						if s.termPos[id] > 0 {
							continue
						}
						p.terms = append(p.terms, qterm{id: id, weight: sw, slot: slot})
						s.termPos[id] = int32(len(p.terms))
					}
				}
			}
			if expand {
				for k := 1; k <= lastSlot(short); k++ {
					slot++
					p.terms = ix.shortTerms(s, p.terms, short, weight, slot, k)
				}
			}
			at++
			slot++
		}
		if t.Required && len(req) > 0 {
			p.required = append(p.required, req)
		}
	}
	s.terms, s.seq = p.terms, p.seq
	return p
}

// chunkWords returns the words of a query chunk that plan reads: with
// Options.Expand, an acronym's plural as one lowercase word (queryWord.alt:
// "PRs" → prs), else the chunk's words as analysed.
func chunkWords(qws []queryWord, expand bool) []queryWord {
	if expand && len(qws) > 0 && qws[0].alt != nil {
		return qws[0].alt
	}
	return qws
}

// knowsAny reports whether the catalog knows one of ws (plain words, such
// as a verb's synonyms), itself or a stem variant.
func (ix *Index) knowsAny(ws []string) bool {
	for _, w := range ws {
		if qw := ix.resolveWord(w); len(qw.ids) > 0 || len(qw.vars) > 0 {
			return true
		}
	}
	return false
}

// framed reports whether the word w at position at of the request is
// one that an expansion of the request reads (requestExpansions) — a
// frame's own word ("push" of "move _ time" in "push my dentist
// appointment on Friday to 4pm", "know" of "let _ know"), or a time word
// at or after the frame's time ("_ time": "friday", and "later" and
// "tomorrow" of "push the standup an hour later tomorrow") — when the
// catalog knows one of the frame's plain words (synonyms,
// Options.CoverageVerbs: reschedule, update, change; event, calendar).
// Such a word is understood as the frame reads it, as a verb said
// otherwise is (CoverageVerbs), and counts as known in Result.Coverage.
// So is the word whose slot a phrase of verbSynonyms joins (phraseAt:
// "big" of "how big", read as size; "far" of "how far", as distance):
// keyword search matches the phrase's plain words there already.
// Measured (fourteenth session, h40-calib; docs/benchmarks.md, "Everyday
// words for the catalog's plain words"), main 4b0ffa7 → after: example
// pairs pooled with 22, 24, 27 and 29 answerable flagged 53 → 51 of 917
// (keyword 59 → 58: "How big is /data/dumps/…sql.gz, and when was it
// written?", pair 29's "how far by road"), no-answer 842 of 910
// unchanged; modes.sh, ex.sh no-answer rows and every nDCG@10 unchanged.
func (ix *Index) framed(verbs []verbExpansion, at int, w string, synonyms func(string) []string) bool {
	for _, v := range verbs {
		if v.at != at && (v.key != TimeKey || v.at > at || !timeWords[w]) {
			continue
		}
		if v.key == SeeKey {
			return true // a colloquial get: any catalog that reads knows it (lightopeners.go)
		}
		if ix.knowsAny(synonyms(v.key)) {
			return true
		}
	}
	return false
}

// has reports whether tool id contains term t.
func (ix *Index) has(id int, t int32) bool {
	ps := ix.termData.At(int(t)).postings
	_, ok := slices.BinarySearchFunc(ps, int32(id), func(p posting, d int32) int { return int(p.doc - d) })
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
func (ix *Index) inScope(q *query.Query, id int) bool {
	if len(q.Servers) == 0 && len(q.Categories) == 0 {
		return true
	}
	d := ix.docs.At(id)
	if len(q.Servers) > 0 && !slices.ContainsFunc(q.Servers, func(s string) bool {
		return strings.EqualFold(s, d.server) || strings.EqualFold(s, serverPrefix(d.doc.Name))
	}) {
		return false
	}
	if len(q.Categories) > 0 && !slices.ContainsFunc(q.Categories, func(c string) bool {
		return strings.EqualFold(c, d.category)
	}) {
		return false
	}
	return true
}

// ExactName is the exact-name rule, the one every search mode uses: it
// returns the tool that the whole query names, if any. The query is
// trimmed as by query.ExactText (spaces, one level of surrounding quotes or
// backticks), then looked up as by Lookup: exactly, else ignoring case, so
// "GITHUB__CREATE_ISSUE" and "`github__create_issue`" both name
// github__create_issue.
func (ix *Index) ExactName(raw string) (int, bool) {
	if ix == nil {
		return 0, false
	}
	s := query.ExactText(raw)
	// A name has at most maxName bytes, and so does its lowercase form;
	// lowercasing maps every rune (or invalid byte) to at least one byte.
	// So a query of more runes names no tool, and a long request need not
	// be lowercased and hashed to find that out.
	if s == "" || len(s) > ix.maxName && utf8.RuneCountInString(s) > ix.maxName {
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
// weight of the word (see queryWordWeight; formedWeight of it for a word
// of an argument value whose form says its kind, "report-draft.docx"). A
// word may match through itself,
// a stem variant (variantWeight), for the first word of an argument value
// of a known kind ("#general", an e-mail address, a URL, coordinates) the
// kind's word (valueKind, coordinatesKind, kindWeight), for the last word a completion (prefixWeight)
// or, with Options.Expand, for a request's colloquial verb the plain verbs
// tools use for it (expansion.go, expansionWeight: "bin" as delete,
// remove) and for a short form its full words (shortforms.go,
// shortFormWeight: "repo" as repository); it counts once, by its best
// match. The tool's raw score is
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
// o.Allow apply before Limit and Total. Keyword ranks by relevance alone:
// putting a tool that the query names exactly (ExactName) first is the
// caller's step, the same in every mode. A query with
// no ranking words (only filters, or empty) lists every tool that passes its
// filters, in name order, with score 1. Keyword never panics.
func (ix *Index) Keyword(q query.Query, o Options) Result {
	if ix == nil || ix.Len() == 0 {
		return Result{}
	}
	s := ix.getScratch()
	defer ix.putScratch(s)
	p := ix.plan(s, q, !o.NoCoverage, o.Expand, o.PathKinds, o.CoverageVerbs)
	coverage, whenCoverage := p.coverage(), p.whenCoverage()
	if o.NoCoverage {
		coverage, whenCoverage = 0, 0
	}
	// filtered: some tools may fail ok (otherwise every tool passes).
	filtered := o.Allow != nil || len(q.Servers) > 0 || len(q.Categories) > 0 || len(p.required) > 0 || len(p.excluded) > 0
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
	rk := newRanker(ix)

	if p.impossible {
		return Result{Unmatched: p.unmatched, Coverage: coverage, WhenCoverage: whenCoverage, WordCoverage: p.wordCoverage(), Tally: p.tally(o.NoCoverage)}
	}
	// No ranking terms: list the tools that pass the filters.
	if len(p.terms) == 0 {
		if len(p.unmatched) > 0 {
			return Result{Unmatched: p.unmatched, Coverage: coverage, WhenCoverage: whenCoverage, WordCoverage: p.wordCoverage(), Tally: p.tally(o.NoCoverage)}
		}
		var cs []candidate
		for id := range ix.Len() {
			if ok(id) {
				cs = append(cs, candidate{id: id, raw: 1})
			}
		}
		res := Result{Total: len(cs), Unmatched: p.unmatched, Coverage: coverage, WhenCoverage: whenCoverage, WordCoverage: p.wordCoverage(), Tally: p.tally(o.NoCoverage)}
		top := rk.top(cs, o.Limit)
		if len(top) > 0 {
			res.Hits = o.Hits[:0]
		}
		for _, c := range top {
			h := Hit{ID: c.id, Score: 1}
			if o.Explain {
				h.Explain = "matches all filters"
			}
			res.Hits = append(res.Hits, h)
		}
		return res
	}

	// A query word counts once per tool, by its best-matching term (the
	// word itself, a stem variant or a completion), so raw ≤ norm.
	norm := s.tools.accumulate(ix, false, p.terms, func(t qterm, w float64) float64 {
		return w * max(float64(ix.termData.At(int(t.id)).maxSat), ix.refSat)
	})
	acc := s.tools.acc
	norm += ix.addPairScores(s, p)

	cs := slices.Grow(s.cands[:0], len(s.tools.touched))
	defer func() { s.cands = cs[:0] }()
	for _, d := range s.tools.touched {
		id := int(d)
		if filtered && !ok(id) {
			continue
		}
		cs = append(cs, candidate{id: id, raw: min(1, acc[d]/norm)})
	}
	if len(cs) > 0 {
		ix.smoothByServer(s, p, cs)
		ix.feedback(s, p, cs)
	}
	res := Result{Total: len(cs), Unmatched: p.unmatched, Coverage: coverage, WhenCoverage: whenCoverage, WordCoverage: p.wordCoverage(), Tally: p.tally(o.NoCoverage)}
	if o.Explain {
		ix.markQuery(s, p)
	}
	var top []candidate
	if o.Unordered && rk.unnamed {
		top, s.heap = rk.topUnnamed(cs, o.Limit, s.heap)
	} else if o.Unordered {
		var ok bool
		if top, s.raws, ok = topSet(cs, o.Limit, s.raws); !ok {
			top, s.heap = rk.topUnordered(cs, o.Limit, s.heap)
		}
	} else {
		top = rk.top(cs, o.Limit)
	}
	if len(top) > 0 {
		res.Hits = slices.Grow(o.Hits[:0], len(top))
	}
	for _, c := range top {
		score := c.raw
		h := Hit{ID: c.id, Score: score}
		if o.Explain {
			h.Explain = ix.explain(s, c.id, p, s.tools.acc[c.id], norm)
		}
		res.Hits = append(res.Hits, h)
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
	d := ix.docs.At(id)
	for f := range numFields {
		// The matched query terms, as a bitset over positions in p.terms
		// (s.termPos holds position+1, see markQuery).
		clear(s.bits)
		any := false
		for _, t := range d.terms[f] {
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
			b = append(b, ix.termData.At(int(t.id)).text...)
		}
		b = append(b, ']')
	}
	return string(b)
}

// markQuery sizes s.bits for explain (plan has marked the query's terms in
// s.termPos).
func (ix *Index) markQuery(s *scratch, p plan) {
	s.bits = slices.Grow(s.bits[:0], (len(p.terms)+63)/64)[:(len(p.terms)+63)/64]
}
