package search

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Mode is a search mode: what a request asks for, and what produced a result.
type Mode string

// Modes. A request may ask for ModeDefault, ModeSemantic, ModeKeyword or
// ModeRegex; results report the mode that actually produced them, which may
// also be ModeSelect, ModeFuzzy, ModeHybrid or ModeBrowse.
const (
	// ModeDefault is the default mode: semantic search with a confidence
	// gate that falls back to keyword search (and to fuzzy matching after
	// it). It is reported as "semantic" in requested_search_type.
	ModeDefault Mode = ""
	// ModeSemantic embeds the query and searches the vector index; it takes
	// the same path as ModeDefault.
	ModeSemantic Mode = "semantic"
	// ModeKeyword is BM25F keyword search, with fuzzy matching when it
	// finds nothing. Like every mode it honours the query's operators
	// (+term, -term, server:, category:, select:; plan.go).
	ModeKeyword Mode = "keyword"
	// ModeRegex matches an RE2 pattern (or a glob) against names,
	// descriptions and parameter names; the query's operators, words of
	// their own beside the pattern, filter the matches (query.ParseRegex).
	ModeRegex Mode = "regex"
	// ModeSelect answers "select:a,b": the named tools, in the order asked.
	ModeSelect Mode = "select"
	// ModeFuzzy answers with typo-tolerant matches when keyword search found
	// nothing.
	ModeFuzzy Mode = "fuzzy"
	// ModeHybrid is semantic and keyword scores fused: the default and
	// semantic modes' normal answer when the confidence gate passes (not a
	// fallback).
	ModeHybrid Mode = "hybrid"
	// ModeBrowse lists tools in name order for an empty query.
	ModeBrowse Mode = "browse"
)

// Fallback reasons reported in Metadata.FallbackReason.
const (
	// ReasonLowConfidence: semantic scores were below the model's threshold.
	ReasonLowConfidence = "low_confidence"
	// ReasonEmbedderUnavailable: no embedder is configured or it failed.
	ReasonEmbedderUnavailable = "embedder_unavailable"
	// ReasonEmbedderTimeout: embedding the query took longer than its budget.
	ReasonEmbedderTimeout = "embedder_timeout"
	// ReasonIndexWarming: the catalog is still being embedded.
	ReasonIndexWarming = "index_warming"
	// ReasonNoKeywordMatch: keyword search matched nothing, so fuzzy
	// matching answered.
	ReasonNoKeywordMatch = "no_keyword_match"
	// ReasonPattern: the default-mode query is a glob or a regular
	// expression (query.IsPattern: "weather__get_*", "^git__(add|commit)$"),
	// so a regex search answered.
	ReasonPattern = "pattern"
	// ReasonNoRegexMatch: a regex-mode pattern of plain words matched
	// nothing, so fuzzy matching answered.
	ReasonNoRegexMatch = "no_regex_match"
)

// Limits and defaults of a request. The sidecar may change the result cap
// and the query length through Config; the others are fixed.
const (
	// DefaultMaxResults is the number of results when a request asks for 0.
	DefaultMaxResults = 5
	// DefaultMaxResultsCap is the largest max_results a request may ask for
	// unless Config.MaxResultsCap says otherwise; larger requests are
	// clamped to the cap (the model asked for "many", it gets the most we
	// give), negative ones are rejected.
	DefaultMaxResultsCap = 10
	// MaxQueryLength is the longest query accepted, in characters (runes);
	// Config.MaxQueryLength may lower it.
	// Most tool-search queries are a sentence or two, but agents also pass
	// a whole task description (public benchmarks have queries over 1,000
	// characters); 4,096 admits those while refusing a pasted document.
	MaxQueryLength = 4096
	// MaxVisibleTools is the most entries a request's visible set may hold.
	MaxVisibleTools = 10000
)

// Request is one search. The zero value of every field is its default.
type Request struct {
	// Query is the text to search for; "" browses the catalog.
	Query string
	// Mode is the requested mode; ModeDefault when zero.
	Mode Mode
	// MaxResults is the number of results wanted: 0 means
	// DefaultMaxResults; above the cap it is clamped to the cap.
	MaxResults int
	// Category keeps only tools whose server or category equals it
	// (case-insensitive). "" keeps all.
	Category string
	// Visible, when not empty, is the set of tools this caller may see:
	// catalog.Patterns (exact tool names, "server:*", "category:NAME" or
	// "prefix*"). Nothing outside it is ever returned, in any mode.
	Visible []string
	// SessionID, when set, records the returned tools as revealed for that
	// agent session (see Engine.Revealed); at most MaxSessionIDLength bytes.
	SessionID string
	// Debug fills Reference.Explanation.
	Debug bool
	// PageToken continues a browse (empty query) listing.
	PageToken string
	// TopBand, when in (0, 1], keeps only the results that score at least
	// TopBand × the top result's score (0.8: within 20 % of the best), so a
	// clear winner comes back alone instead of padded with weak matches. 0
	// keeps every result up to MaxResults.
	TopBand float64
	// ForModel marks a search whose answer goes to a model as is (an Agent
	// helper's tool_search, the MCP endpoint, the native client modes): only
	// results that clear the relevance floor come back (floor.go), never
	// padding up to MaxResults.
	ForModel bool
}

// limits are the engine's bounds on a request.
type limits struct {
	maxResults     int // the cap on MaxResults
	maxQueryLength int // in characters
}

func (e *Engine) limits() limits {
	return limits{maxResults: e.cfg.MaxResultsCap, maxQueryLength: e.cfg.MaxQueryLength}
}

// normalize checks r and fills its defaults. It returns the effective
// number of results.
func (r *Request) normalize(lim limits) (int, error) {
	maxCap := lim.maxResults
	if err := checkSessionID(r.SessionID); err != nil {
		return 0, err
	}
	if !utf8.ValidString(r.Query) {
		return 0, invalid(fmt.Errorf("query is not valid UTF-8; send the query as UTF-8 text"))
	}
	if n := utf8.RuneCountInString(r.Query); n > lim.maxQueryLength {
		return 0, invalid(fmt.Errorf("query is %d characters long, the limit is %d (the sidecar's --max-query-length); shorten it to the few words that describe the tool", n, lim.maxQueryLength))
	}
	if r.TopBand < 0 || r.TopBand > 1 || r.TopBand != r.TopBand {
		return 0, invalid(fmt.Errorf("top_band is %v; use a fraction in (0, 1], such as 0.8 for results within 20 %% of the best, or 0 for no cutoff", r.TopBand))
	}
	switch r.Mode {
	case ModeDefault, ModeSemantic, ModeKeyword, ModeRegex:
	default:
		return 0, invalid(fmt.Errorf("unknown search type %q; use semantic, keyword or regex", r.Mode))
	}
	if len(r.Visible) > MaxVisibleTools {
		return 0, invalid(fmt.Errorf("visible_tools has %d entries, the limit is %d; use server:* patterns to shorten it", len(r.Visible), MaxVisibleTools))
	}
	n := r.MaxResults
	switch {
	case n < 0:
		return 0, invalid(fmt.Errorf("max_results is %d; use a number from 1 to %d, or 0 for the default of %d", n, maxCap, DefaultMaxResults))
	case n == 0:
		n = min(DefaultMaxResults, maxCap)
	case n > maxCap:
		n = maxCap
	}
	r.Category = strings.TrimSpace(r.Category)
	return n, nil
}

// requested is the mode reported as requested_search_type.
func (r *Request) requested() Mode {
	if r.Mode == ModeDefault {
		return ModeSemantic
	}
	return r.Mode
}
