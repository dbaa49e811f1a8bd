package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestPathValueRanksPathTakers: a short request that acts on a local path
// or a file name ranks the tools whose parameters take one (boostPathTakers)
// ahead of the tools whose text shares the value's words or the request's
// other words: e-mail's draft for "save ... to greeting.txt", the database
// for "how big is backup.tar", the notes for "/srv/uploads".
func TestPathValueRanksPathTakers(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	for _, tc := range []struct{ query, want string }{
		{"save 'hello world' to greeting.txt", "filesystem__write_file"},
		{"how big is backup.tar", "filesystem__get_file_info"},
		{"What's in the /srv/uploads folder?", "filesystem__list_directory"},
		{"get src/main.go from acme/api on github", "github__get_file_contents"},
	} {
		for _, n := range []int{2, 5} { // the answer's first does not depend on max_results
			res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: search.ModeKeyword, MaxResults: n})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != tc.want {
				t.Errorf("%q (max %d): top %v, want %s first", tc.query, n, res.References, tc.want)
			}
		}
	}
}

// TestValueKindRanksTakers: the rule reads values of other kinds than
// paths whose words are no topic: an issue key ("file" draws the
// filesystem tools), coordinates, a #channel ("calendar" draws the
// calendar tools). Each fails without the kind in pathKinds.
func TestValueKindRanksTakers(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	for _, tc := range []struct {
		query, want string
		modes       []search.Mode
	}{
		{"move FILE-208 to Blocked", "jira__transition_issue", []search.Mode{search.ModeKeyword}},
		{"name the street at 52.5163, 13.3777", "maps__reverse_geocode", []search.Mode{search.ModeKeyword, search.ModeDefault}},
		{"anything new in #calendar-sync", "slack__get_channel_history", []search.Mode{search.ModeKeyword, search.ModeDefault}},
	} {
		for _, m := range tc.modes {
			res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: m, MaxResults: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != tc.want {
				t.Errorf("%q (%s): top %v, want %s first", tc.query, m, res.References, tc.want)
			}
		}
	}
}

// TestPathValueLongRequest: a request longer than pathMaxWords is a task
// whose path is often where its result goes, as livemcpbench's ("... and
// save it to /root/ppt/x.pptx"): its path lifts no tool that takes one
// over the tools of what it asks first.
func TestPathValueLongRequest(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	const q = "look up the weather forecast for Lisbon this weekend and write it into ~/trip/weather.txt"
	res, err := e.Search(context.Background(), search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.References[:min(3, len(res.References))] {
		if !strings.HasPrefix(r.Name, "weather__") {
			t.Errorf("%q: %s among the 3 best, want the weather tools", q, r.Name)
		}
	}
}
