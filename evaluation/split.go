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
