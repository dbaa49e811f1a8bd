package searchpb

import (
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
)

// TestResponseCarriesEveryField: the conversion the gRPC service and the
// MCP endpoint share carries every field of the result's metadata.
func TestResponseCarriesEveryField(t *testing.T) {
	res := search.Result{
		References:   []search.Reference{{Name: "a__b", Score: 0.25, Summary: "S.", Server: "a", Explanation: "why"}},
		TotalMatches: 1 << 40,
		Hint:         "h",
		Metadata: search.Metadata{
			SearchType: search.ModeKeyword, RequestedSearchType: search.ModeSemantic, FallbackReason: search.ReasonLowConfidence,
			Query: "q", Elapsed: 1500 * time.Microsecond, CatalogVersion: 7, Suggestion: "s", Confidence: 0.3,
			NoConfidentMatch: true, IndexState: search.IndexDegraded,
		},
	}
	got := Response(res)
	md := got.GetSearchMetadata()
	if !md.GetNoConfidentMatch() || md.GetIndexState() != toolsearchv1.IndexState_INDEX_STATE_DEGRADED ||
		md.GetFallbackReason() != search.ReasonLowConfidence || md.GetExecutionTimeUs() != 1500 || md.GetCatalogVersion() != 7 {
		t.Errorf("metadata not carried: %v", md)
	}
	if got.GetTotalMatches() != 1<<31-1 {
		t.Errorf("total matches %d, want the int32 maximum", got.GetTotalMatches())
	}
	if r := got.GetToolReferences()[0]; r.GetToolName() != "a__b" || r.GetRelevanceScore() != 0.25 || r.GetExplanation() != "why" {
		t.Errorf("reference not carried: %v", r)
	}
	if IndexState(search.IndexState(99)) != toolsearchv1.IndexState_INDEX_STATE_UNSPECIFIED {
		t.Error("unknown state is not UNSPECIFIED")
	}
}
