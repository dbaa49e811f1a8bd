package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsearch/toolsearch/search"
)

// TestSelectSpacesAndUnknownNames checks select: as models write it: spaces
// after the colon and around commas are allowed, and names that name no
// tool (in the caller's scope) are reported in unknown_tools and the hint,
// never silently dropped.
func TestSelectSpacesAndUnknownNames(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	tests := []struct {
		name        string
		req         search.Request
		wantNames   []string
		wantUnknown []string
	}{
		{name: "space after comma", req: search.Request{Query: "select:git__add, git__log"}, wantNames: []string{"git__add", "git__log"}},
		{name: "space after colon", req: search.Request{Query: "select: git__add"}, wantNames: []string{"git__add"}},
		{name: "spaces everywhere, regex mode", req: search.Request{Query: "select: git__add , git__log", Mode: search.ModeRegex}, wantNames: []string{"git__add", "git__log"}},
		{name: "one unknown", req: search.Request{Query: "select:git__add,git__push"}, wantNames: []string{"git__add"}, wantUnknown: []string{"git__push"}},
		{name: "all unknown", req: search.Request{Query: "select:nope, NOPE2"}, wantUnknown: []string{"nope", "NOPE2"}},
		{name: "outside the visible set is unknown", req: search.Request{Query: "select:git__add,slack__send_message", Visible: []string{"git__*"}},
			wantNames: []string{"git__add"}, wantUnknown: []string{"slack__send_message"}},
		{name: "case-insensitive names are known", req: search.Request{Query: "select:GIT__ADD"}, wantNames: []string{"git__add"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantNames, names(res), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantUnknown, res.UnknownTools, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("unknown_tools (-want +got):\n%s", diff)
			}
			for _, u := range tt.wantUnknown {
				if !strings.Contains(res.Hint, u) {
					t.Errorf("hint %q does not name %q", res.Hint, u)
				}
			}
			if len(tt.wantNames) == 0 && len(res.AvailableTools) == 0 {
				t.Error("no tool found and no available_tools to choose from")
			}
		})
	}
}
