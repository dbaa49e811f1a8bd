package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/search/searchpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
)

// FuzzToolRoundTrip: a tool message that converts without error converts
// back to the same message (with the schema defaulted when empty).
func FuzzToolRoundTrip(f *testing.F) {
	f.Add("slack__send_message", "slack", "chat", "Send a message.", `{"type":"object","properties":{"text":{"type":"string"}}}`, `{"readOnlyHint":true}`)
	f.Add("x", "", "", "", "", "")
	f.Add("bad", "", "", "", "{not json", "")
	f.Add("bad", "", "", "", "{}", "[1,")
	f.Fuzz(func(t *testing.T, name, server, category, description, schema, annotations string) {
		in := &toolsearchv1.Tool{Name: name, Server: server, Category: category, Description: description, InputSchema: schema, Annotations: annotations}
		tool, err := toolFromMessage(3, in)
		if err != nil {
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("error %v is not InvalidArgument", err)
			}
			if json.Valid([]byte(schema)) && (annotations == "" || json.Valid([]byte(annotations))) && schema != "" {
				t.Fatalf("valid JSON rejected: %v", err)
			}
			return
		}
		want := in
		if schema == "" {
			want = &toolsearchv1.Tool{Name: name, Server: server, Category: category, Description: description, InputSchema: emptySchema, Annotations: annotations}
		}
		if diff := cmp.Diff(want, toolMessage(tool), protocmp.Transform()); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
}

func TestSearchRequestModes(t *testing.T) {
	for v := range toolsearchv1.SearchType_name {
		st := toolsearchv1.SearchType(v)
		mode, ok := searchpb.Mode(st)
		if !ok {
			t.Errorf("search type %v has no engine mode", st)
		}
		req, err := searchRequest(&toolsearchv1.SearchRequest{Query: "q", SearchType: st, MaxResults: 7, CategoryFilter: "c", VisibleTools: []string{"a:*"}, SessionId: "s", Debug: true, PageToken: "p"})
		if err != nil {
			t.Fatal(err)
		}
		want := search.Request{Query: "q", Mode: mode, MaxResults: 7, Category: "c", Visible: []string{"a:*"}, SessionID: "s", Debug: true, PageToken: "p"}
		if diff := cmp.Diff(want, req); diff != "" {
			t.Errorf("%v (-want +got):\n%s", st, diff)
		}
	}
	if _, err := searchRequest(&toolsearchv1.SearchRequest{SearchType: 42}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("unknown search type: %v", err)
	}
}

func TestSearchResponse(t *testing.T) {
	got := searchResponse(search.Result{
		References:     []search.Reference{{Name: "a__b", Score: 0.5, Summary: "S.", Server: "a", Explanation: "why"}},
		TotalMatches:   3,
		Hint:           "h",
		AvailableTools: []string{"a__b"},
		NextPageToken:  "t",
		Metadata: search.Metadata{SearchType: search.ModeHybrid, RequestedSearchType: search.ModeSemantic, FallbackReason: "",
			Query: "q", Elapsed: 1500 * time.Microsecond, CatalogVersion: 4, Suggestion: "s", Confidence: 0.7},
	})
	want := &toolsearchv1.SearchResponse{
		ToolReferences: []*toolsearchv1.ToolReference{{ToolName: "a__b", RelevanceScore: 0.5, Summary: "S.", Server: "a", Explanation: "why"}},
		TotalMatches:   3,
		SearchMetadata: &toolsearchv1.SearchMetadata{SearchType: "hybrid", RequestedSearchType: "semantic", Query: "q",
			ExecutionTimeMs: 1, ExecutionTimeUs: 1500, CatalogVersion: 4, Suggestion: "s", Confidence: 0.7},
		Hint: "h", AvailableTools: []string{"a__b"}, NextPageToken: "t",
	}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
