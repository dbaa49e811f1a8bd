package fallback

// sparse accumulates scores over one level of the index (tools, or servers
// as documents): dense score arrays whose non-zero entries are listed, so
// that clearing them costs only what a query set.
type sparse struct {
	acc     []float64 // score per document
	touched []int32   // documents with acc != 0

	slot        []float64 // best score per document for the current query word
	slotTouched []int32   // documents with slot != 0
}

// accumulate adds to sp, for every query word of terms, the BM25
// contribution of the word's best-matching term in each document (weight ×
// idf × saturation), over ix's tools, or its servers with srv: consecutive terms with the same slot are one word (the
// word itself, its stem variants, its completions), and a word counts once
// per document. bound, when not nil, returns a term's largest attainable
// contribution given its weighted idf w; accumulate then returns the sum
// over words of their largest bound, the score of an ideal document.
func (sp *sparse) accumulate(ix *Index, srv bool, terms []qterm, bound func(t qterm, w float64) float64) (norm float64) {
	postings := func(t int32) []posting {
		if srv {
			return ix.termData.At(int(t)).srvPostings
		}
		return ix.termData.At(int(t)).postings
	}
	// over marks the servers whose sats are overridden (see Index.srvSat).
	var over []bool
	if srv {
		over = ix.srvOver
	}
	sat := func(t int32, post posting) float64 {
		if over != nil && over[post.doc] {
			return float64(ix.srvSat[post.doc][t])
		}
		return float64(post.sat)
	}
	idf := func(t int32) float64 {
		if srv {
			return ix.srvIdf(t)
		}
		return ix.termIdf(t)
	}
	acc := sp.acc
	for i := 0; i < len(terms); {
		j := i + 1
		for j < len(terms) && terms[j].slot == terms[i].slot {
			j++
		}
		if j == i+1 {
			// One term: its postings are the word's best matches already,
			// so they go straight into acc (the same sums as via slot).
			t := terms[i]
			w := t.weight * idf(t.id)
			for _, post := range postings(t.id) {
				// The conversion keeps the product rounded on its own (no
				// fused multiply-add), as when it went through slot.
				v := float64(w * sat(t.id, post))
				if !(v > 0) {
					continue
				}
				if acc[post.doc] == 0 {
					sp.touched = append(sp.touched, post.doc)
				}
				acc[post.doc] += v
			}
			if bound != nil {
				norm += bound(t, w)
			}
			i = j
			continue
		}
		slotMax := 0.0
		for _, t := range terms[i:j] {
			w := t.weight * idf(t.id)
			for _, post := range postings(t.id) {
				if v := w * sat(t.id, post); v > sp.slot[post.doc] {
					if sp.slot[post.doc] == 0 {
						sp.slotTouched = append(sp.slotTouched, post.doc)
					}
					sp.slot[post.doc] = v
				}
			}
			if bound != nil {
				slotMax = max(slotMax, bound(t, w))
			}
		}
		norm += slotMax
		for _, d := range sp.slotTouched {
			if acc[d] == 0 {
				sp.touched = append(sp.touched, d)
			}
			acc[d] += sp.slot[d]
			sp.slot[d] = 0
		}
		sp.slotTouched = sp.slotTouched[:0]
		i = j
	}
	return norm
}
