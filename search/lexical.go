package search

import (
	"errors"
	"slices"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

// The lexical candidate stages: select:, keyword (with fuzzy matching when
// it finds nothing) and regex. Each reads the plan and returns matches; none
// touches a Result.

// selected answers select:a,b: the named tools in the order asked, each
// with score 1, within the plan's scope and filters, not cut by the limit.
// Names that no tool in the request's scope has are reported as unknown
// (a tool outside the scope is unknown to this caller, as if absent).
func (st *state) selected(p *plan) matches {
	r := st.lex.Select(p.query.Select, fallback.Options{Allow: p.allow, Explain: p.debug})
	m := matches{hits: fromFallback(r.Hits), total: r.Total, mode: ModeSelect, unlimited: true, coverage: 1}
	for _, name := range p.query.Select {
		if id, ok := st.lex.Lookup(name); !ok || p.scope != nil && !p.scope(id) {
			if !slices.Contains(m.unknown, name) {
				m.unknown = append(m.unknown, name)
			}
		}
	}
	return m
}

// ruleDepth is how many keyword hits a keyword-mode search reads: as many
// as the deepest ranking or no-match rule looks at (valueDepth; the verb
// rule reads verbDepth), or p.limit when it asks for more. result keeps
// the p.limit best after the rules, so the first answer does not depend
// on max_results: read only p.limit deep, max_results 1 left the verb and
// question rules one hit to reorder ("What's in the /srv/uploads folder?"
// answered notes__create_note at max_results 1, and
// filesystem__list_directory at 2 and 5; TestKeywordFirstAnswerAnyLimit).
// The evaluations read evalDepth (10) deep, so no measured figure moves.
func ruleDepth(p *plan) int {
	return max(p.limit, valueDepth)
}

// keywordMatches runs keyword search and, when it finds nothing, fuzzy
// matching (reason ReasonNoKeywordMatch). depth is how many hits to return.
func (st *state) keywordMatches(p *plan, depth int) matches {
	lift, paths := st.valueTakers(p)
	limit := depth
	if lift != nil {
		// A tool that takes the request's path may rank below depth on
		// the words alone: boostPathTakers reads as deep as fusion, so
		// that the answer does not depend on max_results.
		limit = max(depth, fusionDepth)
	}
	opts := fallback.Options{Limit: limit, Allow: p.allow, Explain: p.debug, Expand: true, CoverageVerbs: coverageVerbs, PathKinds: paths}
	r := st.lex.Keyword(p.query, opts)
	hits := st.boostPathTakers(lift, fromFallback(r.Hits))
	if len(hits) > depth {
		hits = hits[:depth]
	}
	m := matches{hits: hits, total: r.Total, mode: ModeKeyword, unmatched: r.Unmatched, coverage: r.Coverage, whenCoverage: r.WhenCoverage, tally: r.Tally}
	if len(r.Hits) > 0 {
		return m
	}
	if fm, ok := st.fuzzyMatches(p, depth); ok {
		fm.reason = ReasonNoKeywordMatch
		fm.unmatched = r.Unmatched
		return fm
	}
	return m
}

// fuzzyMatches runs typo-tolerant matching; ok is false when it finds
// nothing. The matches' coverage is the corrected query's (the share of
// its words that the catalog knows once the typos are fixed), so fuzzy
// scores are calibrated like keyword scores of the corrected query, with
// fuzzyDiscount; a match of the whole query to a misspelt tool name alone
// counts as full coverage.
func (st *state) fuzzyMatches(p *plan, depth int) (matches, bool) {
	r, suggestion := st.lex.Fuzzy(p.query, fallback.Options{Limit: depth, Allow: p.allow, Explain: p.debug, CoverageVerbs: coverageVerbs})
	if len(r.Hits) == 0 {
		return matches{}, false
	}
	coverage := r.Coverage
	if coverage == 0 {
		coverage = 1
	}
	return matches{hits: fromFallback(r.Hits), total: r.Total, mode: ModeFuzzy, suggestion: suggestion, coverage: coverage}, true
}

// regexMatches matches the plan's pattern; the query's +term, -term,
// server: and category: filter the matches (plan.allow). A query made only
// of filters lists the tools that pass them, as keyword search does.
func (st *state) regexMatches(p *plan) (matches, error) {
	if p.pattern == "" {
		r := st.lex.Keyword(p.query, fallback.Options{Limit: p.limit, Allow: p.allow, Explain: p.debug})
		return matches{hits: fromFallback(r.Hits), total: r.Total, mode: ModeRegex, coverage: 1}, nil
	}
	r, err := st.lex.Regex(p.pattern, fallback.Options{Limit: p.limit, Allow: p.allow, Explain: p.debug})
	if err != nil {
		if errors.Is(err, fallback.ErrPatternTooLong) || errors.Is(err, fallback.ErrInvalidPattern) {
			return matches{}, invalid(err)
		}
		return matches{}, err
	}
	m := matches{hits: fromFallback(r.Hits), total: r.Total, mode: ModeRegex, coverage: 1, scanned: r.Scanned}
	if len(m.hits) == 0 && plainWords(p.pattern) {
		// "wether" as a regex: a word with a typo, not a pattern. Offer
		// what fuzzy matching finds, saying so.
		if q, err := query.Parse(p.pattern + " "); err == nil {
			fp := *p
			fp.query = q
			if fm, ok := st.fuzzyMatches(&fp, p.limit); ok {
				fm.reason = ReasonNoRegexMatch
				return fm, nil
			}
		}
	}
	return m, nil
}

// plainWords reports whether a regex pattern is only words: letters,
// digits, spaces, "_" and "-" (no regex syntax).
func plainWords(pattern string) bool {
	return pattern != "" && !strings.ContainsFunc(pattern, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && r != '_' && r != '-'
	})
}
