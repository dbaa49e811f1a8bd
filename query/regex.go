package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseRegex splits a regex-mode query into its pattern and its operators.
// The query is split at white space; a word that is an operator of the
// query syntax — select:NAMES, server:NAME, category:NAME, +word or -word
// (a "+" or "-" directly before a letter) — is taken out, and the remaining
// words, joined by single spaces, are the pattern. So
//
//	+github create|open            pattern "create|open", only tools with "github"
//	issue -jira                    pattern "issue", no tool with "jira"
//	select:github__create_issue    the tool, by name (no pattern)
//
// The returned Query's Terms are only the +/- filter terms, and its Raw is
// s. A pattern word that would read as an operator is written with a
// backslash: `\-verbose` matches "-verbose", `\+1` matches "+1" ("+" alone
// before a letter is not a valid RE2 pattern anyway). Operator values
// cannot hold spaces in regex mode. Errors wrap ErrInvalid, as Parse's.
func ParseRegex(s string) (pattern string, q Query, err error) {
	var words, ops []string
	fields := strings.Fields(s)
	for i := 0; i < len(fields); i++ {
		w := fields[i]
		if !isOperatorWord(w) {
			words = append(words, w)
			continue
		}
		if isSelect(w) {
			// select:'s names may be spaced after the colon and around
			// commas ("select: a, b"): the words that continue the list
			// belong to it.
			for i+1 < len(fields) && (strings.HasSuffix(w, ":") || strings.HasSuffix(w, ",") || strings.HasPrefix(fields[i+1], ",")) {
				i++
				w += " " + fields[i]
			}
		}
		ops = append(ops, w)
	}
	q, err = Parse(strings.Join(ops, " "))
	q.Raw = s
	return strings.Join(words, " "), q, err
}

// isSelect reports whether an operator word is select:.
func isSelect(w string) bool {
	key, _, _ := strings.Cut(w, ":")
	return strings.EqualFold(key, "select")
}

// isOperatorWord reports whether one white-space-free word of a regex-mode
// query is an operator of the query syntax.
func isOperatorWord(w string) bool {
	if len(w) > 1 && (w[0] == '+' || w[0] == '-') {
		r, _ := utf8.DecodeRuneInString(w[1:])
		return unicode.IsLetter(r)
	}
	key, value, ok := strings.Cut(w, ":")
	if !ok {
		return false
	}
	switch strings.ToLower(key) {
	case "select":
		return true
	case "server", "category":
		return value != ""
	}
	return false
}
