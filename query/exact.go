package query

import "strings"

// ExactText is the text a query names a tool by, under the exact-name rule
// of every mode: the query trimmed of spaces and of one level of
// surrounding quotes or backticks, so "`github__create_issue`" names
// github__create_issue. The caller looks the result up among tool names
// (exactly, else ignoring case); "" names nothing.
func ExactText(raw string) string {
	s := strings.TrimSpace(raw)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
