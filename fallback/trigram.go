package fallback

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The trigram index lets regex mode match only the tools that can match.
// As in Google Code Search and zoekt, every tool's regex-searched text
// (name, description, parameter names) is indexed by its trigrams (3-byte
// substrings), a pattern is analysed into a boolean query over the
// trigrams of the literals any match must contain (gramQuery, analyse),
// the query is answered from the posting lists, and only those candidates
// run the full RE2 match. A pattern with no literal of 3 bytes that every
// match needs (".*", "^a", "\\d+") is matched against every tool, and the
// search says so (Result.Scanned).
//
// Case: regex mode is case-insensitive by default, and (?i) in RE2 matches
// runes of the same Unicode simple case-folding orbit ('k', 'K' and the
// Kelvin sign 'K'). Text and literals are both indexed folded: each rune
// replaced by the smallest rune of its orbit, so a literal that matches,
// with or without (?i), has its folded trigrams among the text's folded
// trigrams. The index only ever admits a superset of the matches; the RE2
// match decides.

// trigramIndex holds, per trigram of the folded texts, the IDs of the
// tools whose text has it, ascending (a compressed sparse row layout: one
// slice of IDs for all lists).
//
// Apply does not rebuild the lists: it shares them and records in extra,
// per trigram, the tools it wrote that have it. A list may then hold tools
// whose text has changed since, or that are gone (IDs ≥ Len): the index
// still admits a superset of the matches, which is all that regex mode
// needs.
type trigramIndex struct {
	list  map[uint32]int32 // trigram → list number
	offs  []int32          // list i is ids[offs[i]:offs[i+1]]
	ids   []int32
	extra omap[uint32, []int32] // trigram → more tools, ascending (see Apply)
}

// gram packs three bytes into a trigram key.
func gram(a, b, c byte) uint32 { return uint32(a)<<16 | uint32(b)<<8 | uint32(c) }

// fold returns the canonical rune of r's simple case-folding orbit: the
// smallest rune that RE2's (?i) treats as equal to r. ASCII letters fold
// to upper case ('k' → 'K', since the Kelvin sign is above it).
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

// appendFolded appends s with every rune folded (invalid UTF-8 bytes
// become U+FFFD, as RE2 reads them).
func appendFolded(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, fold(r))
		i += n
	}
	return dst
}

// newTrigramIndex indexes each tool's texts (fields kept apart: no trigram
// spans two fields). texts(id, f) calls f with each text of tool id.
func newTrigramIndex(n int, texts func(id int, f func(string))) *trigramIndex {
	// Pass 1 counts each trigram's tools, pass 2 fills the lists, which
	// share one exactly sized slice. last[l] is the last tool counted in
	// list l, so a trigram repeated within a tool counts once, without
	// sorting each tool's trigrams; tools come in ascending order, so each
	// list comes out ascending.
	var buf []byte
	each := func(id int, f func(g uint32)) {
		texts(id, func(s string) {
			buf = appendFolded(buf[:0], s)
			for i := 2; i < len(buf); i++ {
				f(gram(buf[i-2], buf[i-1], buf[i]))
			}
		})
	}
	t := &trigramIndex{list: map[uint32]int32{}}
	var counts, last []int32
	for id := range n {
		each(id, func(g uint32) {
			l, ok := t.list[g]
			if !ok {
				l = int32(len(counts))
				t.list[g] = l
				counts, last = append(counts, 0), append(last, -1)
			}
			if last[l] != int32(id) {
				last[l] = int32(id)
				counts[l]++
			}
		})
	}
	t.offs = make([]int32, len(counts)+1)
	for l, c := range counts {
		t.offs[l+1] = t.offs[l] + c
	}
	t.ids = make([]int32, t.offs[len(counts)])
	next := counts[:0] // reused: next free position of each list
	next = append(next, t.offs[:len(t.offs)-1]...)
	clear(last)
	for id := range n {
		each(id, func(g uint32) {
			l := t.list[g]
			if last[l] != int32(id)+1 { // +1: cleared to 0, IDs start at 0
				last[l] = int32(id) + 1
				t.ids[next[l]] = int32(id)
				next[l]++
			}
		})
	}
	return t
}

// postings returns the tools whose text has trigram g, ascending.
func (t *trigramIndex) postings(g uint32) []int32 {
	var base []int32
	if l, ok := t.list[g]; ok {
		base = t.ids[t.offs[l]:t.offs[l+1]]
	}
	if len(t.extra.base) == 0 && len(t.extra.over) == 0 {
		return base
	}
	more, ok := t.extra.get(g)
	if !ok {
		return base
	}
	return union(base, more)
}

// union returns the ascending union of two ascending lists.
func union(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// eachGram calls f with each distinct trigram of texts' folded texts.
func eachGram(texts func(f func(string)), f func(g uint32)) {
	var buf []byte
	seen := map[uint32]bool{}
	texts(func(s string) {
		buf = appendFolded(buf[:0], s)
		for i := 2; i < len(buf); i++ {
			if g := gram(buf[i-2], buf[i-1], buf[i]); !seen[g] {
				seen[g] = true
				f(g)
			}
		}
	})
}

// Bytes is the index's memory: the lists and the map (an estimate of 16
// bytes per entry, a Go map's cost for 4-byte keys and values at its usual
// load).
func (t *trigramIndex) Bytes() int {
	return 4*len(t.ids) + 4*len(t.offs) + 16*len(t.list)
}

// gramQuery is a boolean query over trigrams: with all set it matches
// every tool (no constraint); otherwise with or unset it requires every
// trigram of grams and every sub-query, and with or set any one of them.
type gramQuery struct {
	all   bool
	or    bool
	grams []uint32
	sub   []*gramQuery
}

var anyQuery = &gramQuery{all: true}

// and returns the query requiring both a and b.
func and(a, b *gramQuery) *gramQuery {
	switch {
	case a.all:
		return b
	case b.all:
		return a
	}
	q := &gramQuery{}
	for _, x := range []*gramQuery{a, b} {
		if x.or {
			q.sub = append(q.sub, x)
		} else {
			q.grams = append(q.grams, x.grams...)
			q.sub = append(q.sub, x.sub...)
		}
	}
	return q
}

// or returns the query satisfied by a or b.
func or(a, b *gramQuery) *gramQuery {
	if a.all || b.all {
		return anyQuery
	}
	q := &gramQuery{or: true}
	for _, x := range []*gramQuery{a, b} {
		if x.or || len(x.grams)+len(x.sub) == 1 {
			q.grams = append(q.grams, x.grams...)
			q.sub = append(q.sub, x.sub...)
		} else {
			q.sub = append(q.sub, x)
		}
	}
	return q
}

// stringsQuery is the query of a set of folded strings (one of them
// occurs): the OR over the strings of the AND of each one's trigrams. A
// string shorter than a trigram constrains nothing, and so neither does
// the set.
func stringsQuery(set []string) *gramQuery {
	var q *gramQuery
	for _, s := range set {
		if len(s) < 3 {
			return anyQuery
		}
		sq := &gramQuery{}
		for i := 2; i < len(s); i++ {
			sq.grams = append(sq.grams, gram(s[i-2], s[i-1], s[i]))
		}
		if q == nil {
			q = sq
		} else {
			q = or(q, sq)
		}
	}
	if q == nil { // the empty set: matches nothing; leave that to RE2
		return anyQuery
	}
	return q
}

// Analysis limits. maxExact bounds the strings an exact set holds: "[bc]at"
// is {BAT, CAT}, "(get|list)_(issue|user)" four strings; past 16 (e.g.
// "[a-z]{2}x" would be 676) the set is turned into its query and exactness
// dropped. maxClass: a character class of at most 16 runes before folding
// ("[bc]", "(?i)k" = {K, k, K}) is expanded into an exact set, a larger one
// ("[a-z]", "\d") constrains nothing.
const (
	maxExact = 16
	maxClass = 16
)

// reInfo is what analyse knows of a sub-expression: either the exact set
// of (folded) strings it matches, or, when exact is nil, a query every
// text containing a match satisfies.
type reInfo struct {
	exact []string
	match *gramQuery
}

// query returns the query a text containing a match of the expression
// satisfies.
func (i reInfo) query() *gramQuery {
	if i.exact != nil {
		return stringsQuery(i.exact)
	}
	return i.match
}

var (
	emptyInfo = reInfo{exact: []string{""}}
	anyInfo   = reInfo{match: anyQuery}
)

// regexQuery returns the trigram query of a parsed pattern; the result's
// all is set when the pattern needs no trigram.
func regexQuery(re *syntax.Regexp) *gramQuery { return analyse(re.Simplify()).query() }

// analyse returns what re's matches must contain. It handles every
// operator of regexp/syntax; an operator it cannot use (".", "\d+",
// "x*") constrains nothing.
func analyse(re *syntax.Regexp) reInfo {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return emptyInfo
	case syntax.OpLiteral:
		var b []byte
		for _, r := range re.Rune {
			b = utf8.AppendRune(b, fold(r))
		}
		return reInfo{exact: []string{string(b)}}
	case syntax.OpCharClass:
		return classInfo(re.Rune)
	case syntax.OpCapture:
		return analyse(re.Sub[0])
	case syntax.OpQuest:
		x := analyse(re.Sub[0])
		if x.exact != nil && len(x.exact) < maxExact {
			return alternate(x, emptyInfo)
		}
		return anyInfo
	case syntax.OpPlus:
		return reInfo{match: analyse(re.Sub[0]).query()}
	case syntax.OpRepeat:
		if re.Min == 0 {
			return anyInfo
		}
		return reInfo{match: analyse(re.Sub[0]).query()}
	case syntax.OpConcat:
		out := emptyInfo
		for _, sub := range re.Sub {
			out = concat(out, analyse(sub))
		}
		return out
	case syntax.OpAlternate:
		if len(re.Sub) == 0 {
			return anyInfo
		}
		out := analyse(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			out = alternate(out, analyse(sub))
		}
		return out
	}
	// OpNoMatch, OpAnyChar, OpAnyCharNotNL, OpStar.
	return anyInfo
}

// classInfo is the info of a character class (pairs of inclusive rune
// ranges): the exact set of its folded runes when it has at most maxClass
// runes.
func classInfo(ranges []rune) reInfo {
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > maxClass {
			return anyInfo
		}
	}
	if n == 0 {
		return anyInfo
	}
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			out = append(out, string(fold(r)))
		}
	}
	slices.Sort(out)
	return reInfo{exact: slices.Compact(out)}
}

// concat returns the info of x followed by y.
func concat(x, y reInfo) reInfo {
	if x.exact != nil && y.exact != nil && len(x.exact)*len(y.exact) <= maxExact {
		out := make([]string, 0, len(x.exact)*len(y.exact))
		for _, a := range x.exact {
			for _, b := range y.exact {
				out = append(out, a+b)
			}
		}
		slices.Sort(out)
		return reInfo{exact: slices.Compact(out)}
	}
	return reInfo{match: and(x.query(), y.query())}
}

// alternate returns the info of x|y.
func alternate(x, y reInfo) reInfo {
	if x.exact != nil && y.exact != nil && len(x.exact)+len(y.exact) <= maxExact {
		out := slices.Concat(x.exact, y.exact)
		slices.Sort(out)
		return reInfo{exact: slices.Compact(out)}
	}
	return reInfo{match: or(x.query(), y.query())}
}

// candidates returns the tools that satisfy q, ascending, or all = true
// when q constrains nothing.
func (t *trigramIndex) candidates(q *gramQuery) (ids []int32, all bool) {
	if q.all {
		return nil, true
	}
	if q.or {
		var out []int32
		for _, g := range q.grams {
			out = append(out, t.postings(g)...)
		}
		for _, s := range q.sub {
			ids, all := t.candidates(s)
			if all {
				return nil, true
			}
			out = append(out, ids...)
		}
		slices.Sort(out)
		return slices.Compact(out), false
	}
	lists := make([][]int32, 0, len(q.grams)+len(q.sub))
	for _, g := range q.grams {
		lists = append(lists, t.postings(g))
	}
	for _, s := range q.sub {
		if ids, all := t.candidates(s); !all {
			lists = append(lists, ids)
		}
	}
	if len(lists) == 0 {
		return nil, true
	}
	// Shortest first: each intersection costs about the shorter list's
	// length times the log of the longer one's.
	slices.SortFunc(lists, func(a, b []int32) int { return len(a) - len(b) })
	out := slices.Clone(lists[0])
	for _, l := range lists[1:] {
		if len(out) == 0 {
			break
		}
		out = intersect(out, l)
	}
	return out, false
}

// intersect keeps the IDs of a (ascending) that b (ascending, usually
// longer) also holds, in place, finding each in b by galloping from the
// last position found.
func intersect(a, b []int32) []int32 {
	out := a[:0]
	lo := 0
	for _, x := range a {
		// Gallop: find a bound past x, then binary search below it.
		step := 1
		hi := lo
		for hi < len(b) && b[hi] < x {
			lo = hi + 1
			hi += step
			step *= 2
		}
		hi = min(hi, len(b)-1)
		i, found := slices.BinarySearch(b[lo:hi+1], x)
		lo += i
		if found {
			out = append(out, x)
		}
		if lo >= len(b) {
			break
		}
	}
	return out
}
