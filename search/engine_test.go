package search_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

const exampleCatalog = "../examples/catalog.json"

func names(res search.Result) []string {
	out := make([]string, len(res.References))
	for i, r := range res.References {
		out[i] = r.Name
	}
	return out
}

// isLifted reports whether res lists tool name with a learned lift
// (Reference.Learned).
func isLifted(res search.Result, name string) bool {
	return slices.ContainsFunc(res.References, func(r search.Reference) bool { return r.Name == name && r.Learned != nil })
}

func TestSearchRequests(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	tests := []struct {
		name      string
		req       search.Request
		wantType  search.Mode
		wantNames []string // exact, when set
		wantFirst string
		wantErr   error
		errText   string
	}{
		{name: "keyword", req: search.Request{Query: "send slack message", Mode: search.ModeKeyword}, wantType: search.ModeKeyword, wantFirst: "slack__send_message"},
		{name: "select keeps order and ignores max", req: search.Request{Query: "select:weather__get_forecast,git__log,nope", MaxResults: 1},
			wantType: search.ModeSelect, wantNames: []string{"weather__get_forecast", "git__log"}},
		{name: "regex glob", req: search.Request{Query: "weather__get_*", Mode: search.ModeRegex, MaxResults: 10}, wantType: search.ModeRegex,
			wantNames: []string{"weather__get_air_quality", "weather__get_alerts", "weather__get_current_weather", "weather__get_forecast"}},
		{name: "browse first page", req: search.Request{MaxResults: 2}, wantType: search.ModeBrowse,
			wantNames: []string{"calendar__create_event", "calendar__delete_event"}},
		{name: "category is server or category", req: search.Request{Query: "", Category: "WEATHER", MaxResults: 10}, wantType: search.ModeBrowse,
			wantNames: []string{"weather__get_air_quality", "weather__get_alerts", "weather__get_current_weather", "weather__get_forecast"}},
		{name: "visible prefix glob", req: search.Request{Query: "issue", Mode: search.ModeKeyword, Visible: []string{"jira__*"}, MaxResults: 10},
			wantType: search.ModeKeyword, wantFirst: "jira__"},
		{name: "fuzzy on typo", req: search.Request{Query: "wether", Mode: search.ModeKeyword}, wantType: search.ModeFuzzy, wantFirst: "weather__"},
		{name: "invalid regex", req: search.Request{Query: "a(b", Mode: search.ModeRegex}, wantErr: search.ErrInvalidArgument, errText: "missing closing )"},
		{name: "unknown mode", req: search.Request{Query: "x", Mode: "vector"}, wantErr: search.ErrInvalidArgument, errText: "unknown search type"},
		{name: "negative max", req: search.Request{Query: "x", MaxResults: -3}, wantErr: search.ErrInvalidArgument, errText: "max_results is -3"},
		{name: "invalid utf-8", req: search.Request{Query: "caf\xe9"}, wantErr: search.ErrInvalidArgument, errText: "UTF-8"},
		{name: "select with no names", req: search.Request{Query: "select:"}, wantErr: search.ErrInvalidArgument, errText: "select"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.Search(context.Background(), tt.req)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("err = %v, want %v containing %q", err, tt.wantErr, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Metadata.SearchType != tt.wantType {
				t.Errorf("search type %q, want %q", res.Metadata.SearchType, tt.wantType)
			}
			got := names(res)
			if tt.wantNames != nil {
				if diff := cmp.Diff(tt.wantNames, got); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
			}
			if tt.wantFirst != "" && (len(got) == 0 || !strings.HasPrefix(got[0], tt.wantFirst)) {
				t.Errorf("results %v, want first to start with %s", got, tt.wantFirst)
			}
			for _, r := range res.References {
				if r.Score < 0 || r.Score > 1 {
					t.Errorf("%s: score %v outside [0,1]", r.Name, r.Score)
				}
			}
		})
	}
}

func TestBrowsePagesCoverCatalogOnce(t *testing.T) {
	snap := loadSnapshot(t, exampleCatalog)
	e := newEngine(t, snap, search.Config{})
	seen := map[string]int{}
	token := ""
	for range 100 {
		res, err := e.Search(context.Background(), search.Request{MaxResults: 7, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalMatches != snap.Len() {
			t.Errorf("total %d, want %d", res.TotalMatches, snap.Len())
		}
		for _, n := range names(res) {
			seen[n]++
		}
		if token = res.NextPageToken; token == "" {
			break
		}
	}
	if len(seen) != snap.Len() {
		t.Errorf("pages listed %d tools, want %d", len(seen), snap.Len())
	}
	for n, c := range seen {
		if c != 1 {
			t.Errorf("%s listed %d times", n, c)
		}
	}
}

func TestNoMatchListsVisibleTools(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{AvailableToolsCap: 3})
	res, err := e.Search(context.Background(), search.Request{Query: "qqzzxv", Mode: search.ModeKeyword, Visible: []string{"git:*"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.References) != 0 || res.Hint == "" {
		t.Fatalf("got %v, hint %q; want no results and a hint", names(res), res.Hint)
	}
	if diff := cmp.Diff([]string{"git__add", "git__checkout", "git__commit"}, res.AvailableTools); diff != "" {
		t.Errorf("available tools (-want +got):\n%s", diff)
	}
}

func TestUpsertAndDelete(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	ctx := context.Background()
	before := e.Snapshot()
	_, err := e.Upsert(ctx, []search.Tool{{Name: "x", InputSchema: []byte(`[]`)}})
	if !errors.Is(err, search.ErrInvalidArgument) {
		t.Fatalf("upsert of an array schema: err = %v, want ErrInvalidArgument", err)
	}
	if e.Snapshot() != before {
		t.Error("a failed upsert changed the snapshot")
	}
	res, err := e.Upsert(ctx, []search.Tool{{Name: "pager__page_oncall", Server: "pager", Description: "Page the on-call engineer about an incident."}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Inserted != 1 || res.CatalogVersion != before.Version()+1 {
		t.Errorf("upsert result %+v", res)
	}
	found, err := e.Search(ctx, search.Request{Query: "page the on-call engineer", Mode: search.ModeKeyword})
	if err != nil || len(found.References) == 0 || found.References[0].Name != "pager__page_oncall" {
		t.Errorf("after upsert: %v, %v; want pager__page_oncall first", names(found), err)
	}
	if _, err := e.Delete(ctx, []string{"pager__page_oncall", "ghost"}); !errors.Is(err, search.ErrNotFound) || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("delete with an unknown name: %v, want ErrNotFound naming ghost", err)
	}
	if _, err := e.Delete(ctx, []string{"pager__page_oncall"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Get([]string{"pager__page_oncall"}); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("get after delete: %v, want ErrNotFound", err)
	}
}

// TestConcurrentSearchesAndChanges runs searches in every mode while the
// catalog changes; with -race it checks that readers never see a
// half-applied change.
func TestConcurrentSearchesAndChanges(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w, mode := range []search.Mode{search.ModeDefault, search.ModeKeyword, search.ModeRegex} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				q := []string{"weather", "send message", "read_file", ""}[(i+w)%4]
				if mode == search.ModeRegex && q == "" {
					q = "weather"
				}
				res, err := e.Search(ctx, search.Request{Query: q, Mode: mode})
				if err != nil {
					t.Error(err)
					return
				}
				if v := res.Metadata.CatalogVersion; v < 1 {
					t.Errorf("catalog version %d", v)
				}
			}
		}()
	}
	for i := range 30 {
		name := fmt.Sprintf("tmp__tool_%d", i%5)
		if _, err := e.Upsert(ctx, []search.Tool{{Name: name, Description: fmt.Sprintf("Temporary weather tool %d", i)}}); err != nil {
			t.Fatal(err)
		}
		if i%3 == 2 {
			if _, err := e.Delete(ctx, []string{name}); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
}

func TestNewRejectsNilSnapshot(t *testing.T) {
	if _, err := search.New(nil, search.Config{}); err == nil {
		t.Error("New(nil) succeeded")
	}
}

var _ = catalog.ErrInvalid
