package search

// exactOthersCap is the highest score of the other results when the query
// names a tool exactly: the named tool scores 1 and the rest at most 0.99,
// so the named tool stays first and the others keep their order.
const exactOthersCap = 0.99

// exactName is the exact-name rule of every mode (fallback.Index.ExactName):
// the tool that the whole query names, trimmed of spaces and one level of
// quotes or backticks, matched exactly, else ignoring case.
func (st *state) exactName(query string) (int, bool) { return st.lex.ExactName(query) }

// exactFirst puts tool exact (−1: none) first with score 1 and caps the
// other hits' scores at exactOthersCap. The hits keep their order
// otherwise; total is adjusted when exact was not among them.
func exactFirst(hs []hit, total, exact int) ([]hit, int) {
	if exact < 0 {
		return hs, total
	}
	out := make([]hit, 0, len(hs)+1)
	out = append(out, hit{id: exact, score: 1, explain: "exact name"})
	found := false
	for _, h := range hs {
		if h.id == exact {
			found = true
			if h.explain != "" {
				out[0].explain = "exact name; " + h.explain
			}
			continue
		}
		h.score = min(h.score, exactOthersCap)
		out = append(out, h)
	}
	if !found {
		total++
	}
	return out, total
}
