package search

import "fmt"

// The unserved action: a short request whose action verb none of its best
// tools mentions is a near miss, however well its other words match.
// "forward this email to my accountant" finds the email tools (they send,
// read and reply), "delete the slack message I just posted" finds
// slack__send_message, "rebase my branch onto main" finds the branch
// tools; each scores over confidentScore on its object words, and none of
// the tools does what was asked. The rule:
//
//   - the query has at most unservedMaxWords ranking words (long task
//     descriptions name several actions and much context; their first
//     verb says little);
//   - its first ranking word (after a preamble such as "please" or "I
//     need to") is an action verb (actionVerbs: "forward", "archive",
//     "cancel", "rename"), not a light one (lightVerbs: "show", "find",
//     "open", "set"): requests put their action first, and a later word
//     that can be a verb is usually a noun ("directions to the train
//     station");
//   - that word is not an argument value (fallback.WordMatch.Arg: "#random",
//     "OPS-12", a quoted text or a capitalized name), and none of the
//     unservedDepth best tools has it, a stem variant of it or one of its
//     verbSynonyms ("write" → "create") in its name, description or
//     parameters;
//   - learning from use did not lift the top tool (agents used it for
//     this wording: it serves it).
//
// Then every score of the search is multiplied by unservedFactor (one
// factor for the whole search: the order never changes) and the search is
// flagged no_confident_match.
//
// Measured (docs/benchmarks.md, "no_confident_match (issue 25, item 4)"),
// default mode, answerable / no-answer queries flagged before → after: the
// example catalog's fixture 11.1 / 56 % → 11.1 / 74 %, its 201 new labelled
// queries 26.7 / 40 % → 29.7 / 68 %, its held-out 62 34.4 / 60 % → 40.6 /
// 90 %; bfcl 2.5 / 20 % → 3.6 / 30 %, livemcpbench 4.3 / 48 % → 4.3 / 58 %,
// stabletoolbench 0.0 / 10 % → 0.0 / 26 %. Any of the first 3 words as the
// verb took nouns for verbs ("the nearest train station"); a limit of 6
// words flags as many answerable queries and fewer near misses; the 5
// best tools instead of 3 keep fewer near misses (the 5th tool often has
// the verb in another sense).
const (
	// unservedMaxWords is the longest query, in ranking words, the rule
	// reads (6 and 8 measured, see above).
	unservedMaxWords = 8
	// unservedDepth is how many of the best tools may serve the verb (3
	// and 5 measured).
	unservedDepth = 3
	// unservedFactor puts a fused 1.0 at 0.45, under confidentScore.
	unservedFactor = 0.45
)

// preamble are the words a request may put before its action verb.
var preamble = wordSet("please need want like let help try could would can just also quickly go ahead kindly")

// unservedAction returns the action verb of the query that none of the
// best hits (sorted best first) mentions, or "" when there is none (see
// above).
func (st *state) unservedAction(p *plan, hs []hit) string {
	if len(hs) == 0 || hs[0].learned != nil {
		return ""
	}
	// The words alone decide most searches (no action verb first): only
	// then are they checked against the top tool and the raw query.
	ws := st.lex.RankingWords(p.query)
	if len(ws) == 0 || len(ws) > unservedMaxWords {
		return ""
	}
	verb := -1
	for i, w := range ws {
		if preamble[w] {
			continue
		}
		if _, action := actionVerb(w); action {
			verb = i
		}
		break
	}
	if verb < 0 {
		return ""
	}
	words := st.lex.WordMatches(p.query, hs[0].id) // the same words, in the same order
	if verb >= len(words) || words[verb].InTool {
		return ""
	}
	word := words[verb].Word
	if words[verb].Arg {
		return ""
	}
	base, _ := actionVerb(word)
	for k, h := range hs[:min(len(hs), unservedDepth)] {
		if k > 0 && st.lex.HasWord(h.id, word) {
			return ""
		}
		for _, syn := range verbSynonyms[base] {
			if st.lex.HasWord(h.id, syn) {
				return ""
			}
		}
	}
	return word
}

// unserve applies the unserved-action rule to calibrated hits: every score
// times unservedFactor, and an explanation on the top hit for debug
// requests.
func unserve(hs []hit, verb string, debug bool) {
	for i := range hs {
		hs[i].score *= unservedFactor
	}
	if debug && len(hs) > 0 {
		hs[0].explain += fmt.Sprintf("; unserved action: none of the top %d tools mentions %q, scores × %.2f", unservedDepth, verb, unservedFactor)
	}
}
