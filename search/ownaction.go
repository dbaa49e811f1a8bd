package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

// A request that opens with the top tool's own action and names what it
// acts on ("geocode 221B Baker Street London", as a model writes
// tool_search's query: the action, then the values) is about those names:
// calibration's coverage (calibration.go) counted each unknown name
// against the tool (coverage 0.25: "baker", "street", "london" unknown
// of four words), although the request says what the tool does in the
// tool's own word. Only unknown place and person names after "in",
// "from", "to" were left out before (fallback.Result.Coverage); every
// capitalized name inside a sentence left out, whatever the request,
// lets near misses through (docs/benchmarks.md, "Places and people after
// ...": "like the song Blinding Lights on Spotify"). The rule: when the
// request's first ranking word is an action verb in its base form that
// opens it (fallback.RequestOpening) and is a word of the top tool's
// name that says what it does (without its server, toolActions:
// maps__geocode geocodes, email__read_email reads and emails nothing),
// the coverage is at least the share of its words the catalog knows among
// those that are no unknown argument value (fallback.WordMatch.Arg: names,
// numbers, paths). Measured (docs/benchmarks.md, "A model's query"):
// default and keyword mode, example held-out-14's answerable flagged 4.0 →
// 2.0 %; nothing else moves.

// ownActionCoverage returns the coverage of m for calibration: m.coverage,
// or m.whenCoverage with when (the request names the top tool's thing,
// namesThing, and its unknown time is when the tool acts), or more for a
// request that names the top tool's own action (see above); hs are m's
// hits as the answer orders them, best first, and r the request as
// result reads it once for this, requestRead and the no-match rules
// (reading).
func (st *state) ownActionCoverage(r *reading, m matches, hs []hit, when bool) float64 {
	if when {
		m.coverage = m.whenCoverage
	}
	if m.coverage >= 1 || len(hs) == 0 || (m.mode != ModeKeyword && m.mode != ModeHybrid && m.mode != ModeSemantic) {
		return m.coverage
	}
	ws := r.words()
	if len(ws) < 2 {
		return m.coverage
	}
	verb := ws[0]
	if base, action := actionVerb(verb); !action || base != verb {
		return m.coverage
	}
	_, name := catalog.SplitName(st.snap.Tool(hs[0].id).Name)
	if !slices.Contains(fallback.Words(name), verb) || !st.actsVerb(hs[0].id, verb) {
		return m.coverage // not email__read_email's "email": it reads email
	}
	if op := r.opening(); op.Verb != verb || op.VerbValue {
		return m.coverage
	}
	var weight, known float64
	for _, w := range r.matches(hs[0].id) {
		if !w.Known && w.Arg {
			continue // a name or a value the catalog does not know: what the action acts on
		}
		weight += w.Weight
		if w.Known {
			known += w.Weight
		}
	}
	if weight == 0 {
		return m.coverage
	}
	return max(m.coverage, known/weight)
}

// namesThing reports whether the request names what tool id acts on: a
// word of the request that the catalog knows is a word of the tool's
// name (without its server), no light verb (lightVerbs: "find") and no
// word of a time, or a value of the request has a kind the tool takes by
// name (namesKind: "#random" and a channel). Then an unknown time the
// request names is when the tool is to act ("what's been said in #random
// today", "weekend forecast for Denver"), and calibration reads
// fallback.Result.WhenCoverage; a near miss whose time is the one unknown
// word besides its topic ("what's the pollen count in Vienna today" and
// postgres__list_tables' "row count") names no thing of the tool's.
//
// Measured (twelfth session, h38-flags; docs/benchmarks.md, "A time the
// catalog does not know"), example dev pairs pooled (tuning, held-out
// 1–6, 8–14, 19, 20; then with 22): answerable flagged 46 → 44 of 717
// and 51 → 48 of 767 (keyword 55 → 51 and 59 → 54), no-answer flagged
// unchanged (672 / 709, keyword 673 / 711); the dev sets (bfcl,
// livemcpbench, stabletoolbench) do not move, nor does any ranking.
// Leaving the times out of Result.Coverage itself, whatever the top
// tool: answerable 51 → 46 of 767 but no-answer 709 → 700 (the
// "pollen count … today" and "UV index … today" near misses); without
// fallback's timesNotWhen, "Make the Monday standup, event 5tr8w1,
// repeat every week" (pair 22) was let through (74 → 72 %).
func (st *state) namesThing(r *reading, id int) bool {
	_, name := catalog.SplitName(st.snap.Tool(id).Name)
	nws := fallback.Words(name)
	for _, w := range r.matches(id) {
		if !w.Known || w.Arg || !w.InTool || lightVerbs[w.Word] || fallback.TimeWord(w.Word) {
			continue
		}
		if slices.ContainsFunc(nws, func(n string) bool { return fallback.SameStem(n, w.Word) }) {
			return true
		}
	}
	for _, v := range r.values() {
		if st.namesKind(id, v.Kind) {
			return true
		}
	}
	return false
}
