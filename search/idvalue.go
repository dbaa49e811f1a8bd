package search

import (
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/fallback"
)

// A request that names its object by a noun and an identifier ("add a
// line to the bottom of note n_4410", "open message 18c2f9ab77e", "call
// off event 9f3kq2", "is issue 1287 still open") acts on a thing that
// exists, and is done by a tool that takes that thing's identifier: a
// parameter named by the noun and "id", "number" or "key" (note_id,
// message_id, issue_number, issue_key). The identifier's words are no
// topic, and the request's other words draw the tools that make such
// things or speak of them: "add … note n_4410" ranked notes__create_note
// over notes__update_note, "open message 18c2f9ab77e" git__log (its
// "message") over email__read_email. So the tools that take the named
// thing's identifier are lifted as the path rule lifts the tools that take
// a path (boostPathTakers, with the same pathValueBoost), in requests of
// at most idMaxWords words. An identifier is a token with a digit that no
// value kind claims (fallback.ValueKinds: a path, a file, an issue key …)
// and no decimal number or time ("message 1732610455.002300" is a Slack
// timestamp, taken by no message_id).

// idSuffixes end a parameter's name that takes a thing's identifier: the
// thing is the name's other word (toolFacts.idParams).
var idSuffixes = wordSet("id number key")

// idTakers are the suffixes of idSuffixes whose parameters take an
// identifier of digits only (true) and one with letters (false).
var idTakers = map[bool]map[string]bool{true: wordSet("id number"), false: wordSet("id key")}

// idRef is a thing's identifier in a request: the noun it follows and
// whether it is a number.
type idRef struct {
	noun   string
	number bool
}

// idMaxWords is the longest request, in words as written, whose
// identifiers the rule reads: twice pathMaxWords, since an identifier
// names what the request acts on, not where its result goes ("Add '…' at
// the bottom of note n_4410, keeping what is already there" has 19).
// Measured on main 3ebf31e (docs/benchmarks.md, "A value's kind beyond
// paths: a thing named by its identifier"): the example sets' first tool
// right 587 → 593 of 753 (keyword 595 → 602), none lost; livemcpbench
// nDCG@10 .3999 → .4077 (keyword .3539 → .3618: "hacker news story
// 44490510" and the tool whose bare id its name says is a story's), bfcl
// .7151 → .7144 (keyword .7004 → .7000).
const idMaxWords = 20

// A request that ends by naming a database table as the place of its data
// (fallback.InTable: "Set active = false for user 4412 in the users
// table") names a row by its key, not a thing that a tool takes by its
// identifier: the rule reads no identifier in it (tableRows). "user 4412"
// lifted slack__get_user_profile (user_id) over the database's tools.

// idRefsOf returns the identifiers of raw with the nouns (as
// fallback.Words gives them) that they follow: "note" of "note n_4410",
// "event" of "(event 7f3k2)".
func idRefsOf(raw string) []idRef {
	if fallback.InTable(raw) {
		return nil // a row's key in a table's data (tableRows)
	}
	toks := strings.Fields(raw)
	var out []idRef
	for i := 0; i+1 < len(toks); i++ {
		if strings.ContainsAny(toks[i][len(toks[i])-1:], ".,;:!?)") {
			continue // "in the note, 4410 times": the phrase ended
		}
		ok, number := identifier(toks[i+1]) // first: most tokens are followed by no identifier, and their words are not read
		if !ok {
			continue
		}
		noun := fallback.Words(toks[i])
		if len(noun) != 1 || !strings.EqualFold(noun[0], strings.Trim(toks[i], "(\"'")) {
			continue
		}
		if !slices.Contains(out, idRef{noun[0], number}) {
			out = append(out, idRef{noun[0], number})
		}
	}
	return out
}

// identifier reports whether a raw token is a thing's identifier: letters,
// digits, "_" and "-" with at least one digit, no value of a kind
// (fallback.ValueKinds), no time of day ("2pm") and no decimal number;
// and whether it is digits only.
func identifier(tok string) (ok, number bool) {
	core := strings.TrimLeft(strings.TrimRight(tok, ".,;:!?)"), "(#")
	if core == "" || !strings.ContainsFunc(core, unicode.IsDigit) || len(fallback.ValueKinds(core)) > 0 {
		return false, false
	}
	if strings.ContainsFunc(core, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' }) {
		return false, false
	}
	low := strings.ToLower(core)
	if strings.HasSuffix(low, "am") || strings.HasSuffix(low, "pm") {
		return false, false
	}
	return true, !strings.ContainsFunc(core, func(r rune) bool { return !unicode.IsDigit(r) })
}

// takesID reports whether tool id has a parameter for one of refs
// (toolFacts.idParams, idTakers).
func (st *state) takesID(id int, refs []idRef) bool {
	return slices.ContainsFunc(st.facts(id).idParams, func(p [2]string) bool {
		return slices.ContainsFunc(refs, func(r idRef) bool { return idTakers[r.number][p[1]] && fallback.SameStem(p[0], r.noun) })
	})
}
