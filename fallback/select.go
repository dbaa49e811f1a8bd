package fallback

// Select returns the named tools in the order asked, each with score 1.
// Names are matched as by Lookup (exactly, else ignoring case); unknown
// names, tools that o.Allow rejects and repeated names are skipped. Select
// ignores o.Limit: the caller asked for exactly these tools.
func (ix *Index) Select(names []string, o Options) Result {
	var res Result
	if ix == nil {
		return res
	}
	seen := map[int]bool{}
	for _, name := range names {
		id, ok := ix.Lookup(name)
		if !ok || seen[id] || !o.allowed(id) {
			continue
		}
		seen[id] = true
		h := Hit{ID: id, Score: 1}
		if o.Explain {
			h.Explain = "selected by name"
		}
		res.Hits = append(res.Hits, h)
	}
	res.Total = len(res.Hits)
	return res
}
