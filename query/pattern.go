package query

import (
	"regexp/syntax"
	"strings"
	"unicode"
)

// IsPattern reports whether a query written for the default mode is a glob
// or a regular expression rather than words, so that the default mode can
// answer it as a regex: one white-space-free word that is a glob with a
// name character ("weather__get_*", "*_issue"), or a valid RE2 pattern with
// regex syntax that prose does not use — a leading "^", a trailing "$",
// "|", ".*", ".+", a character class "[…]" or a backslash escape
// ("^git__(add|commit)$", "slack|message", "get_.*"). Words with other
// punctuation stay words: "c++", "node.js", "what?", "$100", "(optional)".
func IsPattern(s string) bool {
	if s == "" || strings.ContainsFunc(s, unicode.IsSpace) {
		return false
	}
	if IsGlob(s) {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	}
	signal := strings.HasPrefix(s, "^") || strings.HasSuffix(s, "$") && !strings.HasSuffix(s, `\$`) ||
		strings.Contains(s, "|") || strings.Contains(s, ".*") || strings.Contains(s, ".+") ||
		strings.Contains(s, `\`) || strings.Contains(s, "[") && strings.Contains(s, "]")
	if !signal {
		return false
	}
	_, err := syntax.Parse(s, syntax.Perl)
	return err == nil
}
