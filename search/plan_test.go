package search_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/search"
)

// TestOperatorsInEveryMode: the query is parsed once, before any mode
// runs, so every mode honours select:, the filters and the exact-name rule.
func TestOperatorsInEveryMode(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	modes := []search.Mode{search.ModeDefault, search.ModeSemantic, search.ModeKeyword, search.ModeRegex}
	for _, mode := range modes {
		name := string(mode)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			res := search1(t, e, search.Request{Query: "select:github__create_issue,slack__send_message", Mode: mode})
			if diff := cmp.Diff([]string{"github__create_issue", "slack__send_message"}, names(res)); diff != "" || res.Metadata.SearchType != search.ModeSelect {
				t.Errorf("select: answered by %q (-want +got):\n%s", res.Metadata.SearchType, diff)
			}
			for _, q := range []string{"GITHUB__CREATE_ISSUE", "`github__create_issue`", ` "github__create_issue" `} {
				res = search1(t, e, search.Request{Query: q, Mode: mode})
				if got := names(res); len(got) == 0 || got[0] != "github__create_issue" || res.References[0].Score != 1 {
					t.Errorf("%s: %v, want github__create_issue first with score 1", q, got)
				}
				if res.Metadata.NoConfidentMatch {
					t.Errorf("%s: an exact name is flagged no_confident_match", q)
				}
			}
			res = search1(t, e, search.Request{Query: "server:jira select:github__create_issue,jira__create_issue", Mode: mode})
			if diff := cmp.Diff([]string{"jira__create_issue"}, names(res)); diff != "" {
				t.Errorf("select: with server: (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRegexWithOperators(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	tests := []struct {
		query string
		check func(t *testing.T, got []string)
	}{
		{"+github create|search", func(t *testing.T, got []string) {
			if len(got) == 0 {
				t.Fatal("no results")
			}
			for _, n := range got {
				if !strings.HasPrefix(n, "github__") {
					t.Errorf("%s does not contain the required term github", n)
				}
			}
		}},
		{"issue -jira -github", func(t *testing.T, got []string) {
			for _, n := range got {
				if strings.HasPrefix(n, "jira__") || strings.HasPrefix(n, "github__") {
					t.Errorf("%s was excluded", n)
				}
			}
		}},
		{"create server:jira", func(t *testing.T, got []string) {
			if diff := cmp.Diff([]string{"jira__create_issue"}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"+kubernetes issue", func(t *testing.T, got []string) {
			if len(got) != 0 {
				t.Errorf("a required term no tool has: %v, want nothing", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := search1(t, e, search.Request{Query: tt.query, Mode: search.ModeRegex, MaxResults: 10})
			if res.Metadata.SearchType != search.ModeRegex {
				t.Errorf("answered by %q, want regex", res.Metadata.SearchType)
			}
			tt.check(t, names(res))
		})
	}
	_, err := e.Search(t.Context(), search.Request{Query: "+github (unclosed", Mode: search.ModeRegex})
	if !errors.Is(err, search.ErrInvalidArgument) || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("invalid pattern after an operator: %v, want ErrInvalidArgument naming the parse error", err)
	}
}

// TestNamedServerRanksFirst: a query naming a server prefers that server's
// tool over the same tool of another server.
func TestNamedServerRanksFirst(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	for _, mode := range []search.Mode{search.ModeDefault, search.ModeKeyword} {
		for _, tt := range []struct{ query, want string }{
			{"create a github issue for the login bug", "github__create_issue"},
			{"create a jira issue for the login bug", "jira__create_issue"},
		} {
			res := search1(t, e, search.Request{Query: tt.query, Mode: mode})
			if got := names(res); len(got) == 0 || got[0] != tt.want {
				t.Errorf("%q (%q): %v, want %s first", tt.query, mode, got, tt.want)
			}
		}
	}
}

// TestNoConfidentMatch: queries no tool of the example catalog serves are
// flagged, good matches are not, and the flag comes with a hint.
func TestNoConfidentMatch(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	for _, q := range []string{"turn off the living room lights", "recommend a good movie tonight"} {
		for _, mode := range []search.Mode{search.ModeDefault, search.ModeKeyword} {
			res := search1(t, e, search.Request{Query: q, Mode: mode})
			if len(res.References) > 0 && !res.Metadata.NoConfidentMatch {
				t.Errorf("%q (%q): top %s at %.3f not flagged", q, mode, res.References[0].Name, res.References[0].Score)
			}
			if len(res.References) > 0 && (res.Hint == "" || res.References[0].Score >= 0.5) {
				t.Errorf("%q (%q): hint %q, top score %.3f; want a hint and a score under 0.5", q, mode, res.Hint, res.References[0].Score)
			}
		}
	}
	for _, q := range []string{"send a message to a slack channel", "weather forecast for Berlin", "create a github issue"} {
		res := search1(t, e, search.Request{Query: q})
		if res.Metadata.NoConfidentMatch || len(res.References) == 0 || res.References[0].Score < 0.5 {
			t.Errorf("%q: flagged %v, top %v; want a confident match", q, res.Metadata.NoConfidentMatch, names(res))
		}
	}
}

func TestTopBandRequest(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	all := search1(t, e, search.Request{Query: "send slack message", Mode: search.ModeKeyword, MaxResults: 10})
	band := search1(t, e, search.Request{Query: "send slack message", Mode: search.ModeKeyword, MaxResults: 10, TopBand: 0.9})
	if len(band.References) == 0 || len(band.References) >= len(all.References) {
		t.Fatalf("top band 0.9 kept %d of %d", len(band.References), len(all.References))
	}
	for _, r := range band.References {
		if r.Score < 0.9*band.References[0].Score {
			t.Errorf("%s at %.3f is outside the band of %.3f", r.Name, r.Score, band.References[0].Score)
		}
	}
	for _, bad := range []float64{-0.1, 1.5} {
		if _, err := e.Search(t.Context(), search.Request{Query: "x", TopBand: bad}); !errors.Is(err, search.ErrInvalidArgument) {
			t.Errorf("top band %v: %v, want ErrInvalidArgument", bad, err)
		}
	}
}

// TestRegexScanReported: a pattern without a literal the trigram index can
// use is answered by matching every tool, and the result says so.
func TestRegexScanReported(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	if res := search1(t, e, search.Request{Query: "create_issue", Mode: search.ModeRegex}); res.Metadata.RegexScanned {
		t.Error("a pattern with a literal was scanned")
	}
	if res := search1(t, e, search.Request{Query: "^.{3,5}$", Mode: search.ModeRegex}); !res.Metadata.RegexScanned {
		t.Error("a pattern with no literal was not reported as a scan")
	}
}
