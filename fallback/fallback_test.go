package fallback

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsearch/toolsearch/query"
)

// testDocs is a small catalog in the shapes the benches use: MCP names,
// dotted camelCase names, run-together names, an empty description and a
// Chinese one.
var testDocs = []Document{
	{Name: "weather__get_weather", Server: "weather", Category: "Travel", Description: "Get the current weather for a city.", ParamNames: []string{"city"}, ParamDescs: []string{"City name"}},
	{Name: "weather__get_forecast", Server: "weather", Category: "Travel", Description: "Get a multi-day weather forecast for a city.", ParamNames: []string{"city", "days"}, ParamDescs: []string{"City name", "Number of days"}},
	{Name: "slack__send_message", Server: "slack", Category: "Communication", Description: "Send a message to a Slack channel or user.", ParamNames: []string{"channel", "text"}},
	{Name: "slack__list_channels", Server: "slack", Category: "Communication", Description: "List the channels of a Slack workspace."},
	{Name: "github__create_issue", Server: "github", Category: "Developer", Description: "Create an issue in a GitHub repository.", ParamNames: []string{"repo", "title", "body"}},
	{Name: "github__close_issue", Server: "github", Category: "Developer", Description: "Close an issue.", ParamNames: []string{"repo", "issue_number"}},
	{Name: "MathUtils.multiplyNumbers", Server: "MathUtils", Description: "Multiply two numbers and return the product.", ParamNames: []string{"a", "b"}},
	{Name: "petstore__getorderbyid", Server: "petstore", Description: "", ParamNames: []string{"orderId"}},
	{Name: "petstore__logoutuser", Server: "petstore", Description: "Logs out the current user session."},
	{Name: "bing__search", Server: "bing", Category: "Discovery", Description: "使用必应搜索指定的关键词，并返回搜索结果列表", ParamNames: []string{"query"}, ParamDescs: []string{"搜索关键词"}},
}

func names(ix *Index, r Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, ix.Name(h.ID))
	}
	return out
}

func mustParse(t *testing.T, s string) query.Query {
	t.Helper()
	q, err := query.Parse(s)
	if err != nil {
		t.Fatalf("query.Parse(%q): %v", s, err)
	}
	return q
}

func TestKeyword(t *testing.T) {
	ix := NewIndex(testDocs)
	tests := []struct {
		name  string
		query string
		opts  Options
		want  []string // top hits, in order
		total int      // -1: don't check
	}{
		{"words", "weather forecast for Paris", Options{Limit: 2}, []string{"weather__get_forecast", "weather__get_weather"}, 2},
		{"exact name", "slack__send_message", Options{Limit: 1}, []string{"slack__send_message"}, -1},
		{"exact name in backticks", "`github__close_issue`", Options{Limit: 1}, []string{"github__close_issue"}, -1},
		{"exact bfcl name", "MathUtils.multiplyNumbers", Options{Limit: 1}, []string{"MathUtils.multiplyNumbers"}, -1},
		{"camelCase parts", "multiply numbers", Options{Limit: 1}, []string{"MathUtils.multiplyNumbers"}, -1},
		{"stem variant", "multiplication", Options{Limit: 1}, []string{"MathUtils.multiplyNumbers"}, -1},
		{"run-together name", "log out user", Options{Limit: 1}, []string{"petstore__logoutuser"}, -1},
		{"empty description, name parts", "get order by id", Options{Limit: 1}, []string{"petstore__getorderbyid"}, -1},
		{"required", "+close issue", Options{}, []string{"github__close_issue"}, 1},
		{"excluded", "issue -close", Options{}, []string{"github__create_issue"}, 1},
		{"server filter", "server:weather", Options{}, []string{"weather__get_forecast", "weather__get_weather"}, 2},
		{"server filter with words", "slack server:github", Options{}, nil, 0},
		{"category filter only", "category:communication", Options{}, []string{"slack__list_channels", "slack__send_message"}, 2},
		{"prefix of last word", "sla", Options{}, []string{"slack__list_channels", "slack__send_message"}, 2},
		{"allow scoping", "weather", Options{Allow: func(id int) bool { return id != 0 }}, []string{"weather__get_forecast"}, 1},
		{"chinese", "搜索关键词", Options{Limit: 1}, []string{"bing__search"}, 1},
		{"phone number is not an operator", "send a message to +15550100", Options{Limit: 1}, []string{"slack__send_message"}, -1},
		{"no match", "kubernetes", Options{}, nil, 0},
		{"impossible required", "+kubernetes weather", Options{}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := ix.Keyword(mustParse(t, tt.query), tt.opts)
			if diff := cmp.Diff(tt.want, names(ix, res), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Keyword(%q) (-want +got):\n%s", tt.query, diff)
			}
			if tt.total >= 0 && res.Total != tt.total {
				t.Errorf("Keyword(%q).Total = %d, want %d", tt.query, res.Total, tt.total)
			}
			checkScores(t, ix, res)
		})
	}
}

// checkScores checks the score contract: in [0,1], sorted by score then name.
func checkScores(t *testing.T, ix *Index, res Result) {
	t.Helper()
	for i, h := range res.Hits {
		if h.Score < 0 || h.Score > 1 {
			t.Errorf("hit %d %s: score %v outside [0,1]", i, ix.Name(h.ID), h.Score)
		}
		if i > 0 {
			p := res.Hits[i-1]
			if p.Score < h.Score || p.Score == h.Score && ix.Name(p.ID) > ix.Name(h.ID) {
				t.Errorf("hits %d,%d out of order: %s %v, %s %v", i-1, i, ix.Name(p.ID), p.Score, ix.Name(h.ID), h.Score)
			}
		}
	}
	if len(res.Hits) > res.Total {
		t.Errorf("%d hits but Total %d", len(res.Hits), res.Total)
	}
}

func TestExactName(t *testing.T) {
	ix := NewIndex(testDocs)
	tests := []struct {
		query string
		want  string // "" for no tool
	}{
		{"slack__send_message", "slack__send_message"},
		{"SLACK__SEND_MESSAGE", "slack__send_message"},
		{"  `github__close_issue`  ", "github__close_issue"},
		{`"github__close_issue"`, "github__close_issue"},
		{"MathUtils.multiplyNumbers", "MathUtils.multiplyNumbers"},
		{"mathutils.MULTIPLYNUMBERS", "MathUtils.multiplyNumbers"},
		{"send message", ""},
		{"slack__send_message please", ""},
		{`"slack__send_message`, ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			id, ok := ix.ExactName(tt.query)
			got := ""
			if ok {
				got = ix.Name(id)
			}
			if got != tt.want {
				t.Errorf("ExactName(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
	var nilIndex *Index
	if _, ok := nilIndex.ExactName("x"); ok {
		t.Error("nil index names a tool")
	}
}

func TestFilter(t *testing.T) {
	ix := NewIndex(testDocs)
	tests := []struct {
		query string
		want  []string // the tools the filter allows, by ID; nil filter: "all"
	}{
		{"send message", []string{"all"}},
		{"+close", []string{"github__close_issue"}},
		{"-close server:github", []string{"github__create_issue"}},
		{"server:weather", []string{"weather__get_weather", "weather__get_forecast"}},
		{"category:communication", []string{"slack__send_message", "slack__list_channels"}},
		{"+kubernetes", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			f := ix.Filter(mustParse(t, tt.query))
			var got []string
			if f == nil {
				got = []string{"all"}
			} else {
				for id := range testDocs {
					if f(id) {
						got = append(got, ix.Name(id))
					}
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Filter(%q) allows (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestKeywordScores(t *testing.T) {
	ix := NewIndex(testDocs)
	// A tool covering every query word by name scores higher than one that
	// covers only a rare word in a parameter description.
	strong := ix.Keyword(mustParse(t, "send message "), Options{Limit: 1}).Hits[0].Score
	weak := ix.Keyword(mustParse(t, "name "), Options{Limit: 1}).Hits[0].Score
	if !(strong > 0.8 && weak < 0.5) {
		t.Errorf("strong match %v, weak match %v: want strong > 0.8 and weak < 0.5", strong, weak)
	}
}

func TestRegex(t *testing.T) {
	ix := NewIndex(testDocs)
	tests := []struct {
		pattern string
		want    []string
		wantErr error
	}{
		{pattern: "issue$", want: []string{"github__close_issue", "github__create_issue"}},
		{pattern: "WEATHER", want: []string{"weather__get_weather", "weather__get_forecast"}},
		{pattern: "(?-i)WEATHER", want: nil},
		{pattern: "channel", want: []string{"slack__list_channels", "slack__send_message"}}, // name above description/param
		{pattern: "get_*", want: []string{"weather__get_forecast", "weather__get_weather"}},
		{pattern: "*_issue", want: []string{"github__close_issue", "github__create_issue"}},
		{pattern: "orderid", want: []string{"petstore__getorderbyid"}},
		{pattern: "a(b", wantErr: ErrInvalidPattern},
		{pattern: string(make([]byte, MaxPatternLength+1)), wantErr: ErrPatternTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			res, err := ix.Regex(tt.pattern, Options{})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Regex(%q) error = %v, want %v", tt.pattern, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, names(ix, res), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Regex(%q) (-want +got):\n%s", tt.pattern, diff)
			}
			checkScores(t, ix, res)
		})
	}
	_, err := ix.Regex("a(b", Options{})
	var pe *PatternError
	if !errors.As(err, &pe) || pe.Err == nil {
		t.Fatalf("Regex(\"a(b\") error %v is not a *PatternError with the parser's error", err)
	}
}

// TestRegexGlobHostNames checks that a glob written with a server's own
// names ("slack__*") matches the tools a host renamed mcp__slack__…, and
// that the whole host name still matches.
func TestRegexGlobHostNames(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "mcp__slack__send_message", Server: "slack", Description: "Send a message."},
		{Name: "mcp__jira__create_issue", Server: "jira", Description: "Create an issue."},
		{Name: "slack__list_channels", Server: "slack", Description: "List channels."},
	})
	for pattern, want := range map[string][]string{
		"slack__*":      {"mcp__slack__send_message", "slack__list_channels"},
		"mcp__slack__*": {"mcp__slack__send_message"},
		"*_issue":       {"mcp__jira__create_issue"},
	} {
		res, err := ix.Regex(pattern, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, names(ix, res)); diff != "" {
			t.Errorf("Regex(%q) (-want +got):\n%s", pattern, diff)
		}
	}
}

func TestRegexTiers(t *testing.T) {
	ix := NewIndex(testDocs)
	res, err := ix.Regex("channel", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// slack__list_channels matches by name, slack__send_message by description.
	if res.Hits[0].Score < regexNameScore || res.Hits[1].Score >= regexNameScore {
		t.Errorf("scores %v, %v: want the name match in the name tier, the description match below", res.Hits[0].Score, res.Hits[1].Score)
	}
}

func TestFuzzy(t *testing.T) {
	ix := NewIndex(testDocs)
	tests := []struct {
		query, wantTop, wantSuggestion string
	}{
		{"wether", "weather__get_weather", "weather"},
		{"wether forcast", "weather__get_forecast", "weather forecast"},
		{"weather__get_wether", "weather__get_weather", "weather__get_weather"},
		{"slak mesage", "slack__send_message", "slack message"},
		{"weather", "", ""}, // nothing to correct
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res, sugg := ix.Fuzzy(mustParse(t, tt.query+" "), Options{Limit: 3})
			top := ""
			if len(res.Hits) > 0 {
				top = ix.Name(res.Hits[0].ID)
			}
			if top != tt.wantTop || sugg != tt.wantSuggestion {
				t.Errorf("Fuzzy(%q) = top %q, suggestion %q; want %q, %q", tt.query, top, sugg, tt.wantTop, tt.wantSuggestion)
			}
			checkScores(t, ix, res)
		})
	}
}

func TestSelect(t *testing.T) {
	ix := NewIndex(testDocs)
	res := ix.Select([]string{"slack__send_message", "nope", "WEATHER__GET_WEATHER", "slack__send_message", "github__close_issue"},
		Options{Limit: 1, Allow: func(id int) bool { return ix.Name(id) != "github__close_issue" }})
	if diff := cmp.Diff([]string{"slack__send_message", "weather__get_weather"}, names(ix, res)); diff != "" {
		t.Errorf("Select (-want +got):\n%s", diff)
	}
	if res.Total != 2 || res.Hits[1].Score != 1 {
		t.Errorf("Total %d, score %v; want 2, 1", res.Total, res.Hits[1].Score)
	}
}

func TestEmptyIndex(t *testing.T) {
	for _, ix := range []*Index{nil, {}, NewIndex(nil)} {
		q := query.Query{Raw: "x", Terms: []query.Term{{Text: "x"}}}
		if r := ix.Keyword(q, Options{}); len(r.Hits) != 0 {
			t.Errorf("Keyword on empty index: %v", r)
		}
		if r, _ := ix.Fuzzy(q, Options{}); len(r.Hits) != 0 {
			t.Errorf("Fuzzy on empty index: %v", r)
		}
		if r, err := ix.Regex("x", Options{}); err != nil || len(r.Hits) != 0 {
			t.Errorf("Regex on empty index: %v %v", r, err)
		}
		if r := ix.Select([]string{"x"}, Options{}); len(r.Hits) != 0 {
			t.Errorf("Select on empty index: %v", r)
		}
	}
}

// FuzzKeyword checks that searching with any parsed query never panics and
// keeps the score contract in keyword, fuzzy and regex search (query's
// FuzzParse checks the parser itself).
func FuzzKeyword(f *testing.F) {
	for _, s := range []string{
		"send slack", `+crypto -"nft art" price`, "server:github issue", "select:a,b", "select:",
		"`slack__send_message`", `"unterminated`, "a = 3, b = -11", "category:\"x y\" +", "-", "+\"", "搜索 sla",
		"bin the note", "I'm late. Can you let #standup know?", "move my 2pm meeting to 4pm", "call it off", "let", "tell",
		"push 4pm", "by bike", "look it", "-move my meeting to 4pm", "let me -know", "book +friday",
		"AAs ", "IDs of the AAs", "list PRs in the repo", "e-mail my cfg", "lat/long 48.8584, 2.2945", "call +49 170 1234567",
		"how many rows in the orders table", "set x in the t table", "why slow: SELECT * FROM x WHERE a = 1. ok", "SELECT FROM",
		"INSERT INTO", "will it snow", "book a table tonight at 7", "move it to Friday at 3", "#moveA00 ABAAAAAAA 0am",
		"What's in ~/Downloads?", "~/", "/", "a.txt /var/log/ src/app.ts", ".txt ~/. /../", "comment on the PR", "dm the db",
		// The fourteenth session's: a message on a tracker's item, an
		// opening "open a", a thing worn, everyday words of other names.
		"tell them on PR #9 that", "let issue 8 know", "reply on #", "reply on OPS-1 that", "open an", "need a coat",
		"coat", "check the mail for a warning", "how big is", "tickets bugs",
		// The sixteenth session's: hedges, one of them a time word.
		"is it still open", "anywhere decent near Zorblax still", "Monday still",
	} {
		f.Add(s)
	}
	ix := NewIndex(testDocs)
	f.Fuzz(func(t *testing.T, s string) {
		q, err := query.Parse(s)
		if err != nil {
			return
		}
		res := ix.Keyword(q, Options{Limit: 5})
		checkScores(t, ix, res)
		checkCoverage(t, s, res)
		// The verb expansion and the synonyms' coverage (Options.Expand,
		// CoverageVerbs), into a buffer with stale hits (Options.Hits):
		// scores as ever, WordCoverage and Coverage no lower (an acronym's
		// plural the catalog knows as one word, "IDs", reads as that word:
		// queryWord.alt).
		buf := []Hit{{ID: -1, Score: 9, Explain: "stale"}, {ID: 1 << 30}}
		ex := ix.Keyword(q, Options{Limit: 5, Expand: true, CoverageVerbs: VerbSynonyms, Hits: buf})
		checkScores(t, ix, ex)
		checkCoverage(t, s, ex)
		if ex.WordCoverage < res.WordCoverage-1e-9 || ex.Coverage < res.Coverage-1e-9 {
			t.Errorf("Keyword(%q) with Expand and CoverageVerbs: coverage %v/%v, without %v/%v", s, ex.Coverage, ex.WordCoverage, res.Coverage, res.WordCoverage)
		}
		// A path's or a file's kind words (Options.PathKinds).
		checkScores(t, ix, ix.Keyword(q, Options{Limit: 5, Expand: true, PathKinds: true}))
		fres, _ := ix.Fuzzy(q, Options{Limit: 5})
		checkScores(t, ix, fres)
		ix.Regex(s, Options{Limit: 5})
	})
}

// checkCoverage checks that res's coverages are shares, in [0, 1] (a
// word left out of WhenCoverage at more weight than Coverage counted it
// with made it exceed 1).
func checkCoverage(t *testing.T, q string, res Result) {
	t.Helper()
	for _, c := range []float64{res.Coverage, res.WhenCoverage, res.WordCoverage} {
		if c < 0 || c > 1+1e-9 {
			t.Errorf("Keyword(%q): Coverage %v, WhenCoverage %v, WordCoverage %v: want each in [0, 1]", q, res.Coverage, res.WhenCoverage, res.WordCoverage)
			return
		}
	}
}

// TestExplainOption checks that Options.Explain fills Hit.Explain in every
// mode, leaves it empty otherwise, and changes nothing else.
func TestExplainOption(t *testing.T) {
	ix := NewIndex(testDocs)
	search := map[string]func(o Options) Result{
		"keyword":       func(o Options) Result { return ix.Keyword(mustParse(t, "send a slack message"), o) },
		"keyword exact": func(o Options) Result { return ix.Keyword(mustParse(t, "weather__get_forecast"), o) },
		"keyword list":  func(o Options) Result { return ix.Keyword(mustParse(t, "server:slack"), o) },
		"fuzzy": func(o Options) Result {
			r, _ := ix.Fuzzy(mustParse(t, "wether forcast"), o)
			return r
		},
		"fuzzy name": func(o Options) Result {
			r, _ := ix.Fuzzy(mustParse(t, "get_wether"), o)
			return r
		},
		"regex": func(o Options) Result {
			r, err := ix.Regex("issue", o)
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
		"select": func(o Options) Result { return ix.Select([]string{"slack__send_message"}, o) },
	}
	for name, run := range search {
		t.Run(name, func(t *testing.T) {
			with, without := run(Options{Limit: 5, Explain: true}), run(Options{Limit: 5})
			if len(with.Hits) == 0 {
				t.Fatal("no hits")
			}
			for i, h := range with.Hits {
				if h.Explain == "" {
					t.Errorf("hit %d (%s): empty Explain with Options.Explain", i, ix.Name(h.ID))
				}
				with.Hits[i].Explain = ""
			}
			for i, h := range without.Hits {
				if h.Explain != "" {
					t.Errorf("hit %d (%s): Explain %q without Options.Explain", i, ix.Name(h.ID), h.Explain)
				}
			}
			if diff := cmp.Diff(with, without); diff != "" {
				t.Errorf("results differ apart from Explain (-explain +no explain):\n%s", diff)
			}
		})
	}
}

// TestKeywordConcurrentCache runs queries from several goroutines on one
// index (sharing its query-word cache) and checks every result against the
// same query on a fresh index.
func TestKeywordConcurrentCache(t *testing.T) {
	queries := []string{
		"send a slack message", "weather forecast for my city", "close the GitHub issue",
		"multiply numbers", "搜索关键词", "log out user", "+weather -forecast", "sla",
		"Weather? forecast!", "getorderbyid please", "unknownword weather",
	}
	qs := make([]query.Query, len(queries))
	want := make([]Result, len(queries))
	for i, s := range queries {
		qs[i] = mustParse(t, s)
		want[i] = NewIndex(testDocs).Keyword(qs[i], Options{Limit: 5, Explain: true})
	}
	ix := NewIndex(testDocs)
	errs := make(chan string, 8*len(queries))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(queries)
				got := ix.Keyword(qs[i], Options{Limit: 5, Explain: true})
				if diff := cmp.Diff(want[i], got); diff != "" {
					errs <- queries[i] + " (-fresh +shared):\n" + diff
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestKeywordFormedValueWords checks that the words of an argument value
// whose form says its kind (a file, a path, an e-mail address) rank below
// the request's own words (formedWeight): "draft" of a file's name does
// not make the drafting tool the answer to a rename, and the value's words
// still count when nothing else matches.
func TestKeywordFormedValueWords(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "files__move_file", Description: "Move or rename a file or directory."},
		{Name: "email__create_draft", Description: "Save an email as a draft without sending it."},
		{Name: "notes__get_note", Description: "Read a note by its title."},
	})
	tests := []struct {
		query string
		want  string // the first hit
	}{
		{"rename report-draft.docx to report-final.docx", "files__move_file"},
		{"rename ~/Documents/draft-final.docx to contract.docx", "files__move_file"},
		{"draft.txt", "email__create_draft"}, // only the value's words: they still rank
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := ix.Keyword(mustParse(t, tt.query), Options{Limit: 3})
			if got := names(ix, res); len(got) == 0 || got[0] != tt.want {
				t.Errorf("Keyword(%q) = %v, want %s first", tt.query, got, tt.want)
			}
			checkScores(t, ix, res)
		})
	}
}
