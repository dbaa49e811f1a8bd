package main

import (
	"bytes"
	"strings"
	"testing"

	toolsearchv1 "github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// TestPrintSearchHeader pins the header line's count wording: a ranked answer
// that is not model-facing may show more results than total_matches counts
// (those above the relevance floor), and must not read "5 of 3 matches".
func TestPrintSearchHeader(t *testing.T) {
	refs := func(n int) []*toolsearchv1.ToolReference {
		out := make([]*toolsearchv1.ToolReference, n)
		for i := range out {
			out[i] = &toolsearchv1.ToolReference{ToolName: "t"}
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		shown      int
		total      int32
		wantPrefix string
	}{
		{"fewer shown than matched", 5, 12, "5 of 12 matches ("},
		{"all shown", 3, 3, "3 of 3 matches ("},
		{"more shown than above the floor", 5, 3, "5 results, 3 above the relevance floor ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			resp := &toolsearchv1.SearchResponse{ToolReferences: refs(tc.shown), TotalMatches: tc.total,
				SearchMetadata: &toolsearchv1.SearchMetadata{}}
			if err := printSearch(&b, resp, false); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); !strings.HasPrefix(got, tc.wantPrefix) {
				t.Errorf("header = %q, want prefix %q", strings.SplitN(got, "\n", 2)[0], tc.wantPrefix)
			}
		})
	}
}
