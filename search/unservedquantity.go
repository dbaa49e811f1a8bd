package search

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/fallback"
)

// The unserved quantity: a question that asks what something is ("What's
// my checking account balance?", "When is high tide at Brighton
// tomorrow?", "How much are the tolls driving Paris to Lyon?", "What's
// the elevation above sea level at 46.85, -121.76?") names what it asks
// for as its subject, after the question word and its copula; a tool
// that answers it reports that thing, so the catalog has its word. The
// near misses find the tools of a server by the question's other words
// (the place, "high", "sea level", "driving") and report something else:
// weather__get_forecast gives daily highs, no tide. The rule: a request
// of at most unservedMaxWords ranking words that opens with a question
// word of quantityWh, at most one word after it ("how high", "how much")
// and a copula, and names a subject after it (copulaSubject); the
// subject's head is its last word of full weight that is no argument
// value, no time word and no participle ("what's holding up OPS-1402");
// when that head is a word no tool of the catalog has (not
// fallback.WordMatch.Known), in no short or everyday form either (not
// Plain: "how cold is it" asks for the temperature), written in lower
// case (lowerIn: "what is the specs ACHD of type MPN" names a part), and
// none of the unservedDepth best tools (servingTop) has it, the search is
// flagged as for the unserved action (unserve). It runs last of the
// no-match rules (unserved): what the others read is theirs to say.
//
// Measured (sixteenth session, h42-na; docs/benchmarks.md, "The
// unserved quantity"), default / keyword mode: example dev pairs pooled
// no-answer flagged 897 → 901 / 895 → 899 of 960 (ho11 94 → 96 %, ho24
// 82 → 86 %, ho29 84 → 86 %), answerable 44 / 40 of 967 unchanged; the
// dev sets (bfcl, livemcpbench, stabletoolbench: nDCG@10, answerable and
// no-answer flagged) and their held-out no-answer sets do not move; the
// transfer-check pairs 33+34 do not move either (87 / 86 of 100
// no-answer, 8 / 7 of 100 answerable on main f4f7729). A head any best tool lacks (known
// to the catalog or not) flagged 14 more pooled answerable requests for 3
// no-answer ones ("what is bob's job title", "what's been said in
// #random", "why is this query slow"), and bfcl's "What's the mean of the
// quarterly revenue?" (its tools say "average").

// copulas are the forms of "be" a question's subject follows ("what's",
// "how high is"); quantityWh the question words that ask what a thing is
// or when (not "why", "where" or "who": "why is this query slow", "where
// is parseDuration defined" ask about a thing they name); determiners the
// words a subject may open with ("the elevation", "my checking account
// balance"): any other word after the copula ("what's on my calendar",
// "how hot is it in Madrid", "what's been said in #random") opens no
// subject the question asks for.
var (
	copulas     = map[string]bool{"is": true, "are": true, "s": true, "was": true, "were": true}
	quantityWh  = map[string]bool{"what": true, "when": true, "how": true, "which": true}
	determiners = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "his": true, "her": true, "their": true, "its": true, "this": true, "that": true}
)

// copulaSubject returns the positions in text (fallback.Words of a
// request) of the subject of a question that opens with a question word
// of quantityWh, at most one word more and a copula (see above): after
// the copula and any determiners, the words ranking accepts up to the
// first it does not; a possessor's "s" starts the subject again ("what is
// bob's job title" → job, title). Without a determiner the subject has
// two words at least ("high tide"): a lone word right after the copula
// may be a participle ("what was said in #general"). It returns nil for
// any other text. A pure function of its inputs.
func copulaSubject(text []string, ranking func(string) bool) []int {
	if len(text) < 3 || !quantityWh[text[0]] {
		return nil
	}
	c := 1
	if !copulas[text[c]] {
		c = 2
	}
	if !copulas[text[c]] {
		return nil
	}
	start := c + 1
	for start < len(text) && determiners[text[start]] {
		start++
	}
	var out []int
	for i := start; i < len(text); i++ {
		if ranking(text[i]) {
			out = append(out, i)
		} else if text[i] == "s" && len(out) > 0 {
			out = out[:0] // "bob's job title": the possessor modifies the subject
		} else {
			break
		}
	}
	if start == c+1 && len(out) < 2 {
		return nil // "what was said in #general", "what's left in the directory": a lone word right after the copula may be a participle
	}
	return out
}

// unservedQuantity returns the head of the subject of a short question
// that asks what something is (see above) when none of the best hits
// (sorted best first) has it, or "".
func (st *state) unservedQuantity(r *reading, words int, hs []hit) string {
	if len(hs) == 0 || words > unservedMaxWords || st.learnedServes(r.plan, hs[0]) {
		return ""
	}
	ms := r.matches(hs[0].id)
	text := fallback.Words(r.req.Raw)
	subject := copulaSubject(text, func(w string) bool {
		return slices.ContainsFunc(ms, func(m fallback.WordMatch) bool { return m.Word == w })
	})
	head := ""
	for _, i := range subject {
		k := slices.IndexFunc(ms, func(m fallback.WordMatch) bool { return m.Word == text[i] })
		if m := ms[k]; m.Weight >= 1 && !m.Arg && !fallback.TimeWord(m.Word) && !participle(m.Word) {
			head = m.Word
			if m.Known || m.Plain || !lowerIn(r.req.Raw, m.Word) {
				head = "" // a thing the catalog has, its everyday word ("how cold is it": the temperature), or a code in capitals ("what is the specs ACHD of type MPN")
			}
		}
	}
	if head == "" || slices.ContainsFunc(r.servingTop(hs), func(h hit) bool { return st.lex.HasWord(h.id, head) }) {
		return ""
	}
	return head
}

// unservedQuantityWhy says why unservedQuantity flagged a search (head is
// the question subject's head).
func unservedQuantityWhy(head string) string {
	return fmt.Sprintf("none of the top %d tools has %q, what the question asks for", unservedDepth, head)
}

// participle reports whether w ends as a verb's participle does ("what's
// holding up OPS-1402", "what's still waiting to be merged"): a verb
// after the copula, no thing the question asks for.
func participle(w string) bool {
	return len(w) > 4 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed"))
}

// lowerIn reports whether raw has w (a word as fallback.Words gives it)
// as a word of its own written in lower case: a word in capitals is a
// name or a code ("what is the specs ACHD of type MPN", bfcl), which the
// request's argument values (fallback.WordMatch.Arg) do not all catch.
func lowerIn(raw, w string) bool {
	return slices.Contains(strings.FieldsFunc(raw, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }), w)
}
