package fallback

import "github.com/toolsearch/toolsearch/query"

// Filter returns the filter that q's operators impose — +term (the tool
// must contain the term), -term (tools with all the term's words are
// dropped), server: and category: — as a predicate over tool IDs, exactly
// as Keyword applies them, so that other modes (regex, semantic) can filter
// their own matches the same way. It returns nil when q has no filters. A
// +term found nowhere in the catalog rejects every tool. The predicate is
// safe for concurrent use and does not retain q.
func (ix *Index) Filter(q query.Query) func(id int) bool {
	if ix == nil || ix.Len() == 0 {
		return nil
	}
	s := ix.getScratch()
	p := ix.plan(s, q, false, false, false, nil) // the filters alone
	required := append([][]int32(nil), p.required...)
	excluded := append([][]int32(nil), p.excluded...)
	impossible := p.impossible
	ix.putScratch(s)
	servers := append([]string(nil), q.Servers...)
	categories := append([]string(nil), q.Categories...)
	if !impossible && len(required) == 0 && len(excluded) == 0 && len(servers) == 0 && len(categories) == 0 {
		return nil
	}
	scope := query.Query{Servers: servers, Categories: categories}
	return func(id int) bool {
		if impossible || id < 0 || id >= ix.Len() || !ix.inScope(&scope, id) {
			return false
		}
		for _, req := range required {
			if !ix.hasAll(id, req) {
				return false
			}
		}
		for _, ex := range excluded {
			if ix.hasAll(id, ex) {
				return false
			}
		}
		return true
	}
}

// ToolsWith returns the IDs of the tools whose indexed text (any field)
// contains word after analysis, in ascending order; nil for a stop word or
// a word the catalog does not have. For a word that analyses to several
// terms, a tool must contain them all.
func (ix *Index) ToolsWith(word string) []int {
	if ix == nil || ix.Len() == 0 {
		return nil
	}
	qw := ix.resolveWord(word)
	if len(qw.ids) == 0 {
		return nil
	}
	var out []int
	for _, p := range ix.termData.At(int(qw.ids[0])).postings {
		if id := int(p.doc); ix.hasAll(id, qw.ids[1:]) {
			out = append(out, id)
		}
	}
	return out
}
