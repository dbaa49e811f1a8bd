package search

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

// The unserved place: a tool acts in a thing it does not act on. A
// request whose object is that thing asks for what no such tool does:
// "create a new calendar called Family" meets calendar__create_event,
// which creates events in a calendar (its calendar_id), "create a new
// github repository called dotfiles" github__create_issue, which creates
// issues "in a GitHub repository", "delete a calendar"
// calendar__delete_event. The object's words are on those tools, so the
// unserved object (objectServed) found them served. The rule, part of
// the unserved object: a top tool that does the request's verb does not
// serve its object when the object's head (objectHead: the last word of
// the phrase after the verb, before a naming word, namingWords: "called",
// "named", "titled") is one of the tool's places (toolPlaces) — a thing
// whose identifier one of its parameters takes (calendar_id,
// project_key), or the last word of a phrase its description opens with
// a place's preposition (placePrepositions: "in a local git repository",
// "across the Slack workspace") — and no word of the tool's own name
// (after its server's): issue_number is add_issue_comment's own thing.
// "create an event on my work calendar" and "delete the standup meeting
// from my calendar" keep their object: the calendar follows a
// preposition, it is no head. Nor is it read when a colon, "that" or
// "saying" follows the object (fallback.Opening.Text): "update my work
// calendar: move the dentist to 4pm" says after its colon what it
// changes.
//
// A creation tool's "Create a new X" says nothing of a request's "new Y"
// either: "new" (objectModifiers) serves no object, or git__create_branch
// ("Create a new branch") served "create a new jira project called
// Atlas".
//
// Measured (eleventh session, h37-na22; docs/benchmarks.md, "The
// unserved place"), default and keyword mode alike: no-answer flagged
// example tuning 89 → 93 % ("create a new calendar called Family",
// "create a new github repository called dotfiles", "create a new jira
// project called Atlas", "delete a calendar"), held-out-22 70 → 74 %
// (keyword 72 → 76 %); no answerable request of any example set and no
// request of a dev set or a dev held-out set moves.

// placePrepositions open a phrase of a tool's description that names
// where it acts ("in a GitHub repository", "on a calendar", "across the
// Slack workspace", "against the PostgreSQL database"); "to" and "from"
// name a destination or a source ("Add an emoji reaction to a Slack
// message", "Send an email from the user's mailbox"), which is often what
// the tool acts on.
var placePrepositions = wordSet("in on within inside across against")

// namingWords end a request's object before the name it gives its thing:
// "create a new calendar called Family".
var namingWords = wordSet("called named titled")

// objectModifiers are words of a request's object that name no thing:
// "create a new jira project" (see above).
var objectModifiers = wordSet("new")

// toolPlaces returns the stems of the things tool t acts in (see above):
// those whose identifier a parameter takes (idParams) and the last word of
// each phrase its description opens with a place's preposition, less the
// words of its own name.
func toolPlaces(t catalog.Tool, idParams [][2]string) []string {
	_, name := catalog.SplitName(t.Name)
	own := map[string]bool{}
	for _, w := range fallback.Words(name) {
		own[fallback.Stem(w)] = true
	}
	var out []string
	add := func(w string) {
		if s := fallback.Stem(w); !own[s] && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, p := range idParams {
		add(p[0])
	}
	for _, chunk := range strings.FieldsFunc(t.Description, func(r rune) bool { return strings.ContainsRune(".,;:!?()\n", r) }) {
		ws := fallback.Words(chunk)
		for i, w := range ws {
			if !placePrepositions[w] {
				continue
			}
			if last, _ := phraseHead(ws[i+1:]); last != "" {
				add(last)
			}
		}
	}
	return out
}

// objectHead returns the head of a request's object (fallback.Opening.Object):
// its last word before a naming word ("create a new calendar called
// Family" → calendar), "" when it has none.
func objectHead(object []string) string {
	return headWord(object, func(string) bool { return false })
}

// phraseHead returns the head of the phrase that opens ws, a tool
// description's words after a verb or a preposition: its last word that
// is no article before a preposition (fallback.ObjectEnd), a list word or
// the end, and the preposition that ended it ("" when none did): "a
// comment to an existing issue" → comment, to. toolFrames reads the
// object of a description's verb by it, toolPlaces the place after a
// preposition.
func phraseHead(ws []string) (head, end string) {
	for _, x := range ws {
		if fallback.ObjectEnd(x) {
			return head, x
		}
		if listWords[x] {
			break
		}
		if !articles[x] {
			head = x
		}
	}
	return head, ""
}

// actsIn reports whether word is one of tool id's places (toolPlaces).
func (st *state) actsIn(id int, word string) bool {
	return word != "" && slices.Contains(st.facts(id).places, fallback.Stem(word))
}

// inFileServed reports whether a tool of top that does the request's verb
// (served[k]) takes a file by name (namesKind) that the request names as
// the place of what it acts on, after "in" ("change the port from 8080 to
// 9090 in server.yaml", "rename the function init to bootstrap in
// app.ts"): what a request changes inside a file is the file's content,
// which a tool that does the verb to files serves whatever its words
// (filesystem__edit_file has no "port"). A value in a message's text, a
// subject or a purpose (fallback.Value.Adjunct) is no such place, nor is
// a directory ("change the timeout to 60 in ~/config").
//
// Measured (twelfth session, h38-flags; docs/benchmarks.md, "A thing in a
// file"), default and keyword mode: example held-out-2 answerable flagged
// 6.7 → 3.3 %, held-out-8 8 → 6 % ("Change the port from 8080 to 9090 in
// config/server.toml", which needed a path's file name as well as a
// bare one); pooled with pairs 22 and 24 58 → 56 of 817 (keyword 63 →
// 61); no no-answer request of any set, no dev set moves.
func (st *state) inFileServed(r *reading, top []hit, served []bool) bool {
	raw := ""
	for _, v := range r.values() {
		if v.Adjunct || v.Kind != fallback.KindFile && (v.Kind != fallback.KindPath || fallback.PathKindWords(v.Text)[0] != "file") {
			continue // a file: "server.yaml", "config/server.toml", not a directory
		}
		if raw == "" {
			raw = strings.ToLower(r.req.Raw)
		}
		if !strings.Contains(raw, " in "+strings.ToLower(v.Text)) {
			continue
		}
		for k, h := range top {
			if served[k] && st.namesKind(h.id, fallback.KindFile) {
				return true
			}
		}
	}
	return false
}
