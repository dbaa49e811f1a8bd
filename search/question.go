package search

import (
	"fmt"
	"strings"

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

// questionWriteFactor scales the score of a tool whose name's verb writes
// (writeVerbs) for a request that is a question (questionRequest).
//
// Worked example: "what's on my calendar tomorrow", hybrid:
// calendar__delete_event 0.520 × 0.7 = 0.364 falls below
// calendar__list_events' 0.373.
const questionWriteFactor = 0.7

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
	head := strings.Fields(raw)
	ws := fallback.Words(strings.Join(head[:min(len(head), 2)], " ")) // its first two words are all it reads
	if len(ws) == 0 || !questionOpeners[ws[0]] {
		return false
	}
	return ws[0] != "how" || len(ws) < 2 || !howToWords[ws[1]]
}

// questionRead demotes the hits whose tool writes (see above) when p's
// request is a question, and sorts them again; it returns hs.
func (st *state) questionRead(p *plan, hs []hit) []hit {
	if len(hs) < 2 || !questionRequest(request(p.query).Raw) {
		return hs
	}
	top := hs[0].score
	changed := false
	for i := range hs {
		acts := st.toolActions(hs[i].id)
		if len(acts) == 0 || !writeVerbs[acts[0]] {
			continue
		}
		hs[i].score *= questionWriteFactor
		changed = true
		if p.debug {
			hs[i].explain += fmt.Sprintf("; a question, and the tool's verb %q writes: × %.2f", acts[0], questionWriteFactor)
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
