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
// or more for a request that names the top tool's own action (see above);
// hs are m's hits as the answer orders them, best first, and r the
// request as result reads it once for this, requestRead and the no-match
// rules (reading).
func (st *state) ownActionCoverage(r *reading, m matches, hs []hit) float64 {
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
