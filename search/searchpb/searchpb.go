// Package searchpb converts the engine's search results into the API's
// protobuf messages. The engine itself never sees protobuf; the gRPC
// service (package server) and the MCP endpoint (package mcpserver) both
// answer with these conversions, so they cannot drift apart.
package searchpb

import (
	"math"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
)

// Response converts an engine result into the API's message, the one
// conversion the gRPC service and the MCP endpoint share (so both hand
// models the same reference format). TotalMatches saturates at the int32
// maximum.
func Response(r search.Result) *toolsearchv1.SearchResponse {
	refs := make([]*toolsearchv1.ToolReference, len(r.References))
	for i, ref := range r.References {
		refs[i] = &toolsearchv1.ToolReference{
			ToolName:       ref.Name,
			RelevanceScore: ref.Score,
			Summary:        ref.Summary,
			Server:         ref.Server,
			Explanation:    ref.Explanation,
		}
		if l := ref.Learned; l != nil {
			refs[i].Learned = &toolsearchv1.LearnedBoost{Signal: l.Signal, Boost: l.Boost, Similarity: l.Similarity, Evidence: l.Evidence}
		}
	}
	md := r.Metadata
	return &toolsearchv1.SearchResponse{
		ToolReferences: refs,
		TotalMatches:   int32(min(r.TotalMatches, math.MaxInt32)),
		SearchMetadata: &toolsearchv1.SearchMetadata{
			SearchType:          string(md.SearchType),
			RequestedSearchType: string(md.RequestedSearchType),
			FallbackReason:      md.FallbackReason,
			Query:               md.Query,
			ExecutionTimeMs:     md.Elapsed.Milliseconds(),
			ExecutionTimeUs:     md.Elapsed.Microseconds(),
			CatalogVersion:      md.CatalogVersion,
			Suggestion:          md.Suggestion,
			Confidence:          md.Confidence,
			NoConfidentMatch:    md.NoConfidentMatch,
			IndexState:          IndexState(md.IndexState),
		},
		Hint:           r.Hint,
		AvailableTools: r.AvailableTools,
		NextPageToken:  r.NextPageToken,
		UnknownTools:   r.UnknownTools,
	}
}

// indexStates maps engine index states to the API's.
var indexStates = map[search.IndexState]toolsearchv1.IndexState{
	search.IndexLexicalOnly: toolsearchv1.IndexState_INDEX_STATE_LEXICAL_ONLY,
	search.IndexWarming:     toolsearchv1.IndexState_INDEX_STATE_WARMING,
	search.IndexReady:       toolsearchv1.IndexState_INDEX_STATE_READY,
	search.IndexDegraded:    toolsearchv1.IndexState_INDEX_STATE_DEGRADED,
}

// IndexState converts an engine index state; an unknown one is
// INDEX_STATE_UNSPECIFIED.
func IndexState(s search.IndexState) toolsearchv1.IndexState { return indexStates[s] }
