package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/search"
)

// TestQueriesWithoutWords checks that a query of stop words or punctuation
// answers as a no-match — a hint, available_tools, no references, nothing
// revealed — in every mode but regex, while filters alone still list.
func TestQueriesWithoutWords(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	for _, q := range []string{"a", "???", "the a of", "+", "-", "  !  "} {
		for _, mode := range []search.Mode{search.ModeDefault, search.ModeSemantic, search.ModeKeyword} {
			t.Run(string(mode)+" "+q, func(t *testing.T) {
				res, err := e.Search(context.Background(), search.Request{Query: q, Mode: mode, SessionID: "s-" + q})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.References) != 0 || res.Hint == "" || !strings.Contains(res.Hint, "no words") || len(res.AvailableTools) == 0 {
					t.Errorf("got %d references, hint %q, %d available tools; want none, a hint, the names", len(res.References), res.Hint, len(res.AvailableTools))
				}
				if got := revealedNames(t, e, "s-"+q); len(got) != 0 {
					t.Errorf("revealed %v", got)
				}
			})
		}
	}
	res, err := e.Search(context.Background(), search.Request{Query: "server:slack", Mode: search.ModeKeyword})
	if err != nil || len(res.References) == 0 {
		t.Errorf("server:slack alone: %d references, %v; want slack tools", len(res.References), err)
	}
}

// TestDefaultModeAnswersPatterns checks the regex step of the default
// chain: a query that is a glob or a regex is answered as regex, saying so;
// a pattern that matches nothing goes on to the semantic chain.
func TestDefaultModeAnswersPatterns(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	tests := []struct {
		query      string
		mode       search.Mode
		wantType   search.Mode
		wantReason string
		wantNames  []string
	}{
		{"weather__get_*", search.ModeDefault, search.ModeRegex, search.ReasonPattern,
			[]string{"weather__get_air_quality", "weather__get_alerts", "weather__get_current_weather", "weather__get_forecast"}},
		{"^git__(add|commit)$", search.ModeSemantic, search.ModeRegex, search.ReasonPattern, []string{"git__add", "git__commit"}},
		{"weather__get_* -alerts", search.ModeDefault, search.ModeRegex, search.ReasonPattern,
			[]string{"weather__get_air_quality", "weather__get_current_weather", "weather__get_forecast"}},
		{"weather__get_*", search.ModeKeyword, search.ModeKeyword, "", nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode)+" "+tt.query, func(t *testing.T) {
			res, err := e.Search(context.Background(), search.Request{Query: tt.query, Mode: tt.mode, MaxResults: 10})
			if err != nil {
				t.Fatal(err)
			}
			if res.Metadata.SearchType != tt.wantType || res.Metadata.FallbackReason != tt.wantReason {
				t.Errorf("search_type %q, fallback_reason %q; want %q, %q", res.Metadata.SearchType, res.Metadata.FallbackReason, tt.wantType, tt.wantReason)
			}
			if tt.wantNames != nil {
				if diff := cmp.Diff(tt.wantNames, names(res)); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
			}
		})
	}
	res, err := e.Search(context.Background(), search.Request{Query: "nothing__like_*"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metadata.SearchType == search.ModeRegex {
		t.Errorf("a pattern matching nothing answered as %q; want the semantic chain", res.Metadata.SearchType)
	}
}

// TestRegexPlainWordOffersFuzzy checks that a regex-mode pattern of plain
// words that matches nothing (a typo) says so and offers fuzzy matches,
// with calibrated scores.
func TestRegexPlainWordOffersFuzzy(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	res, err := e.Search(context.Background(), search.Request{Query: "wether", Mode: search.ModeRegex})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metadata.SearchType != search.ModeFuzzy || res.Metadata.FallbackReason != search.ReasonNoRegexMatch || res.Metadata.Suggestion == "" {
		t.Fatalf("search_type %q, reason %q, suggestion %q; want fuzzy, %q, a suggestion", res.Metadata.SearchType, res.Metadata.FallbackReason, res.Metadata.Suggestion, search.ReasonNoRegexMatch)
	}
	if len(res.References) == 0 || !strings.HasPrefix(res.References[0].Name, "weather__") || res.References[0].Score <= 0 {
		t.Errorf("references %v; want weather tools with scores above 0", res.References)
	}
	if !strings.Contains(res.Hint, "pattern") {
		t.Errorf("hint %q does not say the pattern matched nothing", res.Hint)
	}
	res, err = e.Search(context.Background(), search.Request{Query: "zz.*qq", Mode: search.ModeRegex})
	if err != nil || len(res.References) != 0 || res.Metadata.SearchType != search.ModeRegex {
		t.Errorf("a real pattern matching nothing: %v, %q, %v; want an empty regex answer", res.References, res.Metadata.SearchType, err)
	}
}
