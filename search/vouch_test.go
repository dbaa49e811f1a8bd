package search_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestVouched: a request whose words the example catalog does not know
// (coverage 0: "tornado", "warnings", "Oklahoma") but whose semantic top
// tool is clear and uncontradicted by keyword search is a confident match
// in the default mode, its top at exactly 0.5; keyword mode has no
// semantic evidence and flags it (or finds nothing). Weaker semantic
// evidence (confidence under vouchConfidence) is flagged in both modes.
func TestVouched(t *testing.T) {
	cases := []struct {
		query   string
		vouched bool // in the default mode
	}{
		{"any tornado warnings in Oklahoma", true},            // confidence 1.0
		{"is there a hurricane warning for Miami", true},      // 0.94
		{"will it be sunny this weekend in Barcelona", false}, // 0.51
		{"preheat the oven to 400 degrees", false},            // 0.59, and no tool serves it
	}
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for _, c := range cases {
			res, err := e.Search(context.Background(), search.Request{Query: c.query, Mode: m.mode, MaxResults: 5, Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			want := c.vouched && m.mode == search.ModeDefault
			if len(res.References) == 0 {
				if want {
					t.Errorf("%s %q: no results", m.name, c.query)
				}
				continue
			}
			top := res.References[0]
			vouched := strings.Contains(top.Explanation, "vouched")
			if res.Metadata.NoConfidentMatch == want || vouched != want {
				t.Errorf("%s %q: no_confident_match %v, top %s %.3f, explanation %q: want vouched %v",
					m.name, c.query, res.Metadata.NoConfidentMatch, top.Name, top.Score, top.Explanation, want)
			}
			if want && (math.Abs(top.Score-0.5) > 1e-9 || top.Name != "weather__get_alerts") {
				t.Errorf("%s %q: top %s %.3f, want weather__get_alerts at 0.5", m.name, c.query, top.Name, top.Score)
			}
		}
	}
}
