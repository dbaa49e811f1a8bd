package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// Another server's thing: a request whose object's head is the name of a
// server of the catalog asks for that server's thing ("Schedule an email
// to the team to go out at 8am tomorrow" schedules an email), which a tool
// of another server does not make or act on, whatever words of the
// object it has: calendar__create_event schedules (schedule → create)
// and has "email" ("Attendees receive an invitation email"), the address
// its invitations go to. The unserved object (objectServed) reads such a
// tool as not serving the object, unless a frame of its verbs acts on
// that head (toolFrames: it does that thing).

// othersThing reports whether head, the head of the request's object
// (objectHead), names a server of the catalog (serverKeys) other than
// tool id's, the tool's name has no such word (toolFacts.names: bfcl's
// draw_rectangle draws what the "rectangle" tools' server computes) and no
// verb frame of the tool acts on it (see above).
func (st *state) othersThing(id int, head string) bool {
	s, ok := st.serverKeys[head]
	if !ok || s == st.serverOf(id) || slices.Contains(st.facts(id).names, fallback.Stem(head)) {
		return false // its own server's thing, or a word of its name: bfcl's draw_rectangle and the "rectangle" tools' server
	}
	return !slices.ContainsFunc(st.facts(id).frames, func(f verbFrame) bool { return f.head == head })
}
