package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// servingTop returns the tools the no-match rules read as a request's best
// (the unserved action, task, step, question, past and phrasal verb: "none
// of the top 3 tools does it"): among the unservedDepth best of hs (sorted
// best first), the best and each other that is a candidate for the request
// (requestWords.candidate). A tool that only happens to rank second or third, on a
// word of another sense, is no tool of the request, and whether it serves a
// step must not decide the flag: "I'm trying to start my dev server but
// port 8080 is already in use. Can you find the process that's listening
// on it on my laptop and kill it?" (stabletoolbench) ranked
// teamriverbubbles_random_utilities__kd_calculator ("Calculates a kd (kill
// death ratio)", parameter "kills") fourth, and the request was flagged;
// when a ranking change (retrievalExponent 1) moved it to third, it served
// "kill it" (takesVerb: "kills"), and the flag was lost. The flag then
// depended on which unrelated tool sat at rank 3.
//
// Measured (tenth session, h36-unserved; docs/benchmarks.md, "The best
// tools the no-match rules read"): on the current ranking no flag of any
// set moves (ex.sh both modes: every example pair, the dev catalogs'
// held-out no-answer sets; modes.sh: the dev sets, answerable and
// no-answer), and the flags depend less on the tool at the edge: of the
// 3,214 searches of those sets per mode, the flags that change when the
// rules read the 4 best tools instead of 3 fall from 17 to 10 (default
// mode) and 15 to 8 (keyword), those that change when they read 2 stay
// at 9 and 11. Tried (answerable / no-answer flagged, example sets pooled,
// default mode unless said): the best tools within a ratio of the best's
// calibrated score — 0.5 moves nothing (the 3 best of a search the rules
// read are within half of the best), 0.7 flags one more answerable
// request of held-out-6 and 2 of bfcl's, 0.9 pools 6.5 → 7.1 % — and
// junk scores as high as real tools there (kd_calculator 0.84 of the best
// in keyword mode); a word of the tool's name alone, 6.5 → 8.1 % (keyword
// 7.8 → 9.6 %: "reply all to the budget thread" and email__reply_to_email,
// whose name has only the verb); a thing word alone (below, without the
// name), 6.5 → 6.6 % (keyword 7.8 → 8.1 %, bfcl +2 / +4 answerable: "list
// open PRs in acme/widgets and comment 'please rebase' on the oldest one"
// and github__add_issue_comment); the name's words after its first (its
// thing) instead of every word, bfcl answerable +1 / +3 (keyword: "Transfer
// 'temp_notes.txt' into the 'archives' directory and then rename it ..."
// and rename_server). Its cost, BenchmarkNoMatchRules (the rules alone,
// keyword mode, allocations per search; the times were noise at a load
// average of 11-19): bfcl 91 → 105, stabletoolbench 117 → 125, 108 and
// 128 before the name's stems were kept with the tool (toolFacts.names)
// and the request's stemmed once.
func (st *state) servingTop(r *reading, hs []hit) []hit {
	top := hs[:min(len(hs), unservedDepth)]
	if len(top) < 2 {
		return top
	}
	c := requestWords{r: r, best: top[0].id}
	if !slices.ContainsFunc(top[1:], func(h hit) bool { return !c.candidate(h.id) }) {
		return top
	}
	out := []hit{top[0]}
	for _, h := range top[1:] {
		if c.candidate(h.id) {
			out = append(out, h)
		}
	}
	return out
}

// requestWords reads a request's words once for servingTop, each kind
// when first needed: its ranking words, and the words it is about.
type requestWords struct {
	r               *reading
	best            int      // the request's best tool, whose word evidence tells which words the catalog knows
	ranking, about  []string // ranking holds the stems of its ranking words (fallback.Stem)
	ranked, aboutOK bool
}

// candidate reports whether tool id is a candidate for the request: its
// name (with its server; toolFacts.names) has a ranking word of the
// request, verb or not (email__reply_to_email of "reply all to the budget
// thread", github__add_issue_comment of "... and comment 'please rebase'
// on the oldest one"), or the tool has a word the request is about — a
// ranking word the catalog knows that is no argument value, no filler, no
// pronoun (proWords) and no clause's opening word, its verb: "process",
// "port", "server" of the request above. kd_calculator has neither: its
// name says "kd calculator", and "kill" is the request's verb.
func (c *requestWords) candidate(id int) bool {
	st := c.r.st
	if !c.ranked {
		for _, w := range c.r.words() {
			c.ranking = append(c.ranking, fallback.Stem(w))
		}
		c.ranked = true
	}
	names := st.facts(id).names
	if slices.ContainsFunc(c.ranking, func(w string) bool { return slices.Contains(names, w) }) {
		return true // fallback.SameStem, the stems read once
	}
	if !c.aboutOK {
		var verbs []string
		for _, cl := range c.r.clauses() {
			if cl.First != "" {
				verbs = append(verbs, cl.First)
			}
		}
		for _, w := range c.r.matches(c.best) {
			if w.Known && !w.Arg && w.Weight >= 1 && !proWords[w.Word] && !slices.Contains(verbs, w.Word) {
				c.about = append(c.about, w.Word)
			}
		}
		c.aboutOK = true
	}
	return slices.ContainsFunc(c.about, func(w string) bool { return st.lex.HasWord(id, w) })
}
