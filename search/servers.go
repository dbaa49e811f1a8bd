package search

import (
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/query"
)

// A query that names a server — a word equal to a server's name that other
// servers' tools rarely use (distinctive) — as "create a github issue for
// the login bug" does,
// prefers that server's tool over the same tool of another server: among
// twins — tools whose names differ only in their server part, such as
// github__create_issue and jira__create_issue — the named server's twin
// takes the best score of the twins, and the others move down in its place.
// Scores are only exchanged between twins, so no other tool moves.
//
// The rule is deliberately narrow. A general lift of every tool of a named
// server (score + 0.3 × (1 − score)) cost 0.038 nDCG@10 on bfcl and 0.012
// on stabletoolbench (default mode): there, server names are everyday words
// ("help", "music", "flight", "weather") that queries use as topic words,
// not to pick a provider.

// serverKeys maps the forms a query may name a server in — its name
// lowercased, and without separators ("google-calendar" also as
// "googlecalendar") — to the server, lowercased.
func serverKeys(servers []string) map[string]string {
	keys := map[string]string{}
	for _, s := range servers {
		if s == "" {
			continue
		}
		keys[s] = s
		if k := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s); k != "" {
			if _, ok := keys[k]; !ok {
				keys[k] = s
			}
		}
	}
	return keys
}

// namesServer reports whether w, a word of a request, names the server of
// tool id (serverKeys): "email bob the report" and email__send_email,
// "... and post it on Slack" and slack__send_message. Unlike
// mentionedServers it does not ask whether the name is distinctive: the
// no-match rules ask it of a tool that already does the request's verb.
func (st *state) namesServer(w string, id int) bool {
	s, ok := st.serverKeys[w]
	return ok && s == st.serverOf(id)
}

// mentionedServers returns the servers, lowercased, that a ranking word of
// q names and that have a tool in scope (nil: all), in query order.
func (st *state) mentionedServers(q query.Query, scope func(int) bool) []string {
	var out []string
	for _, t := range q.Terms {
		if t.Excluded {
			continue
		}
		w := strings.ToLower(strings.TrimFunc(t.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		s, ok := st.serverKeys[w]
		if !ok || slices.Contains(out, s) || !st.serverInScope(s, scope) || !st.distinctive(w, s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// distinctShare is the largest share of the other servers' tools whose
// text may contain a server's name for the name to count as naming that
// server: "github" appears in no jira tool, while "image", "location",
// "weather" or "whois" — server names in the public benchmark catalogs —
// are words that tools of other servers use too (0.2–3 %), and a query
// using them asks for the topic or the operation, not the provider. With
// 0.5 %, "whois" still counted and cost 0.003 nDCG@10 on stabletoolbench.
const distinctShare = 0.001

// distinctive reports whether word, which names server s, is rare in the
// text of other servers' tools (distinctShare).
func (st *state) distinctive(word, s string) bool {
	others := 0
	for _, id := range st.lex.ToolsWith(word) {
		if st.serverOf(id) != s {
			others++
		}
	}
	outside := st.allTools - st.serverTools[s] // the tools of the servers not named s
	return float64(others) <= distinctShare*float64(outside)
}

// serverInScope reports whether a tool of server s (a server of the
// catalog) is in scope (nil: every tool).
func (st *state) serverInScope(s string, scope func(int) bool) bool {
	if scope == nil {
		return true
	}
	for i := range st.snap.Len() {
		if st.serverOf(i) == s && scope(i) {
			return true
		}
	}
	return false
}

// preferServers applies the named-server rule above to hits sorted best
// first and returns them re-sorted. serverOf gives a tool's server and
// twinKey the part of its name that twins share (twinKey).
func preferServers(hs []hit, servers []string, serverOf, twinKey, name func(int) string) []hit {
	if len(servers) == 0 || len(hs) < 2 {
		return hs
	}
	best := map[string]int{} // twin key → position of the best twin
	moved := false
	for j := range hs {
		key := twinKey(hs[j].id)
		i, seen := best[key]
		if !seen {
			best[key] = j
			continue
		}
		if !slices.Contains(servers, serverOf(hs[j].id)) || slices.Contains(servers, serverOf(hs[i].id)) {
			continue
		}
		// hs[j] is the named server's twin, below hs[i] of another server:
		// exchange their scores.
		hs[i].score, hs[j].score = hs[j].score, hs[i].score
		if hs[j].explain != "" || hs[i].explain != "" {
			hs[j].explain += "; ranked above its twin " + name(hs[i].id) + ": the query names its server"
		}
		best[key] = j
		moved = true
	}
	if moved {
		sortHits(hs, name)
	}
	return hs
}

// twinKey is the part of tool id's name that the same tool of another
// server shares: the name without its server part ("create_issue" for
// github__create_issue and mcp__github__create_issue), lowercased.
func (st *state) twinKey(id int) string {
	t := st.snap.Tool(id)
	n := strings.ToLower(t.Name)
	if strings.Contains(n, catalog.NamespaceSeparator) {
		_, rest := catalog.SplitName(n)
		return rest
	}
	if s := st.serverOf(id); s != "" && strings.HasPrefix(n, s) {
		return strings.TrimLeft(n[len(s):], "._-:/")
	}
	return n
}
