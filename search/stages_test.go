package search

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsearch/toolsearch/catalog"
)

// Table tests of the pipeline's stage functions, with expectations
// computed by hand.

var approx = cmpopts.EquateApprox(0, 1e-9)

func TestFuse(t *testing.T) {
	tests := []struct {
		name     string
		sem, kw  []hit
		words    int
		want     map[int]float64 // tool → fused score
		wantNone bool
	}{
		{
			// a = 0.4. Semantic: tool 1 cos 0.8 (scaled 1), tool 2 cos 0.4
			// (scaled 0). Keyword: tool 2 0.9 (scaled 1), tool 3 0.3 (0).
			// Before the absolute factor: 1: 0.4, 2: 0.6, 3: 0.
			// Best absolute: max(0.4·0.8, 0.4·0.4+0.6·0.9, 0.6·0.3) = 0.7.
			name:  "two paths, short query",
			sem:   []hit{{id: 1, score: 0.8}, {id: 2, score: 0.4}},
			kw:    []hit{{id: 2, score: 0.9}, {id: 3, score: 0.3}},
			words: 3,
			want:  map[int]float64{1: 0.4 * 0.7, 2: 0.6 * 0.7, 3: 0},
		},
		{
			// 24 words: a = 0.4 × 12/24 = 0.2. One candidate per path scales
			// to 1. Before the factor: 1: 0.2, 2: 0.8; best absolute:
			// max(0.2·0.5, 0.8·0.6) = 0.48.
			name:  "long query weighs keyword more",
			sem:   []hit{{id: 1, score: 0.5}},
			kw:    []hit{{id: 2, score: 0.6}},
			words: 24,
			want:  map[int]float64{1: 0.2 * 0.48, 2: 0.8 * 0.48},
		},
		{
			name:     "nothing to fuse",
			wantNone: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[int]float64{}
			for _, h := range fuse(tt.sem, tt.kw, tt.words, false) {
				got[h.id] = h.score
			}
			if tt.wantNone {
				if len(got) != 0 {
					t.Errorf("fuse = %v, want nothing", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("fuse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGateConfidence(t *testing.T) {
	g := Gate{Threshold: 0.4, MarginWeight: 1}
	tests := []struct {
		name   string
		scores []float64
		want   float64
	}{
		{"none", nil, 0},
		{"one", []float64{0.3}, 0.3},
		// top 0.5, runners-up mean (0.3+0.2+0.1+0.2)/4 = 0.2: 0.5 + 0.3.
		{"clear winner", []float64{0.5, 0.3, 0.2, 0.1, 0.2, 0.9}, 0.8},
		// flat list: margin 0, confidence = top.
		{"flat", []float64{0.35, 0.35, 0.35}, 0.35},
		{"clamped", []float64{0.9, 0}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := make([]hit, len(tt.scores))
			for i, s := range tt.scores {
				hs[i] = hit{id: i, score: s}
			}
			if got := g.confidence(hs); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("confidence = %v, want %v", got, tt.want)
			}
		})
	}
	if gateFor("builtin:wink-sg-100d/v1").Threshold != 0.40 || gateFor("ollama:nomic-embed-text").Threshold != defaultGate.Threshold {
		t.Error("gateFor does not pick the calibrated gate by model prefix")
	}
}

func TestExactFirst(t *testing.T) {
	hs := func() []hit { return []hit{{id: 4, score: 1}, {id: 7, score: 0.8}, {id: 2, score: 0.5}} }
	tests := []struct {
		name      string
		exact     int
		want      []hit
		wantTotal int
	}{
		{"none", -1, hs(), 10},
		{"already first, others capped", 4, []hit{{id: 4, score: 1, explain: "exact name"}, {id: 7, score: 0.8}, {id: 2, score: 0.5}}, 10},
		{"moved up", 2, []hit{{id: 2, score: 1, explain: "exact name"}, {id: 4, score: exactOthersCap}, {id: 7, score: 0.8}}, 10},
		{"not among the hits", 9, []hit{{id: 9, score: 1, explain: "exact name"}, {id: 4, score: exactOthersCap}, {id: 7, score: 0.8}, {id: 2, score: 0.5}}, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := exactFirst(hs(), 10, tt.exact)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(hit{})); diff != "" || total != tt.wantTotal {
				t.Errorf("exactFirst (-want +got):\n%s total %d, want %d", diff, total, tt.wantTotal)
			}
		})
	}
}

func TestTopBand(t *testing.T) {
	hs := []hit{{id: 1, score: 0.9}, {id: 2, score: 0.8}, {id: 3, score: 0.73}, {id: 4, score: 0.5}}
	for _, tt := range []struct {
		band float64
		want int
	}{{0, 4}, {0.5, 4}, {0.8, 3}, {0.85, 2}, {1, 1}} {
		if got := len(topBand(hs, tt.band)); got != tt.want {
			t.Errorf("topBand(%v) keeps %d, want %d", tt.band, got, tt.want)
		}
	}
}

func TestCalibrate(t *testing.T) {
	tests := []struct {
		name          string
		m             matches
		exact         int
		scores        []float64
		want          []float64
		wantConfident bool
	}{
		// keyword, full coverage: x = 0.113 is the knee → 0.5; x = 1 → 1.
		{"keyword knee", matches{mode: ModeKeyword, coverage: 1}, -1, []float64{keywordKnee, 1}, []float64{0.5, 1}, true},
		// coverage 0.5: x = 0.8 × 0.25 = 0.2 → 0.5 + (0.2−0.113)/(0.887) × 0.5.
		{"keyword half coverage", matches{mode: ModeKeyword, coverage: 0.5}, -1, []float64{0.8}, []float64{0.5 + (0.2-keywordKnee)/(1-keywordKnee)*0.5}, true},
		// coverage 0.4: x = 0.66 × 0.16 = 0.1056 < knee → 0.1056/0.113 × 0.5.
		{"mostly unknown words", matches{mode: ModeKeyword, coverage: 0.4}, -1, []float64{0.66}, []float64{0.66 * 0.16 / keywordKnee * 0.5}, false},
		// fuzzy at full coverage: x = 0.2 × 0.5 = 0.1 < knee.
		{"fuzzy", matches{mode: ModeFuzzy, coverage: 1}, -1, []float64{0.2}, []float64{0.1 / keywordKnee * 0.5}, false},
		{"hybrid knee", matches{mode: ModeHybrid, coverage: 1}, -1, []float64{hybridKnee / 2}, []float64{0.25}, false},
		{"exact name keeps 1", matches{mode: ModeKeyword, coverage: 0.1}, 3, []float64{1, 0.5}, []float64{1, 0.5 * 0.01 / keywordKnee * 0.5}, true},
		{"select is confident", matches{mode: ModeSelect}, -1, []float64{1}, []float64{1}, true},
		{"regex is confident", matches{mode: ModeRegex}, -1, []float64{0.25}, []float64{0.25}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := make([]hit, len(tt.scores))
			for i, s := range tt.scores {
				hs[i] = hit{id: i + 3, score: s}
			}
			got, confident := calibrate(hs, tt.m, tt.exact)
			scores := make([]float64, len(got))
			for i, h := range got {
				scores[i] = h.score
			}
			if diff := cmp.Diff(tt.want, scores, approx); diff != "" || confident != tt.wantConfident {
				t.Errorf("calibrate (-want +got):\n%s confident %v, want %v", diff, confident, tt.wantConfident)
			}
		})
	}
}

// testState builds a lexical state over tools given as "server__name: description".
func testState(t *testing.T, tools ...catalog.Tool) *state {
	t.Helper()
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	return newState(snap, nil)
}

var stageTools = []catalog.Tool{
	{Name: "github__create_issue", Server: "github", Description: "Create an issue in a repository."},
	{Name: "github__search_issues", Server: "github", Description: "Search issues."},
	{Name: "jira__create_issue", Server: "jira", Category: "tracker", Description: "Create a ticket, bug or task."},
	{Name: "jira__search_issues", Server: "jira", Category: "tracker", Description: "Search tickets."},
	{Name: "slack__send_message", Server: "slack", Description: "Send a message."},
}

func TestScope(t *testing.T) {
	st := testState(t, stageTools...)
	tests := []struct {
		name     string
		visible  []string
		category string
		want     []string // allowed tools; nil scope: "all"
		wantErr  bool
	}{
		{name: "none", want: []string{"all"}},
		{name: "names", visible: []string{"slack__send_message", "unknown__tool"}, want: []string{"slack__send_message"}},
		{name: "server pattern", visible: []string{"jira:*"}, want: []string{"jira__create_issue", "jira__search_issues"}},
		{name: "server pattern ignores case", visible: []string{"JIRA:*"}, want: []string{"jira__create_issue", "jira__search_issues"}},
		{name: "prefix pattern", visible: []string{"github__*"}, want: []string{"github__create_issue", "github__search_issues"}},
		{name: "category", category: "Tracker", want: []string{"jira__create_issue", "jira__search_issues"}},
		{name: "category by server", category: "slack", want: []string{"slack__send_message"}},
		{name: "visible and category", visible: []string{"github:*", "jira__create_issue"}, category: "jira", want: []string{"jira__create_issue"}},
		{name: "category pattern", visible: []string{"category:TRACKER", "slack__send_message"}, want: []string{"jira__create_issue", "jira__search_issues", "slack__send_message"}},
		{name: "empty entry", visible: []string{""}, wantErr: true},
		{name: "no category", visible: []string{"category:"}, wantErr: true},
		{name: "star inside", visible: []string{"git*hub"}, wantErr: true},
		{name: "no server", visible: []string{":*"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allow, err := st.scope(tt.visible, tt.category)
			if tt.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if allow == nil {
				got = []string{"all"}
			} else {
				for i := range st.snap.Len() {
					if allow(i) {
						got = append(got, st.name(i))
					}
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("scope (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreferServers(t *testing.T) {
	st := testState(t, stageTools...)
	id := func(name string) int { i, _ := st.snap.Lookup(name); return i }
	in := func() []hit {
		return []hit{
			{id: id("jira__create_issue"), score: 0.6},
			{id: id("github__search_issues"), score: 0.55},
			{id: id("github__create_issue"), score: 0.5},
			{id: id("slack__send_message"), score: 0.1},
		}
	}
	serverOf := st.serverOf
	tests := []struct {
		servers []string
		want    []string
		scores  []float64
	}{
		{nil, []string{"jira__create_issue", "github__search_issues", "github__create_issue", "slack__send_message"}, []float64{0.6, 0.55, 0.5, 0.1}},
		// github's twin of jira__create_issue takes its score; nothing else moves.
		{[]string{"github"}, []string{"github__create_issue", "github__search_issues", "jira__create_issue", "slack__send_message"}, []float64{0.6, 0.55, 0.5, 0.1}},
		{[]string{"jira"}, []string{"jira__create_issue", "github__search_issues", "github__create_issue", "slack__send_message"}, []float64{0.6, 0.55, 0.5, 0.1}},
	}
	for _, tt := range tests {
		got := preferServers(in(), tt.servers, serverOf, st.twinKey, st.name)
		var names []string
		var scores []float64
		for _, h := range got {
			names, scores = append(names, st.name(h.id)), append(scores, h.score)
		}
		if diff := cmp.Diff(tt.want, names); diff != "" {
			t.Errorf("servers %v: (-want +got):\n%s", tt.servers, diff)
		}
		if diff := cmp.Diff(tt.scores, scores, approx); diff != "" {
			t.Errorf("servers %v scores: (-want +got):\n%s", tt.servers, diff)
		}
	}
}

func TestMentionedServers(t *testing.T) {
	tools := append([]catalog.Tool{
		{Name: "weather__forecast", Server: "weather", Description: "Weather forecast."},
	}, stageTools...)
	for i := range 1000 {
		// Many other tools that use the word "weather" in their text: the
		// server name "weather" is a topic word here, not a provider.
		tools = append(tools, catalog.Tool{Name: fmt.Sprintf("misc__t%d", i), Server: "misc", Description: "Plan around the weather and travel."})
	}
	st := testState(t, tools...)
	plan := func(q string) []string {
		p, err := st.newPlan(Request{Query: q}, limits{maxResults: 10, maxQueryLength: MaxQueryLength})
		if err != nil {
			t.Fatal(err)
		}
		return p.servers
	}
	if got := plan("create a GitHub issue for the login bug"); !cmp.Equal(got, []string{"github"}) {
		t.Errorf("github: servers %v", got)
	}
	if got := plan("what is the weather like"); len(got) != 0 {
		t.Errorf("weather (a common word in this catalog): servers %v, want none", got)
	}
	if got := plan("create an issue -github"); len(got) != 0 {
		t.Errorf("excluded github: servers %v, want none", got)
	}
}

// FuzzPlan: planning any query in any mode never panics, and a rejected
// query is always ErrInvalidArgument (a clear error for the caller).
func FuzzPlan(f *testing.F) {
	for _, seed := range []string{"send slack message", "select:a,b", "+github create|open", "issue -jira server:github", "`github__create_issue`", "select:", `\-x (`, "server: x"} {
		f.Add(seed, uint8(0))
		f.Add(seed, uint8(3))
	}
	st := newState(mustSnapshot(f, stageTools), nil)
	modes := []Mode{ModeDefault, ModeSemantic, ModeKeyword, ModeRegex}
	f.Fuzz(func(t *testing.T, q string, mode uint8) {
		p, err := st.newPlan(Request{Query: q, Mode: modes[int(mode)%len(modes)]}, limits{maxResults: 10, maxQueryLength: MaxQueryLength})
		if err != nil {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("newPlan(%q): %v is not ErrInvalidArgument", q, err)
			}
			return
		}
		if p.exact >= st.snap.Len() || p.limit < 1 {
			t.Fatalf("newPlan(%q): exact %d, limit %d", q, p.exact, p.limit)
		}
		_ = p.kind()
	})
}

func mustSnapshot(tb testing.TB, tools []catalog.Tool) *catalog.Snapshot {
	tb.Helper()
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}
