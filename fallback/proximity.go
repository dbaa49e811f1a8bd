package fallback

// pairWeight is the weight of a phrase match: two query words that are
// adjacent in the query (stop words aside) and also adjacent, in either
// order, in a tool's name, server name or description. Such a pair is
// stronger evidence than the same two words scattered over the tool
// ("media sources statistics" for media_sources_statistics, "word cloud"
// for generate_word_cloud_chart rather than a tool that says "word" in one
// place and "cloud" in another). A matched pair adds
// pairWeight × (the pair's mean IDF) × (the lower query-side weight of its
// two words) to the raw score, once per tool, and the same to the ideal
// score, so scores stay in [0, 1].
//
// Worked example: "weather forecast" (IDFs 4 and 5) adds 0.3 × 4.5 = 1.35
// to a tool named get_weather_forecast, about a third of what the word
// "forecast" alone earns from a name match.
//
// Measured on the bench dev sets (nDCG@10, bfcl / livemcpbench /
// stabletoolbench, on top of the previous engine): 0.2 gives +0.006 / +0.002
// / +0.015, 0.3 gives +0.005 / +0.003 / +0.014; separate weights for names
// and descriptions did no better, and 0.6 or more loses on stabletoolbench
// and bfcl (a pair then outweighs a whole query word).
const pairWeight = 0.3

// pairKey is the order-free key of two adjacent terms.
func pairKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(uint32(a))<<32 | uint64(uint32(b))
}

// addPairs records in m that tool id has the adjacent term pairs of ts.
// Tools must be added in ascending ID order.
func addPairs(m map[uint64][]int32, id int32, ts []int32) {
	for i := 1; i < len(ts); i++ {
		if ts[i] == ts[i-1] {
			continue
		}
		k := pairKey(ts[i-1], ts[i])
		if ds := m[k]; len(ds) > 0 && ds[len(ds)-1] == id {
			continue
		}
		m[k] = append(m[k], id)
	}
}

// addPairScores adds the phrase matches of p's adjacent query words to the
// raw scores in s and returns what they add to the ideal score. Each
// distinct pair counts once per tool.
func (ix *Index) addPairScores(s *scratch, p plan) float64 {
	norm := 0.0
	seen := s.pairSeen[:0]
	for i := 1; i < len(p.seq); i++ {
		a, b := p.seq[i-1], p.seq[i]
		for _, x := range a.ids {
			for _, y := range b.ids {
				k := pairKey(x, y)
				if x == y || containsKey(seen, k) {
					continue
				}
				seen = append(seen, k)
				ds, _ := ix.pairs.get(k)
				if len(ds) == 0 {
					continue
				}
				w := pairWeight * min(a.weight, b.weight) * 0.5 * (ix.termIdf(x) + ix.termIdf(y))
				norm += w
				for _, d := range ds {
					if s.tools.acc[d] == 0 {
						s.tools.touched = append(s.tools.touched, d)
					}
					s.tools.acc[d] += w
				}
			}
		}
	}
	s.pairSeen = seen
	return norm
}

func containsKey(ks []uint64, k uint64) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
