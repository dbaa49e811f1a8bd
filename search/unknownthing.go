package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// A thing made that no tool has: a request whose verb makes a new thing
// (its action is makes, or makes is one of its synonyms: "create",
// "spin up", "set up", "submit", a verb of beginning with a new thing)
// and whose object's head (objectHead: "a read replica" → replica) is a
// word no tool of the catalog has (fallback.WordMatch.Tools: unknown, or
// known only through a variant of another word) asks for a thing that
// only its object's own words can tie to a tool: "Spin up a read replica
// of the production database" met postgres__execute, which runs CREATE
// statements and has "database", the place the replica is of; "create a
// release v2.0.0 in acme/cli with the changelog as release notes"
// met notes__create_note through the notes the changelog becomes. The
// unserved object (objectServed) then reads only the words of the
// object's phrase (fallback.Opening.Object): a word of the place after
// it or of a later phrase serves no tool. A word of the phrase still does
// ("create a calendar appointment for the dentist" and
// calendar__create_event, whose catalog has no "appointment": the
// calendar's), and so does a head a tool has ("create an index on the
// users table").

// madeUnknown reports whether the unserved object reads only the object's
// phrase (see above): base, the request's action (openingAction), makes a
// new thing, and head, the object's head, is a word of the request's
// object (objects) that is no argument value, no short form and that no
// tool has.
func madeUnknown(base, head, end string, objects []fallback.WordMatch) bool {
	if head == "" || end != ofThing || base != makes && !slices.Contains(fallback.VerbSynonyms(base), makes) {
		return false
	}
	i := slices.IndexFunc(objects, func(m fallback.WordMatch) bool { return m.Word == head })
	return i >= 0 && objects[i].Tools == 0 && !objects[i].Plain && !objects[i].Arg
}

// ofThing is the preposition after an object that names what the thing
// is of (madeUnknown).
const ofThing = "of"
