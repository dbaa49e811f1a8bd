package learn

import "slices"

// Attribution: which queries a use of a tool teaches it.
//
// A use counts only for a tool that a search of the same session
// returned. It is credited to the queries of the session's searches that
// returned the tool, most recent first, each earlier search half as much
// as the one after it (1, ½, ¼), at most MaxAttributedSearches of them:
// the latest search is usually the one that led the model to the tool.
//
// A query that led to several tools is shared, not smeared: when the
// session has already used another tool that the same search returned,
// the query's words belonged partly to that tool, so this use credits the
// query 1/(k+1), k the number of other tools of that search already used.
// (A query naming three tasks teaches each of its three tools a third.)

// MaxAttributedSearches is how many of a session's searches one use is
// credited to.
const MaxAttributedSearches = 3

// Search is one search of a session, as attribution sees it.
type Search struct {
	// Scope is the learning scope of the search's request.
	Scope string
	// Query is the search's query (its ranking words).
	Query string
	// Tools are the tools the search returned.
	Tools []string
	// Used are the tools of Tools that the session has reported used.
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
}

// Attribute returns the credits for a use of tool, given the session's
// searches newest first; none when no search returned the tool. It does
// not modify searches.
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
		others := 0
		for _, u := range s.Used {
			if u != tool {
				others++
			}
		}
		out = append(out, Credit{Scope: s.Scope, Query: s.Query, Weight: w / float64(others+1), Search: i})
		w /= 2
	}
	return out
}
