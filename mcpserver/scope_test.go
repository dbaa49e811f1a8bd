package mcpserver

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// The endpoint filters the catalog with the visible-set syntax of the
// engine (search.Request.Visible): for every pattern, the tools it lists
// are exactly those the engine's searches may return.
func TestVisibilityMatchesEngine(t *testing.T) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, visible := range [][]string{
		{"slack:*"}, {"SLACK:*"}, {"github__*"}, {"weather__get_current", "nope"}, {"slack:*", "github__create_issue"},
		{"git*"}, {"filesystem__read_file"}, {"unknown:*"},
	} {
		t.Run(strings.Join(visible, ","), func(t *testing.T) {
			var got []string
			for _, tl := range newVisibility(visible).filter(snap.Tools()) {
				got = append(got, tl.Name)
			}
			var want []string
			page := ""
			for {
				res, err := e.Search(context.Background(), search.Request{Visible: visible, PageToken: page, MaxResults: 10})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range res.References {
					want = append(want, r.Name)
				}
				if page = res.NextPageToken; page == "" {
					break
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("visible %v (-engine +endpoint):\n%s", visible, diff)
			}
		})
	}
}

func TestScopeFromRequest(t *testing.T) {
	r := httptest.NewRequest("POST", "/mcp?visible_tools=a,b&visible_tools=c:*&always_loaded=x", nil)
	r.Header.Add(HeaderVisibleTools, " d , ,e*")
	r.Header.Add(HeaderAlwaysLoaded, "y")
	sc, err := ScopeFromRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	want := Scope{Visible: []string{"d", "e*", "a", "b", "c:*"}, AlwaysLoaded: []string{"y", "x"}}
	if diff := cmp.Diff(want, sc); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"/mcp?visible_tools=a*b", "/mcp?always_loaded=:*", "/mcp?visible_tools=" + strings.Repeat("x,", search.MaxVisibleTools+1)} {
		if _, err := ScopeFromRequest(httptest.NewRequest("POST", bad, nil)); err == nil {
			t.Errorf("%.60s: no error", bad)
		}
	}
}

// FuzzScopeFromRequest: any header value parses or fails with
// ErrInvalidScope, never panics, and every accepted entry is a pattern.
func FuzzScopeFromRequest(f *testing.F) {
	for _, s := range []string{"slack:*", "a*b", ":*", "github__*,x", "", " , ", "*", "a:*:*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Header.Set(HeaderVisibleTools, v)
		sc, err := ScopeFromRequest(r)
		if err != nil {
			return
		}
		for _, e := range sc.Visible {
			if _, err := catalog.ParsePattern(e); err != nil {
				t.Errorf("accepted entry %q does not parse: %v", e, err)
			}
		}
		newVisibility(sc.Visible).admits(catalog.Tool{Name: v, Server: v})
	})
}
