package search

import "github.com/toolsearch/toolsearch/fallback"

// A tool that destroys what a user keeps (its name's verb is one of
// destroyVerbs: calendar__delete_event, notes__delete_note) ranks first
// only on a request that asks it to. A request that asks no action the
// tool does ("add carol to the weekly sync event", "put a dentist
// appointment on my calendar for March 3 at 9am") matched the calendar's
// tools by "event" and "calendar" alone, and the shortest description,
// "Delete a calendar event.", came first: the worst of the wrong tools to
// call. So when the best hit destroys, none of the request's words asks
// its action (asksAction: a word, or two in a row, that the tool does,
// itself or by a synonym, fallback.VerbSynonyms: "nuke", "bin", "call
// off", "get rid"), and one of the verbDepth best does not destroy, every
// hit that destroys unasked is scaled by questionWriteFactor and the
// scores rescaled as requestRead does (demote), after requestRead's
// rules. It steps aside when learning lifted the best hit (agents called
// it for such requests, whatever their words) and when the request opens
// with a verb that neither list knows (actionVerb, fallback.VerbSynonyms),
// which may be a destroying one ("scratch tomorrow's 1:1 off my
// schedule, event 0oq8tlm2x").
//
// Measured (sixteenth session, h42-rank; docs/benchmarks.md, "A tool that
// destroys ranks first only when asked"), main 155d1b6 → after: example
// pairs' first tool right (fr.sh) 568.3 → 569.3 of 717 (keyword 576.3 →
// 578.3), all development pairs 729.3 → 730.3 of 967 (keyword 742.8 →
// 745.8), none lost; every flag, every dev set (modes.sh) and the
// transfer-check pairs unchanged. Asking by the request's ranking words
// only (no two-word synonyms, no unknown opening verb) lost "Call off
// event 9f3kq2 …", "Nuke note n-77", "Bin note …" (all 967: 729.3 →
// 724.3, transfer-check 67.5 → 65.5).

// destroyVerbs are the actions that destroy something a user keeps:
// general English, not read from any catalog or request set.
var destroyVerbs = wordSet("delete remove cancel erase purge destroy discard")

// destroysUnasked demotes the hits of hs that destroy and that r's request
// does not ask to (see above), when the best does and one of the verbDepth
// best does not. It returns hs.
func (st *state) destroysUnasked(r *reading, hs []hit) []hit {
	if len(hs) < 2 || hs[0].learned != nil || !st.destroys(hs[0].id) || st.asksAction(r, hs[0].id) {
		return hs // learning lifted the best: agents called it for such requests, whatever their verb
	}
	if op := r.opening(); op.Verb != "" && !op.VerbValue {
		if base, _ := actionVerb(op.Verb); base == "" && fallback.VerbSynonyms(op.Verb) == nil {
			return hs // a verb we do not know may destroy: "scratch tomorrow's 1:1 off my schedule"
		}
	}
	keeps := false
	for _, h := range hs[1:min(len(hs), verbDepth)] {
		keeps = keeps || !st.destroys(h.id)
	}
	if !keeps {
		return hs
	}
	return st.demote(hs, func(k int) bool {
		return st.destroys(hs[k].id) && !st.asksAction(r, hs[k].id)
	}, questionWriteFactor, "the tool destroys, and the request does not ask it to", r.plan.debug)
}

// destroys reports whether tool id's own first action destroys
// (destroyVerbs).
func (st *state) destroys(id int) bool {
	a := st.facts(id).actions
	return len(a) > 0 && destroyVerbs[a[0]]
}

// asksAction reports whether one of the words of r's request
// (fallback.Words), or two of them in a row, is an action tool id does
// (actsVerb, which reads synonyms): "delete", "nuke", "call off", "get
// rid" for calendar__delete_event.
func (st *state) asksAction(r *reading, id int) bool {
	ws := fallback.Words(r.req.Raw)
	for i, w := range ws {
		if base, action := actionVerb(w); action && st.actsVerb(id, base) {
			return true
		}
		if fallback.VerbSynonyms(w) != nil && st.actsVerb(id, w) {
			return true // "nuke", "bin"
		}
		if i+1 < len(ws) {
			if two := w + " " + ws[i+1]; fallback.VerbSynonyms(two) != nil && st.actsVerb(id, two) {
				return true // "call off", "get rid"
			}
		}
	}
	return false
}
