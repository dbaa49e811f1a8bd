package search

import (
	"iter"
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// A request that opens with a verb of seeing ("find my notes about the
// offsite", "search the slack messages from @maria", "show me in-progress
// bugs in PAY", "list open PRs in acme/web") asks to be shown something,
// as a question does (questionRequest): a tool whose own action stores or
// changes something does not do it, however well its words match. "find
// the slack message where dana mentioned the invoice" found
// slack__send_message by "slack" and "message", "find my note about the
// visa appointment" notes__create_note by "note". So requestRead demotes
// the writers (writeVerbs) of such a request by questionWriteFactor, as
// it does a question's. A later clause that opens with another verb
// ("look up OPS-9 and post a summary to #ops", "find the file and delete
// it") asks for a change too, and the rule leaves it alone; a later
// light verb keeps it ("find my note about the visa appointment and
// open it").
//
// Measured (docs/benchmarks.md, "A request to see is answered by a tool
// that reads"): example sets first tool right 505 → 514 of 667 (keyword
// 509 → 520), no flag moving; dev sets within +.0003 nDCG@10.

// seeVerbs are the verbs of seeing that make a request one to be shown
// something (seeRequest): light verbs (lightVerbs) that never ask for a
// change. "open" ("open an issue"), "get" ("get rid of"), "check" ("check
// in"), "put", "make", "give", "take" and "tell" ("tell #ops the deploy is
// done") are light verbs that may.
var seeVerbs = wordSet("browse display find list locate look search show view")

// seeRequest reports whether the request opens with a verb of seeing
// (seeVerbs, after a preamble: fallback.RequestOpening) and no later clause
// opens with a word that is no light verb (fallback.RequestClauses): "find
// Maria's message in #ops and react to it" and "look up OPS-9 and post a
// summary to #ops" ask for a change too, "find my note about the visa
// appointment and open it" does not.
func (r *reading) seeRequest() bool {
	verb, value := r.verb()
	if !seeVerbs[verb] && !value && fallback.SeeVerb(verb, firstWord(r.opening().Object)) {
		verb = seeVerb // "grab the Dockerfile from ...", "dig up Marta's email": a colloquial get (fallback.SeeVerb)
	}
	return seeing(verb, value, func() iter.Seq[fallback.Clause] { return slices.Values(r.clauses()) })
}

// seeVerb stands for a colloquial verb of getting or seeing
// (fallback.SeeVerb) in seeing: a verb of seeVerbs.
const seeVerb = "show"

// firstWord returns ws[0], or "" when ws is empty.
func firstWord(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

// seeing is seeRequest of a request whose opening verb is verb (value: its
// token is an argument value, fallback.Opening.VerbValue) and whose
// clauses clauses returns (read only when a verb of seeing opens it).
func seeing(verb string, value bool, clauses func() iter.Seq[fallback.Clause]) bool {
	if !seeVerbs[verb] || value {
		return false
	}
	n := 0
	for c := range clauses() {
		if n++; n > 1 && c.First != "" && !c.Question && !lightVerbs[c.First] {
			return false
		}
	}
	return true
}
