package search

import (
	"slices"
	"strings"
)

// A request may name an action only to rule it out ("Prepare an email to
// hr@acme.io about my leave, but don't send it yet", "Write up, but do
// not send, a message to hr@company.com", "archive the logs without
// deleting them"): the verb is what must not happen, yet its word draws
// the tools that do it (email__send_email, slack__send_message) ahead of
// the one that does the rest and says it leaves that action undone
// (email__create_draft, "Save an email as a draft ... without sending
// it"). So the hits of tools whose name or first sentence does a verb the
// request negates (negatedVerbs; leadsVerb) are scaled by negatedFactor,
// unless the tool's own description negates it too, and the best hit
// keeps its score (demote, as requestRead).

// negatedFactor scales the hits of tools that do an action the request
// rules out (notAsked): frameFactor's value, since a negation says surely
// what the request does not want. Measured (twelfth session, h38-rank;
// docs/benchmarks.md, "An action ruled out"): example pairs' first tool
// right (without pairs 22 and 24, 717) 548.3 → 548.3 (keyword 559.3 →
// 560.3), pair 22 31.5 → 32.5 of 50 (keyword 33.0 → 34.0), pair 24 25.5 →
// 26.5 (keyword 28.0 → 28.0; nDCG@10 .7475 → .7498); no flag moves on any
// set; the dev sets unchanged. questionWriteFactor's 0.7 measured the same
// but for pair 24's keyword nDCG@10 (.7484) and a fresh request ("Get an
// email to … ready …, but don't send it", keyword: email__send_email kept
// first).
const negatedFactor = frameFactor

// negators open the negation of the verb after them ("don't send", "do
// not send", "never merge"); "without" negates a verb's -ing form
// ("without sending"). Modal negations ("can't log in", "won't start")
// say what fails, not what to leave undone, and are not read.
var negators = wordSet("not never don't dont don’t")

// negatedVerbs returns the base forms (actionVerb) of the action verbs
// that raw negates, each once: the word after a negator (after "to":
// "remember not to merge"), or an -ing form after "without". It is a pure
// function of raw.
func negatedVerbs(raw string) []string {
	toks := strings.Fields(strings.ToLower(raw))
	for i := range toks {
		toks[i] = strings.Trim(toks[i], ".,;:!?()\"'")
	}
	var out []string
	for i := 0; i+1 < len(toks); i++ {
		next := toks[i+1]
		switch {
		case negators[toks[i]]:
			if next == "to" && i+2 < len(toks) {
				next = toks[i+2]
			}
		case toks[i] == "without":
			if !strings.HasSuffix(next, "ing") {
				continue
			}
		default:
			continue
		}
		if base, action := actionVerb(next); action && !slices.Contains(out, base) {
			out = append(out, base)
		}
	}
	return out
}

// notAsked scales the hits of tools that do an action r's request rules
// out (see above), sorts hs again and keeps the best hit's score; hs is
// returned unchanged when the request negates no action verb or no hit
// does one.
func (st *state) notAsked(r *reading, hs []hit) []hit {
	if len(hs) < 2 {
		return hs
	}
	verbs := negatedVerbs(r.req.Raw)
	if len(verbs) == 0 {
		return hs
	}
	does := func(k int) bool {
		id := hs[k].id
		return slices.ContainsFunc(verbs, func(v string) bool {
			return st.leadsVerb(id, v) && !slices.Contains(negatedVerbs(st.snap.Tool(id).Description), v)
		})
	}
	return st.demote(hs, does, negatedFactor, "an action the request rules out, and the tool does it", r.debug)
}
