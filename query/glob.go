package query

import (
	"regexp"
	"strings"
)

// IsGlob reports whether pattern is a glob rather than a regex: only name
// characters (letters, digits, "_", "-", ":", "/") and at least one "*".
// Such a pattern would be an odd regex ("get_*" means "get" followed by any
// number of underscores, "*_issue" does not parse), so the glob reading wins;
// "get_.*" (with a dot) stays a regex.
func IsGlob(pattern string) bool {
	wild := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '*':
			wild = true
		case c == '_' || c == '-' || c == ':' || c == '/',
			'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return wild
}

// GlobToRegex turns a glob into an anchored, case-insensitive regex.
func GlobToRegex(glob string) string {
	var b strings.Builder
	b.WriteString("(?i)^")
	for _, c := range glob {
		switch c {
		case '*':
			b.WriteString(".*")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return b.String()
}
