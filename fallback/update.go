package fallback

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Edit sets the document with ID ID (see Index.Apply). It is a plain value;
// Apply keeps Doc's strings but none of its slices.
type Edit struct {
	ID  int
	Doc Document
}

// rebuildShare sets when Apply rebuilds the whole index instead of updating
// it: once the tools written by Apply since the last full build (counting
// each edit and each dropped ID) exceed 1/rebuildShare of the tools. A full
// build refreshes the frozen statistics (see Apply) and compacts what
// updates leave behind (unused term IDs, stale trigram lists, overlays).
//
// Worked example: at 100,000 tools, Apply updates in place until 25,000
// tools have been written, then one Apply pays a full build (several
// seconds at that size: 4 s would be 0.16 ms per written tool, amortized)
// and the count starts again.
const rebuildShare = 4

// Apply returns a new Index of n documents in which each edit's ID holds
// its Doc, IDs below n that no edit names keep their document, and IDs at
// or above n are dropped. When several edits name one ID, the last wins.
// ix itself never changes and stays usable by concurrent readers; Apply
// may run concurrently with searches on ix (and with other Applies on ix).
//
// Every ID in [ix.Len(), n) must be edited, and every edit's ID must be in
// [0, n): Apply panics otherwise, as these are the caller's bookkeeping
// errors, not bad input (an engine maps tool names to IDs itself).
//
// Typical uses: an update in place (an edit of ID i, n = Len), an insert
// (n = Len+1, an edit of ID Len), a delete by swap-remove (n = Len-1, an
// edit of ID i with the last document, unless i is the last), and batches
// of those.
//
// Cost: Apply analyzes only the edited documents and touches the posting
// lists of their terms (old and new), of their phrase pairs and trigrams,
// and the servers they belong to (a server's pseudo-document is recomputed
// from its tools, so that costs the server's size). Other parts are shared
// with ix, in chunks (see vec, omap, slist). From time to time an Apply
// also merges an overlay into its base or rewrites overridden servers'
// lists (see maxOverlayShare, maxPendingShare, maxSrvOverrides), which
// costs more, amortized over the Applies before it. BenchmarkApplyOne at
// 100,000 synthetic tools (on a shared 2-core machine): an update in place
// 2.4 ms p50 (8 ms mean), an insert 0.6 ms p50 (1.7 ms mean), a
// swap-remove 3.4 ms p50 (8 ms mean).
//
// Statistics: the BM25F average field lengths (of tools and of servers)
// and the decompounding dictionary are frozen at the last full build;
// idf always reflects the current document and server counts, and the
// ideal scores (maxSat) are exact. Results therefore equal those of a
// fresh build over the same documents with those frozen statistics (and
// the same term numbering, which only breaks exact ties between feedback
// terms). Once the written tools exceed 1/rebuildShare of n, Apply does a
// full build instead (NewIndex over the current documents), which
// refreshes the statistics.
func (ix *Index) Apply(n int, edits []Edit) *Index {
	return ix.apply(n, edits, true)
}

// apply is Apply; the rebuild policy applies only with rebuild (the tests
// turn it off to compare long runs of updates with fresh builds).
func (ix *Index) apply(n int, edits []Edit, rebuild bool) *Index {
	if ix == nil {
		ix = &Index{}
	}
	old := ix.Len()
	if n < 0 {
		panic(fmt.Sprintf("fallback: Apply with %d documents", n))
	}
	docs := map[int]*Document{}
	for i := range edits {
		e := &edits[i]
		if e.ID < 0 || e.ID >= n {
			panic(fmt.Sprintf("fallback: Apply: edit of ID %d, outside [0, %d)", e.ID, n))
		}
		docs[e.ID] = &e.Doc
	}
	for id := old; id < n; id++ {
		if docs[id] == nil {
			panic(fmt.Sprintf("fallback: Apply: ID %d (a new document, from Len %d to %d) is not edited", id, old, n))
		}
	}
	ids := make([]int, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	dropped := max(0, old-n)
	if ix.st == nil || rebuild && ix.changed+len(ids)+dropped > n/rebuildShare {
		all := make([]Document, n)
		for id := range all {
			if d := docs[id]; d != nil {
				all[id] = *d
			} else {
				all[id] = ix.docs.At(id).doc
			}
		}
		return NewIndex(all)
	}

	nw := ix.edit()
	nw.changed = ix.changed + len(ids) + dropped
	u := updates{
		words:   map[string]int{},
		postDel: map[int32][]int32{}, postAdd: map[int32][]posting{},
		pairDel: map[uint64][]int32{}, pairAdd: map[uint64][]int32{},
		servers: map[int32]bool{},
		grams:   map[uint32][]int32{},
	}

	// The old documents' share: of edited IDs below the old length, and of
	// dropped IDs.
	memberDel := map[int32][]int32{}
	removeOld := func(id int) {
		d := ix.docs.At(id)
		nw.removeName(d.doc.Name, int32(id))
		for _, w := range distinct(ix.st.indexWords(rawWords(&d.doc))) {
			u.words[w]--
		}
		for _, t := range distinct32(d.terms[:]) {
			u.postDel[t] = append(u.postDel[t], int32(id))
		}
		for _, k := range docPairs(d) {
			u.pairDel[k] = append(u.pairDel[k], int32(id))
		}
		memberDel[d.serverID] = append(memberDel[d.serverID], int32(id))
		u.servers[d.serverID] = true
	}
	for _, id := range ids {
		if id < old {
			removeOld(id)
		}
	}
	for id := n; id < old; id++ {
		removeOld(id)
	}
	for s, del := range memberDel {
		m := nw.members.Mut(int(s))
		*m = mergeIDs(*m, del, nil)
	}
	nw.docs.Truncate(n)

	// The new documents' share.
	for _, id := range ids {
		d := docs[id]
		var ws []string
		info := nw.newDocInfo(d, rawWords(d), &ws)
		for _, w := range ws {
			u.words[w]++
		}
		nw.addName(d.Name, int32(id))
		nw.serverOf(&info, int32(id))
		u.servers[info.serverID] = true
		*nw.docs.Mut(id) = info
		for t, sat := range nw.docSats(&info) {
			u.postAdd[t] = append(u.postAdd[t], posting{doc: int32(id), sat: sat})
		}
		for _, k := range docPairs(&info) {
			u.pairAdd[k] = append(u.pairAdd[k], int32(id))
		}
		eachGram(func(f func(string)) { nw.regexTexts(id, f) }, func(g uint32) {
			u.grams[g] = append(u.grams[g], int32(id))
		})
	}

	nw.updateWords(ix, u.words)
	nw.updatePostings(ix, u.postDel, u.postAdd)
	nw.updatePairs(ix, u.pairDel, u.pairAdd)
	nw.updateServers(ix, u.servers)
	for g, add := range u.grams {
		more, _ := nw.grams.extra.get(g)
		slices.Sort(add)
		nw.grams.extra.set(g, union(more, add))
	}
	nw.grams.extra.finish()
	nw.finish()
	return nw
}

// updates collects the changes of one Apply.
type updates struct {
	words            map[string]int // surface word → change of its document frequency
	postDel          map[int32][]int32
	postAdd          map[int32][]posting
	pairDel, pairAdd map[uint64][]int32
	servers          map[int32]bool // servers whose tools changed
	grams            map[uint32][]int32
}

// edit returns a copy of ix for Apply to change.
func (ix *Index) edit() *Index {
	return &Index{
		docs:        ix.docs.Edit(),
		byName:      ix.byName.edit(),
		byLower:     ix.byLower.edit(),
		dups:        ix.dups.edit(),
		maxName:     ix.maxName,
		terms:       ix.terms.edit(),
		termData:    ix.termData.Edit(),
		termIDs:     ix.termIDs,
		sortedTerms: ix.sortedTerms,
		idfs:        ix.idfs,
		idfN:        ix.idfN,
		words:       ix.words,
		wordTerm:    ix.wordTerm.edit(),
		wordDF:      ix.wordDF.edit(),
		wordsByLen:  ix.wordsByLen,
		pairs:       ix.pairs.edit(),
		serverKey:   ix.serverKey.edit(),
		members:     ix.members.Edit(),
		numServers:  ix.numServers,
		srvIdfs:     ix.srvIdfs,
		srvIdfN:     ix.srvIdfN,
		srvSat:      ix.srvSat,
		srvOver:     ix.srvOver,
		grams: &trigramIndex{
			list: ix.grams.list, offs: ix.grams.offs, ids: ix.grams.ids,
			extra: ix.grams.extra.edit(),
		},
		st:     ix.st,
		refSat: ix.refSat,
	}
}

// updateWords applies the changes of the words' document frequencies
// (old is the Index before Apply): wordDF, and the vocabulary lists of the
// words that appear or disappear.
func (ix *Index) updateWords(old *Index, delta map[string]int) {
	var gone, born []string
	for w, d := range delta {
		if d == 0 {
			continue
		}
		was, _ := old.wordDF.get(w)
		now := was + d
		if now > 0 {
			ix.wordDF.set(w, now)
			if was == 0 {
				if _, ok := ix.wordTerm.get(w); ok {
					born = append(born, w)
				}
			}
			continue
		}
		ix.wordDF.del(w)
		if _, ok := old.wordTerm.get(w); ok {
			gone = append(gone, w)
		}
	}
	if len(gone)+len(born) == 0 {
		return
	}
	slices.Sort(gone)
	slices.Sort(born)
	ix.wordsByLen = slices.Clone(ix.wordsByLen)
	byLen := map[int]bool{}
	for _, w := range gone {
		if t, _ := old.wordTerm.get(w); t >= 0 {
			byLen[runeCount(w)] = true
		}
		ix.wordTerm.del(w)
	}
	for _, w := range born {
		if t, _ := ix.wordTerm.get(w); t >= 0 {
			byLen[runeCount(w)] = true
		}
	}
	ix.words = ix.words.update(gone, born)
	for l := range byLen {
		for len(ix.wordsByLen) <= l {
			ix.wordsByLen = append(ix.wordsByLen, slist{})
		}
		var g, b []string // the non-stop words (those in wordsByLen)
		for _, w := range gone {
			if t, _ := old.wordTerm.get(w); t >= 0 && runeCount(w) == l {
				g = append(g, w)
			}
		}
		for _, w := range born {
			if t, _ := ix.wordTerm.get(w); t >= 0 && runeCount(w) == l {
				b = append(b, w)
			}
		}
		ix.wordsByLen[l] = ix.wordsByLen[l].update(g, b)
	}
}

// updatePostings applies the posting changes; terms that lose their last
// tool leave the vocabulary, new ones join it, and the variants of the
// terms around them are recomputed.
func (ix *Index) updatePostings(old *Index, del map[int32][]int32, add map[int32][]posting) {
	changed := map[int32]bool{}
	for t := range del {
		changed[t] = true
	}
	for t := range add {
		changed[t] = true
	}
	var gone, born []string
	for t := range changed {
		var was []posting
		if int(t) < old.termData.Len() {
			was = old.termData.At(int(t)).postings
		}
		now := mergePostings(was, del[t], add[t])
		m := ix.termData.Mut(int(t))
		m.postings = now
		// The largest sat: the old one unless a removed posting had it
		// (then the list is scanned), or an added one is larger.
		rescan := false
		for _, d := range del[t] {
			if i, ok := slices.BinarySearchFunc(was, d, func(p posting, d int32) int { return cmp.Compare(p.doc, d) }); ok && was[i].sat >= m.maxSat {
				rescan = true
			}
		}
		if rescan || len(was) == 0 {
			m.maxSat = 0
			for _, p := range now {
				m.maxSat = max(m.maxSat, p.sat)
			}
		} else {
			for _, p := range add[t] {
				m.maxSat = max(m.maxSat, p.sat)
			}
		}
		switch {
		case len(was) > 0 && len(now) == 0:
			ix.terms.del(m.text)
			m.variants = nil
			gone = append(gone, m.text)
		case len(was) == 0 && len(now) > 0:
			born = append(born, m.text)
		}
	}
	if len(gone)+len(born) == 0 {
		return
	}
	slices.Sort(gone)
	slices.Sort(born)
	ix.sortedTerms = ix.sortedTerms.update(gone, born)
	// The terms whose variants may have changed: the new terms, and the
	// live terms that extend or are extended by a new or removed term.
	affected := map[int32]bool{}
	for _, list := range [][]string{gone, born} {
		for _, w := range list {
			if t, ok := ix.terms.get(w); ok {
				affected[t] = true
			}
			for k := minVariantLen; k < len(w); k++ {
				if t, ok := ix.terms.get(w[:k]); ok {
					affected[t] = true
				}
			}
			if len(w) < minVariantLen {
				continue
			}
			for v := range ix.sortedTerms.from(w) {
				if !strings.HasPrefix(v, w) {
					break
				}
				t, _ := ix.terms.get(v)
				affected[t] = true
			}
		}
	}
	for t := range affected {
		m := ix.termData.Mut(int(t))
		m.variants = ix.variantsOf([]string{m.text})
	}
}

// updatePairs applies the phrase-pair changes.
func (ix *Index) updatePairs(old *Index, del, add map[uint64][]int32) {
	keys := map[uint64]bool{}
	for k := range del {
		keys[k] = true
	}
	for k := range add {
		keys[k] = true
	}
	for k := range keys {
		was, _ := old.pairs.get(k)
		now := mergeIDs(was, del[k], add[k])
		if len(now) == 0 {
			ix.pairs.del(k)
		} else {
			ix.pairs.set(k, now)
		}
	}
}

// maxSrvOverrides is how many servers may have their sats overridden
// (Index.srvSat) before Apply rewrites the posting lists of their terms.
// Recomputing a server changes the sat of every one of its terms; rewriting
// all their lists (which can hold most servers) on every Apply would cost
// far more than the change, so Apply rewrites only the lists the server
// enters or leaves and overrides the other sats, and rewrites the lists of
// all overridden servers at once when there are too many.
//
// Worked example: with 128, one Apply in about 64 that change tools of two
// servers each pays for rewriting the lists of 128 servers' terms (once per
// term; about 50 ms at 100,000 tools in 5,000 servers); a query pays one
// bitmap test per server posting while any override exists, and a map
// lookup for the overridden ones. On BenchmarkApplyOne at 100k tools, 128
// brought an update's mean from 12 ms (with 32) to 8.6 ms; queries after
// 200 updates (BenchmarkKeywordAfterApply) stayed within the noise.
const maxSrvOverrides = 128

// updateServers recomputes the pseudo-documents of the servers whose tools
// changed; servers left without tools are dropped.
func (ix *Index) updateServers(old *Index, servers map[int32]bool) {
	del := map[int32][]int32{}
	add := map[int32][]posting{}
	over := maps.Clone(old.srvSat)
	for s := range servers {
		var was, now map[int32]float32
		if int(s) < old.members.Len() && len(*old.members.At(int(s))) > 0 {
			was = old.serverSats(int(s))
		}
		if len(*ix.members.At(int(s))) > 0 {
			now = ix.serverSats(int(s))
		} else {
			// Every tool of s was an old one: s existed before.
			ix.serverKey.del(serverKeyOf(old.docs.At(int((*old.members.At(int(s)))[0]))))
			ix.numServers--
		}
		for t := range was {
			if _, ok := now[t]; !ok {
				del[t] = append(del[t], s)
			}
		}
		for t, sat := range now {
			if _, ok := was[t]; !ok {
				add[t] = append(add[t], posting{doc: s, sat: sat})
			}
		}
		if was != nil && now != nil {
			if over == nil {
				over = map[int32]map[int32]float32{}
			}
			over[s] = now
		} else {
			delete(over, s)
		}
	}
	for t := range del {
		if _, ok := add[t]; !ok {
			add[t] = nil
		}
	}
	for t, a := range add {
		var was []posting
		if int(t) < old.termData.Len() {
			was = old.termData.At(int(t)).srvPostings
		}
		ix.termData.Mut(int(t)).srvPostings = mergePostings(was, del[t], a)
	}
	ix.srvSat, ix.srvOver = nil, nil
	if len(over) > maxSrvOverrides {
		// Rewrite the lists of the overridden servers' terms.
		sets := map[int32][]posting{}
		for s, sats := range over {
			for t, sat := range sats {
				sets[t] = append(sets[t], posting{doc: s, sat: sat})
			}
		}
		for t, ps := range sets {
			m := ix.termData.Mut(int(t))
			list := slices.Clone(m.srvPostings)
			for _, p := range ps {
				i, _ := slices.BinarySearchFunc(list, p.doc, func(q posting, d int32) int { return cmp.Compare(q.doc, d) })
				list[i].sat = p.sat
			}
			m.srvPostings = list
		}
		return
	}
	if len(over) > 0 {
		ix.srvSat = over
		ix.srvOver = make([]bool, ix.members.Len())
		for s := range over {
			ix.srvOver[s] = true
		}
	}
}

// docPairs returns the distinct phrase-pair keys of a tool (see addPairs).
func docPairs(d *docInfo) []uint64 {
	var out []uint64
	for _, ts := range d.pairTerms() {
		for i := 1; i < len(ts); i++ {
			if ts[i] != ts[i-1] {
				out = append(out, pairKey(ts[i-1], ts[i]))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// distinct returns the distinct words of each field, in order of first
// occurrence.
func distinct(fw [numFields][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, ws := range fw {
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// distinct32 returns the distinct IDs of lists, ascending.
func distinct32(lists [][]int32) []int32 {
	var out []int32
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mergePostings returns old (ascending by doc) without the docs of del and
// with the postings of add (docs not in old once del is applied). It
// copies the runs between changes whole, so a long list with few changes
// costs little more than a memmove.
func mergePostings(old []posting, del []int32, add []posting) []posting {
	slices.Sort(del)
	slices.SortFunc(add, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) })
	return merge(old, del, add, func(p posting) int32 { return p.doc })
}

// mergeIDs returns old (ascending) without del and with add.
func mergeIDs(old, del, add []int32) []int32 {
	slices.Sort(del)
	slices.Sort(add)
	return merge(old, del, add, func(id int32) int32 { return id })
}

// mergeSorted returns list (sorted) without gone and with born (both
// sorted).
func mergeSorted(list, gone, born []string) []string {
	return merge(list, gone, born, func(s string) string { return s })
}

// merge returns list (ascending by key) without the elements whose keys
// are in del and with the elements of add (del and add ascending).
func merge[E any, K cmp.Ordered](list []E, del []K, add []E, key func(E) K) []E {
	out := make([]E, 0, max(0, len(list)-len(del))+len(add))
	i, di, ai := 0, 0, 0
	// find returns the position in list[i:] of the first key ≥ k, plus i.
	find := func(k K) int {
		j, _ := slices.BinarySearchFunc(list[i:], k, func(e E, k K) int { return cmp.Compare(key(e), k) })
		return i + j
	}
	for di < len(del) || ai < len(add) {
		if ai < len(add) && (di >= len(del) || key(add[ai]) < del[di]) {
			j := find(key(add[ai]))
			out = append(out, list[i:j]...)
			out = append(out, add[ai])
			i, ai = j, ai+1
			continue
		}
		j := find(del[di])
		out = append(out, list[i:j]...)
		i = j
		if i < len(list) && key(list[i]) == del[di] {
			i++
		}
		di++
	}
	return append(out, list[i:]...)
}

func runeCount(s string) int { return len([]rune(s)) }
