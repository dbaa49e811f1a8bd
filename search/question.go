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
// request that opens with a question word (fallback.WhWord) the scores of
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
// way (requestRead). Measured (docs/benchmarks.md, "A
// request's verb is done by a tool that does it"): the example sets'
// first tool right for 15 more answerable requests (keyword 17), wrong
// for none that was right; no no-answer request of any set moves.
//
// Learning from use composes with the verb (h35-learn, ninth session;
// docs/benchmarks.md, "The verb rule beside learned hits"). The rule
// first stepped aside whenever learning lifted one of the verbDepth best
// (it demoted learned tops for not saying the verb: livemcpbench's even
// half +.0213 → −.0026), so learning's siblings — a tool used after
// requests that share this one's words but ask another action ("file a
// github issue …" and github__search_issues) — kept the top the verb would
// have corrected. Now it runs beside them when one of the hits learning
// lifted says the verb in its own text; a lifted hit also does the verb
// when its learned queries say it (learnedDoes: agents called it for
// requests with this verb, not demoted); and a hit learning did not lift
// keeps its place unless a hit doing the verb was lifted strongly
// (learnedKeeps).
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

// howToWords after "how" make a request one for doing, not knowing.
var howToWords = wordSet("do does can could to should would shall")

// questionRequest reports whether raw opens with a question word
// (fallback.WhWord), "what's" and "when's" included; "how" only when no
// "do", "can", "to" or "should" follows (howToWords: "how do I create an
// issue" asks for the tool that creates).
func questionRequest(raw string) bool {
	ws := fallback.Words(firstFields(raw, 3)) // its first three words are all it reads
	if len(ws) == 0 {
		return false
	}
	if yesNoOpener(ws[0]) {
		return !slices.ContainsFunc(ws[1:], func(w string) bool { return askingWords[w] })
	}
	if !fallback.WhWord(ws[0]) {
		return false
	}
	return ws[0] != "how" || len(ws) < 2 || !howToWords[ws[1]]
}

// yesNoOpener reports whether w opens a question that is answered yes or
// no (or with what there is): a yes/no question's verb as fallback reads
// one (fallback.YesNoOpener: "is", "did", "has" ...) but "do", or a word
// of anyWords: "did @marco say anything in Slack about the invoice bug",
// "is #2048 on pallets/flask still open", "any uncommitted work in
// ~/code/api?", "has anyone complained about memory leaks in
// prometheus/prometheus". Such a request is a question of
// questionRequest as one opening with a question word is; not "do"
// ("do a backup of ~/notes"), nor "can", "could", "will" or "would",
// which open a request put politely ("can you send the report to
// Dana").
func yesNoOpener(w string) bool { return fallback.YesNoOpener(w) && w != "do" || anyWords[w] }

// anyWords open a question about what there is (yesNoOpener).
var anyWords = wordSet("any anything anyone anybody")

// askingWords among the two words after a yes-no opener ask for an
// action to be done, not told: "is it possible to send ...", "is there a
// way to move ...", "any chance you could create ...".
var askingWords = wordSet("possible way chance")

// verbDepth is how many of the best hits a request's verb lifts (requestRead):
// a tool among them that does the verb outranks one that does not when
// their scores are within questionWriteFactor of each other (frameFactor
// when a frame reads the request: on data, or in time).
const verbDepth = 3

// statementDepth is how many of the best hits a request on data reads for
// a tool that runs its statement (doesStatement): deeper than verbDepth,
// since the data frame says surely what is asked, and in the default mode
// the tools that list and describe tables, and the tools of the row's
// noun ("user 4412": slack__get_user_profile), fill the best 3 by the
// table's words ("Set active = false for user 4412 in the users table"
// had postgres__execute sixth). Measured (eleventh session, h37-rank;
// docs/benchmarks.md, "Value kinds, data frames and coordinates asked
// for"), with the identifier rule's table check (idRefsOf,
// fallback.InTable): example pairs first tool right 597 → 600 of 767
// (keyword 610 → 614), none lost; pooled answerable flagged 50 → 48 of
// 717 (keyword 60 → 57), no-answer unchanged; the dev sets (modes.sh)
// identical.
const statementDepth = 10

// requestRead reorders hs by what p's request asks for (after the
// coordinates it asks for or gives, askedKind, and the actions it rules out,
// notAsked): a request on a
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
// hit's score (see above). A demoted hit among those the rule read that
// learning lifted loses its lift first (takeBackLifts). r is the request
// (reading). It returns hs.
func (st *state) requestRead(r *reading, hs []hit) []hit {
	if len(hs) < 2 {
		return hs
	}
	hs = st.askedKind(r, hs)
	hs = st.notAsked(r, hs)
	p := r.plan
	raw := r.req.Raw
	var demoted func(k int) bool
	read := len(hs)               // the hits the rule read, whose learned lifts it may take back
	var takeBack func(k int) bool // which of them: the demoted, unless said otherwise
	why := ""
	factor := questionWriteFactor
	if does := st.doesStatement(r, hs[:min(len(hs), statementDepth)]); does != nil {
		keeps := learnedKeeps(hs[:len(does)], does)
		demoted = func(k int) bool { return k >= len(does) || !does[k] && (keeps == nil || !keeps[k]) }
		read = len(does)
		why = "a request on data, and the tool is not among the best doing its statement"
		factor = frameFactor
	} else if question, see := questionRequest(raw), r.seeRequest(); question || see {
		demoted = func(k int) bool {
			return st.facts(hs[k].id).writes
		}
		// A writer whose learned queries say the request's action keeps
		// its lift (learnedDoes: "…, write the report to …").
		takeBack = func(k int) bool { return demoted(k) && !st.learnedDoes(p, hs[k]) }
		why = "a question, and the tool writes"
		if see {
			why = "a request to see, and the tool writes"
		}
	} else if does, framed := st.doesVerb(r, hs[:min(len(hs), verbDepth)]); does != nil {
		keeps := learnedKeeps(hs[:len(does)], does)
		demoted = func(k int) bool { return k >= len(does) || !does[k] && (keeps == nil || !keeps[k]) }
		read = len(does)
		why = "the request's verb, and the tool is not among the best doing it"
		if framed {
			factor = frameFactor
		}
	} else {
		return hs
	}
	if takeBack == nil {
		takeBack = demoted
	}
	top := hs[0].score
	if !takeBackLifts(hs[:read], takeBack, p.debug) {
		return st.demote(hs, demoted, factor, why, p.debug)
	}
	hs = st.demote(hs, demoted, factor, why, p.debug)
	keepTop(hs, top, p.debug)
	return hs
}

// demote scales the scores of the hits of hs that demoted admits (by
// their index in hs as given) by factor, noting why in their explanation
// when debug, sorts hs again and returns it, the best hit keeping the
// score the best hit had: the rule orders, it does not judge the match,
// so calibration reads the same strength (a question whose best tools
// all write is no weaker for it). hs is returned unchanged when demoted
// admits none. The request rules share it (requestRead, askedKind).
func (st *state) demote(hs []hit, demoted func(k int) bool, factor float64, why string, debug bool) []hit {
	top := hs[0].score
	changed := false
	for i := range hs {
		if !demoted(i) {
			continue
		}
		hs[i].score *= factor
		changed = true
		if debug {
			hs[i].explain += fmt.Sprintf("; %s: × %.2f", why, factor)
		}
	}
	if !changed {
		return hs
	}
	sortHits(hs, st.name)
	rescaleBest(hs, top, "the best hit's score before", debug)
	return hs
}

// rescaleBest scales every score of hs (sorted) so that the best is top
// again when it fell under it (a rule demoted it, or took its learned lift
// back): the request rules order the hits, they do not judge the match,
// so calibration reads the strength it read before. before names top in
// the debug explanation.
func rescaleBest(hs []hit, top float64, before string, debug bool) {
	if len(hs) == 0 || hs[0].score <= 0 || hs[0].score >= top {
		return
	}
	f := top / hs[0].score
	for i := range hs {
		hs[i].score *= f
	}
	if debug {
		hs[0].explain += fmt.Sprintf("; scores × %.3f (%s)", f, before)
	}
}

// doesVerb returns, for each of top, whether its tool does the action verb
// that raw opens with (leadsVerb, or the frame's verb when the request moves
// or books a thing in time: fallback.TimeFrame; for a hit learning lifted,
// also learnedDoes), when some of them say it in their own text and the
// best does not do it; nil otherwise (no action verb opens the request, a
// light one, an inflected one: "walking directions"), and when learning
// lifted some of top but none of those it lifted says the verb (the
// verb's reading would then turn against what agents called: "Extract and
// display the last five lines from report.csv" and a bfcl tool named
// extractLastTransactionId over the learned gorilla_file_system tools).
// Its second result says whether a frame of time reads the verb
// (requestRead's frameFactor). r is the request (reading).
func (st *state) doesVerb(r *reading, top []hit) ([]bool, bool) {
	p := r.plan
	ws, at := r.lead()
	if at < 0 {
		return nil, false
	}
	if base, action := actionVerb(ws[at]); !action || base != ws[at] {
		return nil, false // the cheap test first: most requests open with no action verb
	}
	op := r.opening()
	if op.Verb != ws[at] || op.VerbValue {
		return nil, false
	}
	base, asks := openingAction(op.Verb, op.Object)
	if asks {
		return nil, false // "inform me about the weather": a question
	}
	frame := fallback.TimeFrame(ws[at:])
	does := doersBelowBest(top, func(id int) bool { return st.leadsVerb(id, base) || frame != "" && st.leadsVerb(id, frame) })
	if does == nil {
		return nil, false
	}
	if !liftedDoes(top, does) {
		return nil, false // learning ranked them, and none it lifted says the verb
	}
	own := slices.Clone(does)
	for k, h := range top {
		does[k] = does[k] || st.learnedDoes(p, h)
	}
	if does[0] && !own[0] && saidBetter(p, st, top, own) {
		does[0] = false // learning says it, but a tool that says it itself was learned closer
	}
	if does[0] {
		return nil, false // learning says the best does it
	}
	return does, frame != ""
}

// lead returns the request's ranking words (reading.words) and the
// position of the first that is no preamble word, where the verb rules read the
// request's opening (doesVerb, doesStatement); -1 when there is none.
func (r *reading) lead() ([]string, int) {
	ws := r.words()
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

// learnedDoes reports whether learning from use lifted h and the tool's
// learned queries say the request's action (learnedAgrees' reading: one of
// them has the request's verb or a synonym and another of its terms):
// agents called it for such requests, whatever its own text says ("email
// the quarterly report to bob" and email__send_email, learned from "send an
// email to …", over email__read_email).
func (st *state) learnedDoes(p *plan, h hit) bool {
	return h.learned != nil && p.learned != nil && st.agrees(p.learned, h.id)
}

// saidBetter reports whether one of top below the best does the request's
// verb by its own text (own) and by its learned queries (learnedDoes),
// and they resemble the request more than the best's, which does it only
// by its learned queries (the same signal's similarity, as the boost read
// it: bestShare): then the verb rule demotes the best as it would without
// learning. Agents called both for requests with this verb (a meeting is
// booked after its free time is found), and the one whose learned
// queries say this request best does it in its own words too: "book a
// meeting with Lee on Friday at 2" and calendar__create_event over
// calendar__find_free_time, which sessions that booked used first. A
// best that is learned closer keeps its place: "Generate a well-formatted
// PDF report …" and word-document-server__convert_to_pdf over the
// word-cloud chart that says "generate". Measured (docs/benchmarks.md,
// "The best learned match sets the scale"), with bestShare, ratio of
// learning's gain to the naive stand-in's, even / odd: the example pool
// .49 / .91 → .54 / .93 (keyword .21 / .64 → .27 / .70); livemcpbench,
// bfcl and stabletoolbench unchanged. Without the similarity's order
// (any such doer below): pool .54 / .93 (keyword .29 / .73), but
// livemcpbench's even half .73 → .56 (the PDF report above).
func saidBetter(p *plan, st *state, top []hit, own []bool) bool {
	best := top[0].learned
	if best == nil {
		return false
	}
	for k := 1; k < len(top); k++ {
		l := top[k].learned
		if own[k] && l != nil && l.Signal == best.Signal && l.Similarity > best.Similarity && st.learnedDoes(p, top[k]) {
			return true
		}
	}
	return false
}

// liftedDoes reports whether learning from use lifted none of top, or
// one that does what the request asks by its own text (does): the verb
// rules (doesVerb, doesStatement) read the request beside learned hits
// only then.
func liftedDoes(top []hit, does []bool) bool {
	lifted := false
	for k, h := range top {
		if h.learned != nil {
			if does[k] {
				return true
			}
			lifted = true
		}
	}
	return !lifted
}

// learnedKeeps returns, for each of top (the verbDepth best, does their
// doesVerb), whether the hit keeps its score though it does not do the
// request's verb: when learning lifted one of them and no hit doing the
// verb has a lift of learnedServesStrength or more, the hits learning did
// not lift keep their place. A weak lift (a session or two of evidence
// times a weak resemblance) does not turn the verb against the catalog's
// own best: "Draw a flowchart of a fast sorting algorithm using Mermaid"
// kept mermaid-validator__validateMermaid first though one session's
// "draw cowboy using canvas" lifted the painter tools, which say "draw",
// by 0.08 (livemcpbench's even half lost most of its gain, +.0213 →
// +.0028, without it). It returns nil when nothing keeps its score.
func learnedKeeps(top []hit, does []bool) []bool {
	if !slices.ContainsFunc(top, func(h hit) bool { return h.learned != nil }) {
		return nil
	}
	for k, h := range top {
		if does[k] && h.learned != nil && liftStrength(h.learned) >= learnedServesStrength {
			return nil
		}
	}
	keeps := make([]bool, len(top))
	for k, h := range top {
		keeps[k] = h.learned == nil
	}
	return keeps
}

// doesStatement returns, for each of top, whether its tool does the SQL
// statement that a request on data asks for (fallback.DataFrame: "set
// status = 'shipped' for order 9912 in the orders table" an UPDATE, "how
// many rows in the orders table have status 'refunded'" a SELECT), when
// some of them do and the best does not; nil otherwise. r is the request
// (reading).
func (st *state) doesStatement(r *reading, top []hit) []bool {
	ws, at := r.lead()
	if at < 0 {
		return nil
	}
	frame := fallback.DataFrame(ws[at:])
	if frame == "" {
		return nil
	}
	does := doersBelowBest(top, func(id int) bool { return st.doesData(id, frame) })
	if does == nil {
		return nil
	}
	if !liftedDoes(top, does) {
		return nil // as doesVerb
	}
	return does
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
