package search

import (
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch/query"
)

// plan is a request resolved against one state: the query parsed once,
// before any mode runs, into everything the stages need. Every mode reads
// the same plan, so every mode honours the same operators:
//
//   - select:a,b answers with those tools, in any mode;
//   - +term, -term, server: and category: filter the results of every
//     mode (in regex mode they filter the pattern's matches);
//   - a query that is exactly a tool name ranks that tool first (exact.go);
//   - an empty query browses.
//
// newPlan builds a plan; Search then sets its learning scope and learned
// stage (learnScope, learned) before any stage reads it, and from then
// on it is immutable. It belongs to one search: the learned stage's
// goroutine is given copies of what it reads (beginLearned), and what the
// request rules derive from the plan lazily lives in the search's
// reading (reading.go), not here.
type plan struct {
	// requested is the mode asked for, as reported in
	// requested_search_type (ModeSemantic for the default).
	requested Mode
	// raw is the query as received.
	raw string
	// query holds the parsed operators and terms. In regex mode its Terms
	// are only the +/- filter terms; the rest of the query is pattern.
	query query.Query
	// pattern is the regular expression of a regex-mode query, without its
	// operators; or, in the default (semantic) mode, of a query that is a
	// glob or regex (query.IsPattern), tried as a regex first (kindPattern).
	pattern string
	// noWords: the query has nothing to search for — no ranking word the
	// analysis keeps (only stop words or punctuation: "a", "???"), no
	// filter, no select:, no exact name. It is answered as a no-match.
	noWords bool
	// exact is the tool the whole query names (exactName), or -1.
	exact int
	// servers are the in-scope servers the query's words name (see
	// mentionedServers), lowercased; nil when none.
	servers []string
	// limit is the number of results to return.
	limit int
	// allow is the request's scope (visible set and category filter)
	// combined with the query's filters; nil allows every tool.
	allow func(int) bool
	// scope is the request's scope alone, without the query's filters: the
	// tools a no-match answer may list. nil allows every tool.
	scope func(int) bool
	// filtered reports whether the query has filters (+term, -term,
	// server:, category:), which allow already applies.
	filtered bool
	debug    bool
	// pageToken continues a browse listing.
	pageToken string
	// topBand, when positive, keeps only results scoring at least
	// topBand × the top score.
	topBand float64
	// forModel applies the relevance floor of model-facing answers
	// (floor.go).
	forModel bool
	// learnScope is the request's learning scope (learnScope in usage.go).
	learnScope string
	// learned is the request's learned stage (learned.go), nil when it
	// has none (beginLearned).
	learned *learnedStage
}

// rankingText returns p.query.RankingText(), which the learned stage, if
// p has one, holds already (learnedStage.text): a search joins the words
// once.
func (p *plan) rankingText() string {
	if p.learned != nil {
		return p.learned.text
	}
	return p.query.RankingText()
}

// kind is what answers a plan.
type kind int

const (
	kindBrowse kind = iota + 1
	kindSelect
	kindRegex
	kindKeyword
	kindSemantic
	// kindNoWords answers a query without words as a no-match.
	kindNoWords
	// kindPattern answers a default-mode query that is a pattern as a
	// regex, and with the semantic chain when the regex matches nothing.
	kindPattern
)

// kind returns the stage that answers p: the query's own operators first
// (browse, select:), then the requested mode.
func (p *plan) kind() kind {
	switch {
	case strings.TrimSpace(p.raw) == "":
		return kindBrowse
	case len(p.query.Select) > 0:
		return kindSelect
	case p.noWords:
		return kindNoWords
	case p.requested == ModeRegex:
		return kindRegex
	case p.requested == ModeKeyword:
		return kindKeyword
	case p.pattern != "":
		return kindPattern
	}
	return kindSemantic
}

// newPlan checks req against the engine's limits and resolves it against
// st. Errors wrap ErrInvalidArgument and say what to change.
func (st *state) newPlan(req Request, lim limits) (*plan, error) {
	limit, err := req.normalize(lim)
	if err != nil {
		return nil, err
	}
	scope, err := st.scope(req.Visible, req.Category)
	if err != nil {
		return nil, err
	}
	p := &plan{
		requested: req.requested(),
		raw:       req.Query,
		exact:     -1,
		limit:     limit,
		scope:     scope,
		debug:     req.Debug,
		pageToken: req.PageToken,
		topBand:   req.TopBand,
		forModel:  req.ForModel,
	}
	text := strings.TrimSpace(req.Query)
	if req.Mode == ModeRegex {
		p.pattern, p.query, err = query.ParseRegex(text)
	} else {
		p.query, err = query.Parse(text)
	}
	if err != nil {
		return nil, invalid(fmt.Errorf("query %q: %w", truncate(text, 80), err))
	}
	p.filtered = p.query.HasFilters()
	p.allow = scope
	if p.filtered {
		p.allow = both(scope, st.lex.Filter(p.query))
	}
	if id, ok := st.exactName(text); ok && (p.allow == nil || p.allow(id)) {
		p.exact = id
	}
	if p.requested != ModeRegex {
		p.servers = st.mentionedServers(p.query, p.scope)
		p.noWords = len(p.query.Select) == 0 && p.exact < 0 && !p.filtered && !p.query.HasWords()
	}
	if p.requested == ModeSemantic && len(p.query.Select) == 0 && p.exact < 0 {
		// The default mode tries a pattern as a regex (kindPattern); its
		// operators are the ones Parse found, which p.allow applies.
		if pattern, _, err := query.ParseRegex(text); err == nil && query.IsPattern(pattern) {
			p.pattern = pattern
		}
	}
	return p, nil
}

// both returns a filter that allows what a and b allow; nil allows all.
func both(a, b func(int) bool) func(int) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(id int) bool { return a(id) && b(id) }
}
