package search

import (
	"fmt"
	"strings"
	"time"
)

// Result is the answer to a search: the reference format of DESIGN.md in
// domain types.
type Result struct {
	// References are the matching tools, best first (score, then name).
	References []Reference
	// TotalMatches is the number of tools that matched: for select:, regex
	// and browse, every match before MaxResults cut the list; for the
	// ranked modes (hybrid, semantic, keyword, fuzzy), the candidates that
	// clear the relevance floor (floor.go), which a request without
	// ForModel may return fewer of than References.
	TotalMatches int
	// Metadata says how the result was produced.
	Metadata Metadata
	// Hint tells the model how to refine when nothing matched or the
	// sidecar fell back; "" otherwise.
	Hint string
	// AvailableTools lists catalog tool names (capped, scoped to the
	// caller's visible set) when nothing matched, so the model can refine.
	AvailableTools []string
	// NextPageToken continues a browse listing; "" on the last page.
	NextPageToken string
	// UnknownTools are the names of a select: query that name no tool
	// (within the caller's visible set), in the order asked; Hint then
	// says so. Nil otherwise.
	UnknownTools []string
}

// Reference is one returned tool.
type Reference struct {
	// Name is the tool's full name.
	Name string
	// Score is the relevance in [0, 1], higher is better.
	Score float64
	// Summary is the first sentence of the tool's description.
	Summary string
	// Server is the tool's server ("" if none).
	Server string
	// Explanation says which path scored the tool and how; only with
	// Request.Debug.
	Explanation string
	// Learned, when set, says that learning from use lifted the tool:
	// which signal and by how much (learned.go).
	Learned *Learned
}

// Metadata says which mode produced a result, what was asked, and why the
// engine fell back when it did.
type Metadata struct {
	// SearchType is the mode that produced the references.
	SearchType Mode
	// RequestedSearchType is the mode asked for ("semantic" for the default).
	RequestedSearchType Mode
	// FallbackReason says why SearchType differs from the requested mode;
	// "" when it does not.
	FallbackReason string
	// Query is the query as received.
	Query string
	// Elapsed is the engine's time for this search.
	Elapsed time.Duration
	// CatalogVersion is the version of the snapshot that answered.
	CatalogVersion uint64
	// Suggestion is a "did you mean" correction from fuzzy matching.
	Suggestion string
	// Confidence is the semantic confidence when one was computed, else 0:
	// in keyword mode, when an answer under the confident line asked the
	// semantic ranking (keywordvouch.go).
	Confidence float64
	// NoConfidentMatch is set when results came back but none of them
	// clears the calibrated threshold (calibration.go), or a no-match rule
	// finds that none of the best tools does what was asked (nomatch.go):
	// the request's action (its verb, or its verb with its object, or an
	// argument value of a kind no tool doing the verb takes), every step
	// of a longer task, a later step of a short request of several, a
	// named thing the request asks for, the subject of a question about
	// the asker's own things, or the past the request asks about. They
	// are the closest tools, not necessarily ones that do what was asked.
	NoConfidentMatch bool
	// Stages is the time spent in each stage of this search.
	Stages Stages
	// IndexState is the semantic index's state when the search ran.
	IndexState IndexState
	// RegexScanned is set when a regex pattern had no literal the trigram
	// index could use, so every tool was matched (fallback.Result.Scanned).
	RegexScanned bool
}

// Stages splits a search's time by stage; a stage that did not run is 0.
// QueryEmbedding includes the query cache's lookup; Lexical is the rest of
// the search: keyword, regex, fuzzy, select or browse, and fusion.
type Stages struct {
	QueryEmbedding, VectorSearch, Lexical time.Duration
}

// result turns a candidate stage's matches into the answer to p. It is the
// one place where the reported mode and fallback reason, exact-first, the
// calibrated scores and no_confident_match, the top band, the limit and
// the no-match answer are decided.
func (st *state) result(p *plan, m matches, availableCap int) Result {
	res := Result{Metadata: Metadata{
		SearchType:          m.mode,
		RequestedSearchType: p.requested,
		FallbackReason:      m.reason,
		Query:               p.raw,
		CatalogVersion:      st.snap.Version(),
		Suggestion:          m.suggestion,
		Confidence:          m.confidence,
		Stages:              m.stages,
		RegexScanned:        m.scanned,
	}}
	hits, total := m.hits, m.total
	r := st.newReading(p) // the request as requestRead, ownActionCoverage and the no-match rules read it, each part once
	if m.mode != ModeSelect {
		hits = preferServers(hits, p.servers, st.serverOf, st.twinKey, st.name)
		if m.mode != ModeRegex { // a pattern, no request in words (TestQuestionRegex)
			hits = st.destroysUnasked(r, st.requestRead(r, hits))
		}
		hits, total = exactFirst(hits, total, p.exact)
	}
	var confident bool
	when := len(hits) > 0 && m.whenCoverage > m.coverage && st.namesThing(r, hits[0].id) // an unknown time is when the top tool acts: both read it
	m.coverage = max(st.ownActionCoverage(r, m, hits, when), st.argumentCoverage(r, m, hits, when), st.dataCoverage(r, m, hits, when))
	hits, confident = calibrate(hits, m, p.exact)
	if !confident && m.semantic != nil && len(hits) > 0 {
		m = st.keywordVouch(m, hits, len(p.query.Terms))
		res.Metadata.Confidence, res.Metadata.Stages = m.confidence, m.stages
	}
	if !confident && vouched(m, hits) {
		vouch(m, hits, p.debug)
		confident = true
	}
	if confident && hasFloor(m.mode) && !(p.exact >= 0 && hits[0].id == p.exact) {
		if why := st.unserved(r, hits); why != "" {
			unserve(hits, why, p.debug)
			confident = false
		}
	}
	if m.mode != ModeSelect {
		// Calibration keeps the order but may make scores equal (both 0,
		// or clamped to 1): equal scores are listed by name, as promised.
		for i := range hits {
			hits[i].score = clamp01(hits[i].score)
		}
		sortHits(hits, st.name)
	}
	res.Metadata.NoConfidentMatch = len(hits) > 0 && !confident
	floored := hasFloor(m.mode)
	if floored {
		// total_matches counts the candidates that clear the relevance
		// floor (floor.go); model-facing answers show only those.
		total = modelFloorCount(hits, p.exact, confident)
		if p.forModel {
			hits = hits[:total]
		}
	}
	hits = topBand(hits, p.topBand)
	if !m.unlimited && len(hits) > p.limit {
		hits = hits[:p.limit]
	}
	res.TotalMatches = total
	if !floored {
		res.TotalMatches = max(total, len(hits))
	}
	res.References = make([]Reference, len(hits))
	for i, h := range hits {
		t := st.snap.Tool(h.id)
		res.References[i] = Reference{Name: t.Name, Score: clamp01(h.score), Summary: t.Summary(), Server: t.Server, Learned: h.learned}
		if p.debug {
			res.References[i].Explanation = h.explain
		}
	}
	res.UnknownTools = m.unknown
	switch {
	case len(hits) == 0:
		st.noMatch(&res, p, availableCap)
		if len(m.unknown) > 0 {
			res.Hint = unknownHint(m.unknown) + " " + res.Hint
		}
	case len(m.unknown) > 0:
		res.Hint = unknownHint(m.unknown) + " The other names were found."
	case m.suggestion != "" && m.reason == ReasonNoRegexMatch:
		res.Hint = fmt.Sprintf("No tool matches the pattern %q; showing close spellings. Did you mean %q?", truncate(p.pattern, 80), m.suggestion)
	case m.suggestion != "":
		res.Hint = fmt.Sprintf("No exact keyword match; showing close spellings. Did you mean %q?", m.suggestion)
	case res.Metadata.NoConfidentMatch:
		res.Hint = "No tool matched this request confidently: these are the closest, but they may not do what was asked. " +
			"Tell the user no suitable tool was found, or search again with other words (the tool's action and object, e.g. \"send email\")."
	}
	return res
}

// topBand keeps the sorted hits that score at least band × the top score:
// band 0 (or less) keeps all, 0.8 keeps those within 20 % of the top, 1
// keeps only the ties of the top.
func topBand(hs []hit, band float64) []hit {
	if band <= 0 || len(hs) == 0 {
		return hs
	}
	floor := hs[0].score * min(band, 1)
	for i, h := range hs {
		if h.score < floor {
			return hs[:i]
		}
	}
	return hs
}

// noMatch fills the hint and the catalog's tool names for an empty result,
// within the request's scope (not its query filters: the names help the
// model write a better query).
func (st *state) noMatch(res *Result, p *plan, max int) {
	names := make([]string, 0, min(max, st.snap.Len()))
	for k := range st.snap.Len() {
		if len(names) == max {
			break
		}
		if id := st.snap.NameOrder(k); p.scope == nil || p.scope(id) {
			names = append(names, st.snap.Tool(id).Name)
		}
	}
	res.AvailableTools = names
	if len(names) == 0 {
		res.Hint = "No tools are visible to this request: check visible_tools and category_filter."
		return
	}
	hint := fmt.Sprintf("No tool matched %q. Try fewer or other words, a regex such as \"send|message\" with search_type regex, or select:NAME with a name from available_tools.", truncate(strings.TrimSpace(p.raw), 80))
	if p.noWords {
		hint = fmt.Sprintf("The query %q has no words to search for (only stop words or punctuation). Say what the tool should do, e.g. \"send email\", or use select:NAME with a name from available_tools.", truncate(strings.TrimSpace(p.raw), 80))
	}
	if st.snap.Len() > len(names) && p.scope == nil {
		hint += fmt.Sprintf(" available_tools lists the first %d of %d tools.", len(names), st.snap.Len())
	}
	res.Hint = hint
}

// unknownHint says which select: names name no tool.
func unknownHint(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", truncate(n, 80))
	}
	return fmt.Sprintf("No tool is named %s (see unknown_tools): check the spelling, or search by what the tool does.", strings.Join(quoted, ", "))
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}
