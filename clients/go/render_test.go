package toolsearch

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

func TestRenderResult(t *testing.T) {
	tests := []struct {
		name string
		resp *toolsearchv1.SearchResponse
		want string
	}{
		{
			name: "reference format of DESIGN.md",
			resp: &toolsearchv1.SearchResponse{
				ToolReferences: []*toolsearchv1.ToolReference{
					{ToolName: "slack__send_message", RelevanceScore: 0.95, Summary: "Send a message to a Slack channel or user"},
				},
				TotalMatches:   12,
				SearchMetadata: &toolsearchv1.SearchMetadata{SearchType: "semantic", Query: "send slack message", ExecutionTimeMs: 3},
			},
			want: `{"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.95,"summary":"Send a message to a Slack channel or user"}],"total_matches":12,"search_metadata":{"search_type":"semantic","query":"send slack message","execution_time_ms":3}}`,
		},
		{
			name: "every optional field set, agent-only fields left out (the page token is the model's: it continues a listing)",
			resp: &toolsearchv1.SearchResponse{
				ToolReferences: []*toolsearchv1.ToolReference{
					{ToolName: "github__create_issue", RelevanceScore: 0.87654, Summary: "Create an issue", Server: "github", Explanation: "bm25 name:2.1"},
					{ToolName: "jira__create_ticket", RelevanceScore: 0.5, Summary: "Create a ticket", Server: "jira"},
				},
				TotalMatches: 2,
				SearchMetadata: &toolsearchv1.SearchMetadata{
					SearchType:          "keyword",
					RequestedSearchType: "semantic",
					FallbackReason:      "low_confidence",
					Query:               "open a bug",
					ExecutionTimeMs:     1,
					CatalogVersion:      42,
					ExecutionTimeUs:     1234,
					Suggestion:          "create issue",
					Confidence:          0.31,
				},
				Hint:           "Results come from keyword search.",
				AvailableTools: []string{"a", "b"},
				NextPageToken:  "p2",
			},
			want: `{"tool_references":[` +
				`{"tool_name":"github__create_issue","relevance_score":0.877,"summary":"Create an issue","server":"github"},` +
				`{"tool_name":"jira__create_ticket","relevance_score":0.5,"summary":"Create a ticket","server":"jira"}],` +
				`"total_matches":2,"search_metadata":{"search_type":"keyword","query":"open a bug","execution_time_ms":1,` +
				`"requested_search_type":"semantic","fallback_reason":"low_confidence","suggestion":"create issue"},` +
				`"hint":"Results come from keyword search.","available_tools":["a","b"],"next_page_token":"p2"}`,
		},
		{
			name: "no match: empty array, not null",
			resp: &toolsearchv1.SearchResponse{
				SearchMetadata: &toolsearchv1.SearchMetadata{SearchType: "keyword", Query: "zzz"},
				Hint:           "No tool matched.",
			},
			want: `{"tool_references":[],"total_matches":0,"search_metadata":{"search_type":"keyword","query":"zzz","execution_time_ms":0},"hint":"No tool matched."}`,
		},
		{
			name: "no metadata",
			resp: &toolsearchv1.SearchResponse{},
			want: `{"tool_references":[],"total_matches":0,"search_metadata":{"search_type":"","query":"","execution_time_ms":0}}`,
		},
		{
			name: "scores rounded and kept in [0,1]; nil references skipped",
			resp: &toolsearchv1.SearchResponse{
				ToolReferences: []*toolsearchv1.ToolReference{
					{ToolName: "up", RelevanceScore: 1.7},
					{ToolName: "half", RelevanceScore: 0.0005},
					nil,
					{ToolName: "down", RelevanceScore: 0.00049},
					{ToolName: "neg", RelevanceScore: -0.2},
					{ToolName: "nan", RelevanceScore: math.NaN()},
					{ToolName: "inf", RelevanceScore: math.Inf(1)},
				},
				TotalMatches: 6,
			},
			want: `{"tool_references":[` +
				`{"tool_name":"up","relevance_score":1,"summary":""},` +
				`{"tool_name":"half","relevance_score":0.001,"summary":""},` +
				`{"tool_name":"down","relevance_score":0,"summary":""},` +
				`{"tool_name":"neg","relevance_score":0,"summary":""},` +
				`{"tool_name":"nan","relevance_score":0,"summary":""},` +
				`{"tool_name":"inf","relevance_score":1,"summary":""}],` +
				`"total_matches":6,"search_metadata":{"search_type":"","query":"","execution_time_ms":0}}`,
		},
		{
			name: "HTML and quotes: not HTML-escaped, JSON-escaped",
			resp: &toolsearchv1.SearchResponse{
				ToolReferences: []*toolsearchv1.ToolReference{
					{ToolName: "http__get", RelevanceScore: 0.4, Summary: `Fetch <url> & return "body"`},
				},
				TotalMatches:   1,
				SearchMetadata: &toolsearchv1.SearchMetadata{SearchType: "regex", Query: `a|b<c>`},
			},
			want: `{"tool_references":[{"tool_name":"http__get","relevance_score":0.4,"summary":"Fetch <url> & return \"body\""}],"total_matches":1,"search_metadata":{"search_type":"regex","query":"a|b<c>","execution_time_ms":0}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderResult(tt.resp)
			if err != nil {
				t.Fatalf("RenderResult: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RenderResult mismatch (-want +got):\n%s", diff)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("RenderResult = %s: not valid JSON", got)
			}
			again, err := RenderResult(tt.resp)
			if err != nil || again != got {
				t.Errorf("RenderResult is not deterministic: %q, then %q (err %v)", got, again, err)
			}
		})
	}
}

func TestRenderResultNil(t *testing.T) {
	got, err := RenderResult(nil)
	if err == nil {
		t.Fatalf("RenderResult(nil) = %q, want an error", got)
	}
}
