package search

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch/fallback"
)

// lexical answers keyword requests: select:, then keyword search, then
// fuzzy matching when keyword search finds nothing.
func (st *state) lexical(res *Result, req Request, query string, limit int, allow func(int) bool) error {
	q, err := fallback.ParseQuery(query)
	if err != nil {
		return invalid(fmt.Errorf("query %q: %w", query, err))
	}
	if len(q.Select) > 0 {
		r := st.lex.Select(q.Select, fallback.Options{Allow: allow, Explain: req.Debug})
		st.fill(res, ModeSelect, r, 0, req.Debug)
		return nil
	}
	st.keyword(res, q, limit, allow, req.Debug)
	return nil
}

// keyword runs keyword search, and fuzzy matching when it finds nothing.
func (st *state) keyword(res *Result, q fallback.Query, limit int, allow func(int) bool, debug bool) {
	opts := fallback.Options{Limit: limit, Allow: allow, Explain: debug}
	r := st.lex.Keyword(q, opts)
	if len(r.Hits) > 0 {
		st.fill(res, ModeKeyword, r, limit, debug)
		return
	}
	fr, suggestion := st.lex.Fuzzy(q, opts)
	if len(fr.Hits) == 0 {
		st.fill(res, ModeKeyword, r, limit, debug)
		return
	}
	st.fill(res, ModeFuzzy, fr, limit, debug)
	if res.Metadata.FallbackReason == "" {
		res.Metadata.FallbackReason = ReasonNoKeywordMatch
	}
	st.suggest(res, suggestion)
}

// suggest records fuzzy matching's "did you mean" correction.
func (st *state) suggest(res *Result, suggestion string) {
	res.Metadata.Suggestion = suggestion
	if suggestion != "" {
		res.Hint = fmt.Sprintf("No exact keyword match; showing close spellings. Did you mean %q?", suggestion)
	}
}

// regex answers regex requests.
func (st *state) regex(res *Result, pattern string, limit int, allow func(int) bool, debug bool) error {
	r, err := st.lex.Regex(pattern, fallback.Options{Limit: limit, Allow: allow, Explain: debug})
	if err != nil {
		if errors.Is(err, fallback.ErrPatternTooLong) || errors.Is(err, fallback.ErrInvalidPattern) {
			return invalid(err)
		}
		return err
	}
	st.fill(res, ModeRegex, r, limit, debug)
	return nil
}

// noMatch fills the hint and the catalog's tool names for an empty result.
func (st *state) noMatch(res *Result, query string, allow func(int) bool, max int) {
	names := make([]string, 0, min(max, st.snap.Len()))
	for i, t := range st.snap.Tools() {
		if len(names) == max {
			break
		}
		if allow == nil || allow(i) {
			names = append(names, t.Name)
		}
	}
	res.AvailableTools = names
	if len(names) == 0 {
		res.Hint = "No tools are visible to this request: check visible_tools and category_filter."
		return
	}
	hint := fmt.Sprintf("No tool matched %q. Try fewer or other words, a regex such as \"send|message\" with search_type regex, or select:NAME with a name from available_tools.", truncate(query, 80))
	if st.snap.Len() > len(names) && allow == nil {
		hint += fmt.Sprintf(" available_tools lists the first %d of %d tools.", len(names), st.snap.Len())
	}
	res.Hint = hint
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}
