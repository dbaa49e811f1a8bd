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
	head := headWord(op.Place, arg)
	i := slices.IndexFunc(objects, func(m fallback.WordMatch) bool { return m.Word == head })
	return head != "" && i >= 0 && objects[i].Tools == 0 && !objects[i].Plain
}
