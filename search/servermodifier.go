package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// A server's name in the object of a verb of beginning is a modifier when
// a noun the catalog does not know follows it as the object's head:
// "start a git bisect", "launch a slack huddle". The verb reads as making
// a new thing (beginVerbs, openingAction), and the name says what the
// thing belongs to, not what it is: it serves no object of a tool of that
// server (objectServed), and git__create_branch, which has "git" and
// makes branches, does not make a bisect. The name is the thing itself
// when it is the head, and the tool's own words decide when the head is
// a word the catalog knows ("start a new git branch", "raise a github
// issue").
//
// Only a verb of beginning's object is read so: after "create" or "add"
// the unknown head is as often the tool's thing in other words ("create a
// calendar appointment for the dentist", calendar__create_event), which
// only a synonym's meaning would tell (1 of 17 answerable probes of our
// own flagged when every verb's object was read so, and the example
// fixture's "create a jira ticket for the outage" before kindWords).
// Measured (fourteenth session, h40-na; docs/benchmarks.md, "A server's
// name as a modifier"): no request of any example pair, the dev sets or
// their held-out sets moves in either mode.

// serverModifier reports whether o, a word of a request's object, names
// the server of tool id (namesServer) and modifies the object's head
// (head, objectHead of a verb of beginning's object, "" for any other
// verb): o comes before it in the object's phrase (object,
// fallback.Opening.Object; not a place after it: "ping the team on
// slack"), and the head is a word of the object (objects) that the
// catalog does not know, that is no argument value and that names no
// kind of value the tool takes (kindWords, namesKind: "create a jira
// ticket for the outage", where the Jira tools say "issue").
func (st *state) serverModifier(id int, o fallback.WordMatch, object []string, head string, objects []fallback.WordMatch) bool {
	if head == "" || o.Word == head || !st.namesServer(o.Word, id) {
		return false
	}
	if i := slices.Index(object, o.Word); i < 0 || i > slices.Index(object, head) {
		return false
	}
	if !slices.ContainsFunc(objects, func(m fallback.WordMatch) bool { return m.Word == head && !m.Known && !m.Plain }) {
		return false
	}
	for kind, ws := range kindWords {
		if slices.ContainsFunc(ws, func(w string) bool { return fallback.SameStem(w, head) }) && st.namesKind(id, kind) {
			return false
		}
	}
	return true
}
