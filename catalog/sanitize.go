package catalog

import (
	"strings"
	"unicode"
)

// Tool descriptions come from third-party MCP servers and reach a model's
// context verbatim, so the text a snapshot keeps is sanitized: Normalize
// removes the characters that are invisible in a terminal or a log but
// still reach the model, and Validate caps every length (names
// MaxNameRunes, namespaces MaxServerRunes, descriptions
// MaxDescriptionBytes, categories MaxCategoryRunes).

// stripControls returns s without control characters (Unicode Cc: NUL, ESC
// and terminal escape sequences' lead-ins, DEL, C1) and without the
// bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069) that
// can make text display differently from what a model reads. keepLines
// keeps newlines and tabs, which descriptions use for layout; "\r\n" and
// a lone "\r" become "\n". Text without such characters is returned as is,
// without copying.
func stripControls(s string, keepLines bool) string {
	if strings.IndexFunc(s, func(r rune) bool { return unsafeRune(r, keepLines) }) < 0 {
		return s
	}
	if keepLines {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.Map(func(r rune) rune {
		if unsafeRune(r, keepLines) {
			return -1
		}
		return r
	}, s)
}

// unsafeRune reports whether stripControls removes r.
func unsafeRune(r rune, keepLines bool) bool {
	switch {
	case keepLines && (r == '\n' || r == '\t'):
		return false
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return unicode.Is(unicode.Cc, r)
}
