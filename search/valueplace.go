package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// Values put in a place no tool has: the unserved object is not checked
// when the phrase after the verb holds only argument values ("transition
// OPS-8 to review", "move report.pdf into the archive folder"), and any
// top tool doing the verb served "Add OPS-2290 to the current sprint"
// (jira__add_comment adds), "add Carlos as a watcher on OPS-77", "Print
// ~/Documents/boarding-pass.pdf on the office printer" and "add
// Oppenheimer to my watchlist" (stabletoolbench). The values say what the
// verb acts on; the place says what it does with them, and a place whose
// head is a word no tool of the catalog has (fallback.WordMatch.Tools 0:
// sprint, watcher, printer) is one no tool puts things in. Then the
// object's words after the values are checked as any object's are
// (objectServed's loop: a top tool doing the verb must have one): "append
// 'call the plumber Monday' to my house to-do note" keeps
// notes__update_note, which has the note.
//
// The place is a kind of place only when a determiner opens it (an
// article or a possessive, placeDeterminers: "to the current sprint", "as
// a watcher", "to my watchlist", "to this sprint"). A bare word after the
// preposition is a name, a value the tool takes as it is, whatever words
// the catalog has: "move PAY-301 to blocked" names a column or a state
// (capitalized, "to Blocked", it is an argument value already). Measured
// (sixteenth session, h42-rules; docs/benchmarks.md, "What each no-match
// rule costs"), default and keyword mode: the four
// no-answer requests of the development sets the rule alone catches keep
// their flag (all four name their place with a determiner); no other
// development request moves; transfer-check 33+34 (aggregate) answerable
// flagged 10 → 9 (keyword 9 → 8), no-answer unchanged: the one answerable
// request there the rule alone flagged, with its right first tool.

// valuesPlaced reports whether the phrase after the verb (op.Object)
// holds an argument value (after, the word matches after the verb) and
// nothing else objectServed reads (the caller's check), and the head of
// the place the request puts it in (fallback.Opening.Place, its last word
// that is no value: headWord) is a word of the request's object
// (objects) that no tool has and no short form (see above).
func valuesPlaced(after, objects []fallback.WordMatch, op fallback.Opening) bool {
	arg := func(w string) bool {
		return slices.ContainsFunc(after, func(m fallback.WordMatch) bool { return m.Word == w && m.Arg })
	}
	if !slices.ContainsFunc(op.Object, arg) {
		return false
	}
	if len(op.Place) == 0 || !placeDeterminers[op.Place[0]] {
		return false // "move PAY-301 to blocked": a name, no kind of place
	}
	head := headWord(op.Place, arg)
	i := slices.IndexFunc(objects, func(m fallback.WordMatch) bool { return m.Word == head })
	return head != "" && i >= 0 && objects[i].Tools == 0 && !objects[i].Plain
}

// placeDeterminers open a place that is a kind of place (valuesPlaced):
// the articles, the demonstratives and the possessives.
var placeDeterminers = wordSet("a an the this that these those my our your his her their")
