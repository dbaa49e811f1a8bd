package search

import (
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// The unserved question: a short yes/no question about the asker's own
// things ("Has my tax refund been issued yet?", "is my invoice for OPS-12
// paid?") asks after something of theirs that a tool must hold; when none
// of the unservedDepth best tools has its subject's head (the last word of
// the subject, fallback.OwnQuestion, that is no argument value, whether
// the catalog knows it or not), the search is flagged as for the unserved
// action (unserve). Without a part-of-speech tagger, a do-question's
// subject runs on into its verb and object ("Does my health insurance
// cover acupuncture?" → health, insurance, cover, acupuncture), so its
// head is the question's last word, what it asks about. Measured (fifth
// round), default mode, answerable / no-answer flagged before → after:
// bfcl 4.1 / 78 % → 4.1 / 82 % ("refund", "acupuncture": no word of
// bfcl's catalog), keyword 4.6 / 78 % → 4.6 / 82 %; livemcpbench,
// stabletoolbench and the example catalog's sets do not move. Only the
// head's words the catalog knows counted first: then the do-question was
// flagged by "cover" and "Has my state tax refund been issued yet?" not
// at all (its head was "tax"). No answerable request of the dev sets, the
// held-out sets or the example sets is such a question, so its cost on
// answerable questions is unmeasured. A question of state's subject ran
// on into its predicate, a value or a time phrase at first, and short
// answerable questions on the example catalog were flagged by their last
// word ("Is my calendar free tomorrow afternoon?" by "afternoon", "Is my
// jira issue OPS-12 closed?" by "closed", "Is my air quality good
// today?" by "today"); OwnQuestion now ends the subject before them, and
// no measured set moves.
//
// unservedQuestion returns the head of the subject of a short yes/no
// question about the asker's own things (fallback.OwnQuestion: "Has my
// state tax refund been issued yet?" → refund, its last word that is no
// argument value) when none of the best hits (sorted best first) has it,
// or "" (see above).
func (st *state) unservedQuestion(r *reading, words int, hs []hit) string {
	if len(hs) == 0 || st.learnedServes(r.plan, hs[0]) || words > unservedMaxWords {
		return ""
	}
	subject := fallback.OwnQuestion(r.req.Raw)
	if len(subject) == 0 {
		return ""
	}
	head := ""
	for _, w := range r.matches(hs[0].id) {
		if !w.Arg && w.Weight >= 1 && slices.Contains(subject, w.Word) {
			head = w.Word
		}
	}
	if head == "" {
		return ""
	}
	for _, h := range r.servingTop(hs) {
		if st.lex.HasWord(h.id, head) {
			return ""
		}
	}
	return head
}

// unservedQuestionWhy says why unservedQuestion flagged a search (head is
// the subject's head).
func unservedQuestionWhy(head string) string {
	return fmt.Sprintf("none of the top %d tools has %q, what the question is about", unservedDepth, head)
}
