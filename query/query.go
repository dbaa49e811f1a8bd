package query

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrInvalid is wrapped by Parse's and ParseRegex's errors: the query
// syntax is malformed (e.g. "select:" with no names).
var ErrInvalid = errors.New("invalid query")

// Term is one word (or quoted phrase) of a query.
type Term struct {
	// Text is the term as written, without its +/- operator or quotes.
	Text string
	// Required: written "+term"; tools without it are filtered out.
	Required bool
	// Excluded: written "-term"; tools with it are filtered out.
	Excluded bool
	// Prefix: the last bare word of a query that does not end in a space
	// or punctuation, so the user may still be typing it; keyword search
	// also matches words that start with it.
	Prefix bool
}

// Query is a parsed query. The zero value is the empty query. A Query is a
// value: it is safe for concurrent reads, and nothing retains it.
type Query struct {
	// Raw is the query as given.
	Raw string
	// Terms are the query's words in order.
	Terms []Term
	// Servers and Categories restrict results to tools of one of these
	// servers / categories (case-insensitive); from server:NAME and
	// category:NAME.
	Servers, Categories []string
	// Select lists exact tool names from select:a,b — the caller answers
	// with those tools.
	Select []string
}

// Parse parses the query syntax:
//
//	word                 a term that ranks
//	"two words", `name`  a quoted term (quotes and backticks are equivalent)
//	+word, +"a b"        a required term
//	-word, -"a b"        an excluded term
//
// "+" and "-" are operators only before a letter or a quote, so "-11" and
// "+1 555 0100" stay plain terms.
//
//	server:NAME          only tools of server NAME (NAME may be quoted)
//	category:NAME        only tools of category NAME
//	select:a,b           select tools a and b by exact name ("select: a, b"
//	                     too: spaces after the colon and around commas)
//
// Keys are case-insensitive. Anything else is a plain term, so natural
// language parses as plain terms. An unterminated quote runs to the end of
// the query. A server: or category: key with no value is a plain term (as
// in the prose "Category: books"). Parse never panics; its only error
// (wrapping ErrInvalid) is a select: with no names ("select:",
// "select:,").
func Parse(s string) (Query, error) {
	q := Query{Raw: s}
	rest := s
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			break
		}
		var op byte
		if c := rest[0]; (c == '+' || c == '-') && len(rest) > 1 {
			r, _ := utf8.DecodeRuneInString(rest[1:])
			if isQuote(r) || unicode.IsLetter(r) {
				op, rest = c, rest[1:]
			}
		}
		if op == 0 {
			if key, ok := operatorKey(rest); ok {
				read := readValue
				if strings.EqualFold(key, "select") {
					read = readNames
				}
				value, after := read(rest[len(key)+1:])
				if strings.TrimSpace(value) != "" || strings.EqualFold(key, "select") {
					if err := q.addKey(strings.ToLower(key), value); err != nil {
						return Query{Raw: s}, err
					}
					rest = after
					continue
				}
				// "Category: ..." in prose: a plain term.
			}
		}
		var text string
		quoted := false
		if r, size := utf8.DecodeRuneInString(rest); isQuote(r) {
			quoted = true
			end := strings.IndexRune(rest[size:], r)
			if end < 0 {
				text, rest = rest[size:], ""
			} else {
				text, rest = rest[size:size+end], rest[size+end+size:]
			}
		} else {
			end := strings.IndexFunc(rest, unicode.IsSpace)
			if end < 0 {
				end = len(rest)
			}
			text, rest = rest[:end], rest[end:]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		t := Term{Text: text, Required: op == '+', Excluded: op == '-'}
		if op == 0 && !quoted && rest == "" {
			r, _ := utf8.DecodeLastRuneInString(text)
			t.Prefix = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		q.Terms = append(q.Terms, t)
	}
	return q, nil
}

func isQuote(r rune) bool { return r == '"' || r == '`' }

// operatorKey returns the key of a "key:value" word if it is a known key.
func operatorKey(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 || i > len("category") {
		return "", false
	}
	switch k := strings.ToLower(s[:i]); k {
	case "server", "category", "select":
		return s[:i], true
	}
	return "", false
}

// readValue reads a key's value: a quoted string or everything up to the
// next space.
func readValue(s string) (value, rest string) {
	if r, size := utf8.DecodeRuneInString(s); isQuote(r) {
		end := strings.IndexRune(s[size:], r)
		if end < 0 {
			return s[size:], ""
		}
		return s[size : size+end], s[size+end+size:]
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

// readNames reads select:'s value: tool names separated by commas, with
// spaces allowed after the colon and around the commas ("select: a, b" is
// "select:a,b"); a space not next to a comma ends the list. A quoted value
// is read as by readValue.
func readNames(s string) (value, rest string) {
	trimmed := strings.TrimLeftFunc(s, unicode.IsSpace)
	if r, _ := utf8.DecodeRuneInString(trimmed); isQuote(r) {
		return readValue(trimmed)
	}
	var names []string
	rest = trimmed
	for {
		end := strings.IndexFunc(rest, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			names = append(names, rest[:end])
		}
		next := strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
		if !strings.HasPrefix(next, ",") {
			if end == len(rest) {
				rest = ""
			} else {
				rest = rest[end:]
			}
			break
		}
		rest = strings.TrimLeftFunc(next[1:], unicode.IsSpace)
	}
	return strings.Join(names, ","), rest
}

func (q *Query) addKey(key, value string) error {
	value = strings.TrimSpace(value)
	switch key {
	case "select":
		n := 0
		for name := range strings.SplitSeq(value, ",") {
			if name = strings.TrimSpace(name); name != "" {
				q.Select = append(q.Select, name)
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("%w: select: needs tool names, e.g. select:get_weather,send_email", ErrInvalid)
		}
	case "server":
		if value == "" {
			return fmt.Errorf("%w: server: needs a server name, e.g. server:github", ErrInvalid)
		}
		q.Servers = append(q.Servers, value)
	case "category":
		if value == "" {
			return fmt.Errorf("%w: category: needs a category name, e.g. category:finance", ErrInvalid)
		}
		q.Categories = append(q.Categories, value)
	}
	return nil
}

// HasFilters reports whether q restricts which tools may match: +term,
// -term, server: or category:.
func (q Query) HasFilters() bool {
	if len(q.Servers) > 0 || len(q.Categories) > 0 {
		return true
	}
	for _, t := range q.Terms {
		if t.Required || t.Excluded {
			return true
		}
	}
	return false
}

// RankingText is the query's ranking words (not its operators, filters or
// excluded terms) joined by spaces, as an embedder sees them.
func (q Query) RankingText() string {
	words := make([]string, 0, len(q.Terms))
	for _, t := range q.Terms {
		if !t.Excluded {
			words = append(words, t.Text)
		}
	}
	return strings.Join(words, " ")
}

// RankingQuery returns Parse(text), where text is q.RankingText(): the
// query's ranking words as a query of their own (a search of a second
// index by the words alone, such as the learned stage's). When every
// ranking word would parse back as itself (no space, quote, operator or
// key in it) it builds that query without parsing text again: plain terms,
// the last one a prefix if it ends in a letter or digit, as Parse makes
// them; and when q's terms are those already (no operator, the prefix
// where Parse puts it), it shares them instead of copying them (callers
// must not modify a query's terms).
func (q Query) RankingQuery(text string) (Query, error) {
	var n int
	same := true // q.Terms are the query's terms as they are
	for _, t := range q.Terms {
		if t.Excluded {
			same = false
			continue
		}
		if !plainWord(t.Text) {
			return Parse(text)
		}
		same = same && !t.Required
		n++
	}
	out := Query{Raw: text}
	if n == 0 {
		return out, nil
	}
	if same {
		last := q.Terms[n-1]
		for _, t := range q.Terms[:n-1] {
			same = same && !t.Prefix
		}
		if same && last.Prefix == prefixWord(last.Text) {
			out.Terms = q.Terms[:n:n]
			return out, nil
		}
	}
	out.Terms = make([]Term, 0, n)
	for _, t := range q.Terms {
		if !t.Excluded {
			out.Terms = append(out.Terms, Term{Text: t.Text})
		}
	}
	last := &out.Terms[n-1]
	last.Prefix = prefixWord(last.Text)
	return out, nil
}

// prefixWord reports whether the last word of a query, s, is a prefix
// (Term.Prefix) when nothing follows it: it ends in a letter or a digit.
func prefixWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// plainWord reports whether Parse reads s, followed by a space or the end
// of the query, as one plain term of text s: it is not empty, has no space
// (Parse splits there), does not start with a quote or an operator, and
// has no ':' (a key such as server: is never read from it).
func plainWord(s string) bool {
	if s == "" || strings.ContainsFunc(s, unicode.IsSpace) || strings.ContainsRune(s, ':') {
		return false
	}
	switch s[0] {
	case '"', '`', '+', '-':
		return false
	}
	return true
}

// String renders q back in the query syntax (normalized spacing and quoting).
func (q Query) String() string {
	var parts []string
	for _, t := range q.Terms {
		p := t.Text
		if strings.ContainsFunc(p, unicode.IsSpace) || strings.ContainsAny(p, "\"`:") || strings.HasPrefix(p, "+") || strings.HasPrefix(p, "-") {
			p = quote(p)
		}
		switch {
		case t.Required:
			p = "+" + p
		case t.Excluded:
			p = "-" + p
		}
		parts = append(parts, p)
	}
	for _, s := range q.Servers {
		parts = append(parts, "server:"+maybeQuote(s))
	}
	for _, c := range q.Categories {
		parts = append(parts, "category:"+maybeQuote(c))
	}
	if len(q.Select) > 0 {
		parts = append(parts, "select:"+strings.Join(q.Select, ","))
	}
	return strings.Join(parts, " ")
}

func maybeQuote(s string) string {
	if strings.ContainsFunc(s, unicode.IsSpace) || strings.ContainsAny(s, "\"`") {
		return quote(s)
	}
	return s
}

// quote wraps s in double quotes, or backticks if it contains a double quote.
func quote(s string) string {
	if strings.Contains(s, `"`) {
		return "`" + s + "`"
	}
	return `"` + s + `"`
}
