package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// A later step's pronoun stands for what the step before it acted on:
// "Read PAY-1190 and then delete it" deletes the Jira issue PAY-1190. The
// unserved step (unservedStep) found the step served when a top tool does
// its verb and the step's phrase holds nothing else to check (a pronoun
// is a stop word): notes__delete_note deletes, and served it. When the
// step is its verb and such a pronoun alone (referentPronouns: the whole
// of its phrase, fallback.Clause.Phrase; not "... and file it as a Jira
// bug in project APP", which makes a new thing of what was read) and
// the step before it gives values of a kind (fallback.ValueKinds, no
// adjunct: an issue key, a path, a channel), a top tool doing the step's
// verb serves it only when it takes a value of one of those kinds
// (paramKind, a parameter for any value included): notes__delete_note
// takes a note's id, no issue key.

// referentPronouns stand for the thing a step before acted on.
var referentPronouns = wordSet("it them")

// referentUntaken reports whether later step s of a request, whose
// phrase is a pronoun alone (referentPronouns), acts on values of the
// step before it (before) of kinds that no tool doing its verb (verb,
// base form; actsVerb, takesVerb or a verb naming the tool's server, as
// stepServed reads them) takes, among the best (top) or below them up to
// stepReach (below: "read ~/notes/todo.md and then update it" ranks
// notes__update_note first, filesystem__edit_file lower), while a tool of
// top does the verb (see above).
func (st *state) referentUntaken(verb string, before, s fallback.Clause, top, below []hit) bool {
	if ph := s.Phrase(); len(ph) != 1 || !referentPronouns[ph[0]] {
		return false // "... and file it as a Jira bug in project APP": the thing read goes into another
	}
	var kinds []string
	for _, v := range fallback.ValueKinds(before.Text()) {
		if !v.Adjunct && !slices.Contains(kinds, v.Kind) {
			kinds = append(kinds, v.Kind)
		}
	}
	if len(kinds) == 0 {
		return false
	}
	does := func(h hit) bool {
		return st.namesServer(verb, h.id) || st.actsVerb(h.id, verb) || st.takesVerb(h.id, verb)
	}
	if !slices.ContainsFunc(top, does) {
		return false
	}
	for _, h := range append(top[:len(top):len(top)], below...) {
		if does(h) && slices.ContainsFunc(kinds, func(k string) bool { return st.paramKind(h.id, k, true) }) {
			return false
		}
	}
	return true
}
