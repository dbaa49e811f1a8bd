package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// RenderResult renders a search response as the reference-format JSON that
// the agent hands back to the model as the result of its tool_search call:
//
//	{"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.95,"summary":"Send a message to a Slack channel or user"}],
//	 "total_matches":12,
//	 "search_metadata":{"search_type":"semantic","query":"send slack message","execution_time_ms":3}}
//
// (on one line: the output is compact, to spend few tokens). These keys are
// always present, in this order; tool_references is [] when nothing matched.
// Other keys appear only when set: "server" on a reference (after
// "summary"); "requested_search_type", "fallback_reason", "suggestion" and
// "no_confident_match" (true when no result clears the calibrated
// threshold) in search_metadata (after "execution_time_ms"); and top-level
// "hint", "available_tools", "unknown_tools" and "next_page_token" (after
// "search_metadata"; the token continues a listing, an empty query, when the
// model passes it back as tool_search's page_token). Debug explanations,
// learned provenance (ToolReference.learned), the catalog version, the
// confidence and microsecond timings are left out: they are for the agent,
// not the model.
//
// Scores are rounded to 3 decimals and kept within [0, 1] (NaN becomes 0).
// The output is deterministic for a given response, and HTML characters
// (<, >, &) are not escaped. A nil response is an error; a response without
// search_metadata renders with empty metadata values.
func RenderResult(resp *toolsearchv1.SearchResponse) (string, error) {
	if resp == nil {
		return "", errors.New("toolsearch: render result: nil SearchResponse")
	}
	md := resp.GetSearchMetadata()
	out := renderedResult{
		ToolReferences: make([]renderedReference, 0, len(resp.GetToolReferences())),
		TotalMatches:   resp.GetTotalMatches(),
		SearchMetadata: renderedMetadata{
			SearchType:          md.GetSearchType(),
			Query:               md.GetQuery(),
			ExecutionTimeMS:     md.GetExecutionTimeMs(),
			RequestedSearchType: md.GetRequestedSearchType(),
			FallbackReason:      md.GetFallbackReason(),
			Suggestion:          md.GetSuggestion(),
			NoConfidentMatch:    md.GetNoConfidentMatch(),
		},
		Hint:           resp.GetHint(),
		AvailableTools: resp.GetAvailableTools(),
		UnknownTools:   resp.GetUnknownTools(),
		NextPageToken:  resp.GetNextPageToken(),
	}
	for _, ref := range resp.GetToolReferences() {
		if ref == nil {
			continue
		}
		out.ToolReferences = append(out.ToolReferences, renderedReference{
			ToolName:       ref.GetToolName(),
			RelevanceScore: roundScore(ref.GetRelevanceScore()),
			Summary:        ref.GetSummary(),
			Server:         ref.GetServer(),
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return "", fmt.Errorf("toolsearch: render result: %w", err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// renderedResult is the reference format; field order is key order.
type renderedResult struct {
	ToolReferences []renderedReference `json:"tool_references"`
	TotalMatches   int32               `json:"total_matches"`
	SearchMetadata renderedMetadata    `json:"search_metadata"`
	Hint           string              `json:"hint,omitempty"`
	AvailableTools []string            `json:"available_tools,omitempty"`
	UnknownTools   []string            `json:"unknown_tools,omitempty"`
	NextPageToken  string              `json:"next_page_token,omitempty"`
}

// renderedReference is one entry of tool_references.
type renderedReference struct {
	ToolName       string  `json:"tool_name"`
	RelevanceScore float64 `json:"relevance_score"`
	Summary        string  `json:"summary"`
	Server         string  `json:"server,omitempty"`
}

// renderedMetadata is search_metadata.
type renderedMetadata struct {
	SearchType          string `json:"search_type"`
	Query               string `json:"query"`
	ExecutionTimeMS     int64  `json:"execution_time_ms"`
	RequestedSearchType string `json:"requested_search_type,omitempty"`
	FallbackReason      string `json:"fallback_reason,omitempty"`
	Suggestion          string `json:"suggestion,omitempty"`
	NoConfidentMatch    bool   `json:"no_confident_match,omitempty"`
}

// scoreDecimals is how many decimals RenderResult keeps of a relevance
// score: 0.95123 renders as 0.951. More would spend tokens on noise.
const scoreDecimals = 3

// roundScore rounds s to scoreDecimals decimals within [0, 1]; NaN is 0.
func roundScore(s float64) float64 {
	switch {
	case math.IsNaN(s) || s <= 0:
		return 0
	case s >= 1:
		return 1
	}
	p := math.Pow10(scoreDecimals)
	return math.Round(s*p) / p
}
