package learn

import (
	"math"
	"slices"
)

// Attribution: which queries a use of a tool teaches it.
//
// A use is credited to the queries of the session's searches that
// returned the tool, most recent first, each earlier search half as much
// as the one after it (1, ½, ¼), at most MaxAttributedSearches of them:
// the latest search is usually the one that led the model to the tool.
//
// A query that led to several tools is shared, not smeared: when the
// session has already used another tool that the same search returned,
// the query's words belonged partly to that tool, so this use credits the
// query 1/√(k+1), k the number of other tools of that search already used.
// (A query naming four tasks teaches each of its four tools a half.)
// Divided by k+1 instead, the last of a workflow's tools (write the
// report, save the document) learned too little from one session to join
// or be lifted: measured on the dev sets' replay (docs/benchmarks.md,
// "Against the naive stand-in", fourth round), livemcpbench's ratio to the
// naive stand-in (k-fold, k = 4) rises from .49 to .63 (keyword mode .29
// to .33), bfcl's from .76/.95 to .76/.96 (keyword .79/.86 to .83/.89);
// stabletoolbench's gain is +.007/−.002 (keyword +.005/−.003). Undivided
// (1) gave livemcpbench .63 too and cost stabletoolbench −.006 (keyword
// −.010). A tool used after every search gains from it as well: search
// damps the learned weight of a tool used in most of its scope's sessions
// (search's learnCommonShare).
//
// A miss teaches too. When no search of the session returned the tool —
// the model found it another way (an earlier turn, an always-loaded tool,
// a search it refined by name) — the session's newest search with a query
// is the lesson "this wording should have found that tool": it is
// credited MissCreditWeight (shared as above), once per session and tool
// (a tool the session already used is not credited again as a miss: an
// always-loaded tool used after every search says nothing about the
// latest one). A miss credits a tool the catalog's text did not find for
// that query, so package search counts what misses taught only where the
// learned query resembles the request, and never lets it alone put a tool
// into results (search/learned.go).

// MaxAttributedSearches is how many of a session's searches one use is
// credited to.
const MaxAttributedSearches = 3

// MissCreditWeight is the share of a use credited to the session's newest
// search when no search returned the tool (a miss): half a use, so that a
// tool the catalog's text did not find for a wording joins results for it
// only with the misses of four sessions (search's learnJoinEvidence), or
// of three that each taught it a wording resembling the request (search's
// learnJoinSpread), and two sybil sessions cannot put an unrelated tool into a request's results
// (server's TestLearnMissSybils). Measured on the dev sets' replay
// (docs/benchmarks.md, "Learning from use"; misses are 60 % of
// livemcpbench's reported uses, 15 % of bfcl's): 1 gave a little more on
// bfcl (ratio to the naive stand-in .68/.88 against .65/.84) and fails
// that test.
const MissCreditWeight = 0.5

// Search is one search of a session, as attribution sees it.
type Search struct {
	// Scope is the learning scope of the search's request.
	Scope string
	// Query is the search's query (its ranking words).
	Query string
	// Tools are the tools the search returned (none for a dead end).
	Tools []string
	// Used are the tools the session has reported used and credited to
	// this search (returned by it, or missed by it).
	Used []string
}

// Credit is one query credited with a use, and how much.
type Credit struct {
	// Scope is the learning scope of the credited search.
	Scope string
	// Query is the query text.
	Query string
	// Weight is the share of the use credited to it, in (0, 1].
	Weight float64
	// Search is the index in the searches given to Attribute.
	Search int
	// Miss is set when the search did not return the tool (no search of
	// the session did): the credit is a miss (see above).
	Miss bool
}

// Attribute returns the credits for a use of tool, given the session's
// searches newest first: the searches that returned it, or, when none
// did, a miss credit to the newest search with a query unless an earlier
// use of the tool was already credited. It does not modify searches.
func Attribute(searches []Search, tool string) []Credit {
	var out []Credit
	w := 1.0
	for i, s := range searches {
		if len(out) == MaxAttributedSearches {
			break
		}
		if s.Query == "" || !slices.Contains(s.Tools, tool) {
			continue
		}
		out = append(out, Credit{Scope: s.Scope, Query: s.Query, Weight: w / share(others(s, tool)), Search: i})
		w /= 2
	}
	if len(out) > 0 {
		return out
	}
	for _, s := range searches {
		if slices.Contains(s.Used, tool) {
			return nil // used before: its miss was credited then
		}
	}
	for i, s := range searches {
		if s.Query != "" {
			return []Credit{{Scope: s.Scope, Query: s.Query, Weight: MissCreditWeight / share(others(s, tool)), Search: i, Miss: true}}
		}
	}
	return nil
}

// share is the divisor of a credit shared with k other tools: √(k+1)
// (see the top of this file).
func share(k int) float64 { return math.Sqrt(float64(k + 1)) }

// others is the number of tools other than tool already used and credited
// to s.
func others(s Search, tool string) int {
	k := 0
	for _, u := range s.Used {
		if u != tool {
			k++
		}
	}
	return k
}
