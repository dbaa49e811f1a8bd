package search

import (
	"fmt"
	"slices"
	"unicode"

	"github.com/toolsearch/toolsearch/fallback"
)

// A question asks to be told something: "what's on my calendar tomorrow",
// "when was data.csv created", "which rooms are there on our company
// slack". A tool whose own action stores or changes something (its name's
// verb is one of writeVerbs: calendar__delete_event, notes__create_note)
// does not answer it, however well its words match: "what's on my calendar
// tomorrow" matched the four calendar tools by "calendar" alone, and the
// shortest description, "Delete a calendar event.", came first. So for a
// request that opens with a question word (questionOpeners) the scores of
// such tools are multiplied by questionWriteFactor before the result is
// calibrated (result), in every mode but regex (a pattern is no request in
// words) and select, and then every score by what keeps
// the best hit's score: the rule reorders, calibration and the no-match
// rules read the same strength.
//
// A request that opens with an action verb is the same case the other way
// round (h33-verb, eighth session): it is done by a tool that does its
// verb, however well another tool's words match its object. "move my 2pm
// meeting to 4pm" found calendar__find_free_time ("… Use it to schedule a
// meeting …"), "stage README.md" git__diff, "jot down a note"
// notes__delete_note. So when the best hit's tool does not do the
// request's opening action verb and one of the verbDepth best does
// (leadsVerb: its name or its description's first sentence says the verb
// or a synonym of it, fallback.VerbSynonyms; a request that moves or
// books a thing in time reads as its frame, fallback.TimeFrame), every
// other hit is scaled by the same questionWriteFactor (by frameFactor
// when a frame reads the verb, below), and the scores rescaled the same
// way (requestRead). Not when learning from use lifted
// one of those best hits: what agents called for such requests wins (the
// replay's livemcpbench even half lost its whole gain, +.0213 → −.0026,
// when the verb demoted learned tops). Measured (docs/benchmarks.md, "A
// request's verb is done by a tool that does it"): the example sets'
// first tool right for 15 more answerable requests (keyword 17), wrong
// for none that was right; no no-answer request of any set moves.
//
// A request on a database's data (fallback.DataFrame: "set status =
// 'shipped' for order 9912 in the orders table", "how many rows in the
// orders table have status 'refunded'") is done by the tool that runs
// its SQL statement (doesData), however well the tools that list or
// describe tables match its table: when one of the verbDepth best does
// and the best does not, every other hit is scaled by frameFactor
// (doesStatement), before the question's and the verb's cases; so is
// every other hit when the verb rule reads a frame of time (frameFactor).

// questionWriteFactor scales the score of a tool whose name's verb writes
// (writeVerbs) for a request that is a question (questionRequest).
//
// The same factor serves requestRead's verb case: 0.55 there cost
// livemcpbench .3712 → .3606 nDCG@10, and a depth of 5 (verbDepth) let
// near misses through (example held-out-14 no-answer flagged 96 → 94 %,
// keyword 94 → 90 %).
//
// Worked example: "what's on my calendar tomorrow", hybrid:
// calendar__delete_event 0.520 × 0.7 = 0.364 falls below
// calendar__list_events' 0.373.
const questionWriteFactor = 0.7

// frameFactor is questionWriteFactor for a request that a frame reads:
// on data (doesStatement), or one that moves or books a thing in time
// (doesVerb, fallback.TimeFrame). The frame says surely what is asked,
// and what matches the rest is what the wrong tools share: the tools that
// list and describe tables match a table's name by theirs and by the
// word embeddings alike, calendar__find_free_time's usage note ("Use it
// to schedule a meeting before creating the event") matches a booking's
// verb, its meeting and its event. Measured (docs/benchmarks.md, "A
// request on data is done by the tool that runs its statement" and
// "Booking at a time"), example sets' first tool right: on data 0.7 →
// 0.5 one more ("insert rows into a postgres table"), → 0.4 two more
// ("select the 10 newest rows from the orders table", "count the rows in
// the orders table created since yesterday"; keyword the same two at
// 0.5); at a time 0.7 → 0.4 four more, default and keyword ("book a
// meeting with Lee on Friday at 2", calendar__create_event over
// calendar__find_free_time); nothing else moves on any example or dev
// set, answerable or no-answer.
const frameFactor = 0.4

// questionOpeners are the question words that make a request a question
// of questionRequest when it opens with one; "how" only when no "do",
// "can", "to" or "should" follows ("how do I create an issue" asks for the
// tool that creates).
var questionOpeners = wordSet("what which when where who whose how")

// howToWords after "how" make a request one for doing, not knowing.
var howToWords = wordSet("do does can could to should would shall")

// questionRequest reports whether raw opens with a question word
// (questionOpeners), "what's" and "when's" included.
func questionRequest(raw string) bool {
	ws := fallback.Words(firstFields(raw, 2)) // its first two words are all it reads
	if len(ws) == 0 || !questionOpeners[ws[0]] {
		return false
	}
	return ws[0] != "how" || len(ws) < 2 || !howToWords[ws[1]]
}

// verbDepth is how many of the best hits a request's verb lifts (requestRead):
// a tool among them that does the verb outranks one that does not when
// their scores are within questionWriteFactor of each other (frameFactor
// when a frame reads the request: on data, or in time).
const verbDepth = 3

// requestRead reorders hs by what p's request asks for: a request on a
// database's data is done by a tool that runs its statement (doesStatement:
// the hits that are not among the verbDepth best and running it are
// demoted), a question is answered by a tool that reads (the hits whose
// tool writes are demoted), a request that opens with an action verb by a
// tool that does it (the hits that are not among the verbDepth best and
// doing it are demoted: "move my 2pm meeting to 4pm" and
// calendar__update_event over calendar__find_free_time, "stage README.md"
// and git__add over git__diff). One factor, questionWriteFactor, or
// frameFactor when a frame reads the request (on data, or a verb that
// moves or books a thing in time), then every score by what keeps the best
// hit's score (see above). words are the query's ranking words. It
// returns hs.
func (st *state) requestRead(p *plan, hs []hit, words func() []string) []hit {
	if len(hs) < 2 {
		return hs
	}
	raw := request(p.query).Raw
	var demoted func(k int) bool
	why := ""
	factor := questionWriteFactor
	if does := st.doesStatement(words, hs[:min(len(hs), verbDepth)]); does != nil {
		demoted = func(k int) bool { return k >= len(does) || !does[k] }
		why = "a request on data, and the tool is not among the best doing its statement"
		factor = frameFactor
	} else if questionRequest(raw) {
		demoted = func(k int) bool {
			acts := st.toolActions(hs[k].id)
			return len(acts) > 0 && writeVerbs[acts[0]]
		}
		why = "a question, and the tool writes"
	} else if does, framed := st.doesVerb(raw, words, hs[:min(len(hs), verbDepth)]); does != nil {
		demoted = func(k int) bool { return k >= len(does) || !does[k] }
		why = "the request's verb, and the tool is not among the best doing it"
		if framed {
			factor = frameFactor
		}
	} else {
		return hs
	}
	top := hs[0].score
	changed := false
	for i := range hs {
		if !demoted(i) {
			continue
		}
		hs[i].score *= factor
		changed = true
		if p.debug {
			hs[i].explain += fmt.Sprintf("; %s: × %.2f", why, factor)
		}
	}
	if !changed {
		return hs
	}
	sortHits(hs, st.name)
	// The rule orders, it does not judge the match: the best hit keeps
	// the score the best hit had, so calibration reads the same strength
	// (a question whose best tools all write is no weaker for it).
	if best := hs[0].score; best > 0 && best < top {
		for i := range hs {
			hs[i].score *= top / best
		}
		if p.debug {
			hs[0].explain += fmt.Sprintf("; scores × %.3f (the best hit's score before)", top/best)
		}
	}
	return hs
}

// doesVerb returns, for each of top, whether its tool does the action verb
// that raw opens with (leadsVerb, or the frame's verb when the request moves
// or books a thing in time: fallback.TimeFrame), when some of them do and
// the best does not; nil otherwise (no action verb opens the request, a
// light one, an inflected one: "walking directions"). Its second result
// says whether a frame of time reads the verb (requestRead's frameFactor).
// words are the request's ranking words.
func (st *state) doesVerb(raw string, words func() []string, top []hit) ([]bool, bool) {
	ws, at := st.opening(words, top)
	if at < 0 {
		return nil, false
	}
	if base, action := actionVerb(ws[at]); !action || base != ws[at] {
		return nil, false // the cheap test first: most requests open with no action verb
	}
	op := fallback.RequestOpening(raw)
	if op.Verb != ws[at] || op.VerbValue {
		return nil, false
	}
	base, asks := openingAction(op.Verb, op.Object)
	if asks {
		return nil, false // "inform me about the weather": a question
	}
	frame := fallback.TimeFrame(ws[at:])
	does := doersBelowBest(top, func(id int) bool { return st.leadsVerb(id, base) || frame != "" && st.leadsVerb(id, frame) })
	return does, does != nil && frame != ""
}

// opening returns a request's ranking words (words) and the position of
// the first that is no preamble word, where the verb rules read the
// request's opening (doesVerb, doesStatement); -1 when there is none, or
// when learning from use ranked one of top: what agents called for such
// requests wins over the verb's reading.
func (st *state) opening(words func() []string, top []hit) ([]string, int) {
	if slices.ContainsFunc(top, func(h hit) bool { return h.learned != nil }) {
		return nil, -1
	}
	ws := words()
	return ws, slices.IndexFunc(ws, func(w string) bool { return !fallback.PreambleWord(w) })
}

// doersBelowBest returns, for each of top, whether its tool does what the
// request asks (does), when some of them do and the best does not; nil
// otherwise: the hits requestRead demotes are those that do not.
func doersBelowBest(top []hit, does func(id int) bool) []bool {
	out := make([]bool, len(top))
	for k, h := range top {
		out[k] = does(h.id)
	}
	if len(out) == 0 || out[0] || !slices.Contains(out, true) {
		return nil
	}
	return out
}

// doesStatement returns, for each of top, whether its tool does the SQL
// statement that a request on data asks for (fallback.DataFrame: "set
// status = 'shipped' for order 9912 in the orders table" an UPDATE, "how
// many rows in the orders table have status 'refunded'" a SELECT), when
// some of them do and the best does not; nil otherwise. words are the
// request's ranking words.
func (st *state) doesStatement(words func() []string, top []hit) []bool {
	ws, at := st.opening(words, top)
	if at < 0 {
		return nil
	}
	frame := fallback.DataFrame(ws[at:])
	if frame == "" {
		return nil
	}
	return doersBelowBest(top, func(id int) bool { return st.doesData(id, frame) })
}

// doesData reports whether tool id does the SQL statement of frame
// (fallback.DataFrame) on a database's data: its name or its
// description's first sentence says the statement's verb (leadsVerb),
// and its text names data (fallback.DataWords: a table, rows, SQL).
// notes__delete_note deletes, but no rows.
func (st *state) doesData(id int, frame string) bool {
	return st.leadsVerb(id, frame) && slices.ContainsFunc(fallback.DataWords(), func(w string) bool { return st.lex.HasWord(id, w) })
}

// firstFields returns s up to the end of its n-th field (strings.Fields),
// without splitting the rest of it.
func firstFields(s string, n int) string {
	in := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if in && space {
			if n--; n == 0 {
				return s[:i]
			}
		}
		in = !space
	}
	return s
}
