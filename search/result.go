package search

import "time"

// Result is the answer to a search: the reference format of DESIGN.md in
// domain types.
type Result struct {
	// References are the matching tools, best first (score, then name).
	References []Reference
	// TotalMatches is the number of tools that matched before MaxResults
	// cut the list.
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
	// Confidence is the semantic confidence when one was computed, else 0.
	Confidence float64
	// Stages is the time spent in each stage of this search.
	Stages Stages
}

// Stages splits a search's time by stage; a stage that did not run is 0.
// QueryEmbedding includes the query cache's lookup; Lexical is the rest of
// the search: keyword, regex, fuzzy, select or browse, and fusion.
type Stages struct {
	QueryEmbedding, VectorSearch, Lexical time.Duration
}
