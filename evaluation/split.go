package evaluation

import "hash/fnv"

// Split divides queries into two halves by a stable hash of their ids
// (FNV-1a, even or odd): the same id always lands in the same half, on
// every machine and whatever the file's order. The replay evaluation of
// learning from use learns on one half and evaluates the other.
func Split(qs []Query) (even, odd []Query) {
	for _, q := range qs {
		h := fnv.New32a()
		h.Write([]byte(q.ID))
		if h.Sum32()%2 == 0 {
			even = append(even, q)
		} else {
			odd = append(odd, q)
		}
	}
	return even, odd
}

// Fold divides queries into k folds by the same hash as Split (FNV-1a of
// the id, modulo k) and returns fold f and the others: a k-fold replay
// learns on rest and evaluates in, once per f in [0, k), so every query is
// evaluated once (on a small set, k runs judge every query where two
// halves judge each half on its own). Fold(qs, 2, 0) is Split's even half.
// It panics unless 0 ≤ f < k.
func Fold(qs []Query, k, f int) (in, rest []Query) {
	if k <= 0 || f < 0 || f >= k {
		panic("evaluation.Fold: fold out of range")
	}
	for _, q := range qs {
		h := fnv.New32a()
		h.Write([]byte(q.ID))
		if int(h.Sum32()%uint32(k)) == f {
			in = append(in, q)
		} else {
			rest = append(rest, q)
		}
	}
	return in, rest
}

// Paraphrases returns the queries of qs that share a relevant tool with a
// query of learned: different wordings of requests the learned queries
// already served.
func Paraphrases(qs, learned []Query) []Query {
	seen := map[string]bool{}
	for _, q := range learned {
		for _, r := range q.Relevant {
			seen[r] = true
		}
	}
	var out []Query
	for _, q := range qs {
		for _, r := range q.Relevant {
			if seen[r] {
				out = append(out, q)
				break
			}
		}
	}
	return out
}
