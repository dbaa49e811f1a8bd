package query

import (
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Query
		wantErr error
	}{
		{in: "send slack", want: Query{Terms: []Term{{Text: "send"}, {Text: "slack", Prefix: true}}}},
		{in: "send slack ", want: Query{Terms: []Term{{Text: "send"}, {Text: "slack"}}}},
		{in: "weather?", want: Query{Terms: []Term{{Text: "weather?"}}}},
		{in: `+crypto -"nft art" price`, want: Query{Terms: []Term{{Text: "crypto", Required: true}, {Text: "nft art", Excluded: true}, {Text: "price", Prefix: true}}}},
		{in: "a = 3, b = -11 +1 555", want: Query{Terms: []Term{{Text: "a"}, {Text: "="}, {Text: "3,"}, {Text: "b"}, {Text: "="}, {Text: "-11"}, {Text: "+1"}, {Text: "555", Prefix: true}}}},
		{in: "issue server:github Category:Developer", want: Query{Terms: []Term{{Text: "issue"}}, Servers: []string{"github"}, Categories: []string{"Developer"}}},
		{in: `server:"Bing CN" search`, want: Query{Terms: []Term{{Text: "search", Prefix: true}}, Servers: []string{"Bing CN"}}},
		{in: "select:get_weather, send_message", want: Query{Select: []string{"get_weather", "send_message"}}},
		{in: "select: git__add", want: Query{Select: []string{"git__add"}}},
		{in: "SELECT:  git__add ,git__log , x  weather", want: Query{Select: []string{"git__add", "git__log", "x"}, Terms: []Term{{Text: "weather", Prefix: true}}}},
		{in: "select:a b", want: Query{Select: []string{"a"}, Terms: []Term{{Text: "b", Prefix: true}}}},
		{in: "select: ", wantErr: ErrInvalid},
		{in: "select:a,b,,c", want: Query{Select: []string{"a", "b", "c"}}},
		{in: "`slack__send_message`", want: Query{Terms: []Term{{Text: "slack__send_message"}}}},
		{in: `"unterminated quote`, want: Query{Terms: []Term{{Text: "unterminated quote"}}}},
		{in: "Category: books", want: Query{Terms: []Term{{Text: "Category:"}, {Text: "books", Prefix: true}}}},
		{in: "", want: Query{}},
		{in: "select:", wantErr: ErrInvalid},
		{in: "select:, ,", wantErr: ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Parse(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			tt.want.Raw = tt.in
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseRegex(t *testing.T) {
	tests := []struct {
		in, pattern string
		required    []string
		excluded    []string
		servers     []string
		selected    []string
	}{
		{in: "get_.*", pattern: "get_.*"},
		{in: "+github create|open", pattern: "create|open", required: []string{"github"}},
		{in: "issue -jira server:github", pattern: "issue", excluded: []string{"jira"}, servers: []string{"github"}},
		{in: "select:github__create_issue", selected: []string{"github__create_issue"}},
		{in: "select: git__add, git__log", selected: []string{"git__add", "git__log"}},
		{in: "select:a ,b c|d", pattern: "c|d", selected: []string{"a", "b"}},
		{in: `\-verbose a+b`, pattern: `\-verbose a+b`},
		{in: "send  message|post", pattern: "send message|post"},
		{in: "server: x", pattern: "server: x"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			pattern, q, err := ParseRegex(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var req, exc []string
			for _, term := range q.Terms {
				switch {
				case term.Required:
					req = append(req, term.Text)
				case term.Excluded:
					exc = append(exc, term.Text)
				default:
					t.Errorf("plain term %q among the operators", term.Text)
				}
			}
			got := []any{pattern, req, exc, q.Servers, q.Select, q.Raw}
			want := []any{tt.pattern, tt.required, tt.excluded, tt.servers, tt.selected, tt.in}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseRegex(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestQueryHelpers(t *testing.T) {
	tests := []struct {
		in          string
		filters     bool
		rankingText string
	}{
		{in: "send slack message", rankingText: "send slack message"},
		{in: "issue -jira", filters: true, rankingText: "issue"},
		{in: "+github issue", filters: true, rankingText: "github issue"},
		{in: "server:slack", filters: true},
		{in: "category:x send", filters: true, rankingText: "send"},
		{in: `"two words" here`, rankingText: "two words here"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.HasFilters(); got != tt.filters {
				t.Errorf("HasFilters() = %v, want %v", got, tt.filters)
			}
			if got := q.RankingText(); got != tt.rankingText {
				t.Errorf("RankingText() = %q, want %q", got, tt.rankingText)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		in    string
		glob  bool
		regex string
	}{
		{"get_*", true, `(?i)^get_.*$`},
		{"*_issue", true, `(?i)^.*_issue$`},
		{"slack__*", true, `(?i)^slack__.*$`},
		{"mcp:srv/tool-*", true, `(?i)^mcp:srv/tool-.*$`},
		{"get_.*", false, ""},
		{"get_weather", false, ""},
		{"a b*", false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := IsGlob(tt.in); got != tt.glob {
				t.Fatalf("IsGlob(%q) = %v, want %v", tt.in, got, tt.glob)
			}
			if tt.glob {
				if got := GlobToRegex(tt.in); got != tt.regex {
					t.Errorf("GlobToRegex(%q) = %q, want %q", tt.in, got, tt.regex)
				}
			}
		})
	}
}

func TestExactText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"github__create_issue", "github__create_issue"},
		{"  `github__create_issue` ", "github__create_issue"},
		{`" get_weather "`, "get_weather"},
		{`"mismatched`, `"mismatched`},
		{"`", "`"},
		{`""`, ""},
	}
	for _, tt := range tests {
		if got := ExactText(tt.in); got != tt.want {
			t.Errorf("ExactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParse checks that parsing never panics, that errors wrap ErrInvalid,
// that terms are non-empty and never both required and excluded, that at
// most the last term is a prefix, and that ParseRegex keeps every word of the query
// in either the pattern or the operators.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"send slack", `+crypto -"nft art" price`, "server:github issue", "select:a,b", "select:",
		"`slack__send_message`", `"unterminated`, "a = 3, b = -11", "category:\"x y\" +", "-", "+\"", "搜索 sla",
		"select:git__add, git__log", "weather__get_*", "^git__(add|commit)$ -jira",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrInvalid", s, err)
			}
		} else {
			if q.Raw != s {
				t.Fatalf("Raw = %q, want %q", q.Raw, s)
			}
			for i, term := range q.Terms {
				if term.Text == "" || term.Required && term.Excluded || term.Prefix && i != len(q.Terms)-1 {
					t.Fatalf("Parse(%q): bad term %d %+v", s, i, term)
				}
			}
			_ = q.String()
			checkRankingQuery(t, q)
		}
		pattern, rq, err := ParseRegex(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseRegex(%q) error %v does not wrap ErrInvalid", s, err)
			}
			return
		}
		if rq.Raw != s {
			t.Fatalf("ParseRegex(%q): Raw = %q", s, rq.Raw)
		}
		if len(pattern) > len(s) {
			t.Fatalf("ParseRegex(%q): pattern %q longer than the query", s, pattern)
		}
		if IsGlob(pattern) {
			_ = GlobToRegex(pattern)
		}
		_ = ExactText(s)
	})
}

// checkRankingQuery fails t unless q.RankingQuery gives what Parse gives
// for q's ranking text, field for field.
func checkRankingQuery(t *testing.T, q Query) {
	t.Helper()
	text := q.RankingText()
	want, werr := Parse(text)
	got, gerr := q.RankingQuery(text)
	if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q.RankingQuery(%q) = %#v, %v; Parse gives %#v, %v", q.Raw, text, got, gerr, want, werr)
	}
}

// TestRankingQuery checks RankingQuery against Parse on queries whose
// words parse back as themselves and on ones that do not (quoted phrases,
// operators, keys, a trailing space, a quoted "select:").
func TestRankingQuery(t *testing.T) {
	for _, s := range []string{
		"", "send slack", "send slack ", "send slack!", "weather in 東京", "+crypto -\"nft art\" price",
		"server:github issue", "category:\"x y\" +", `"select:" x`, `"+abc" def`, `"a:b" c`,
		"`slack__send_message`", `"unterminated`, "a = 3, b = -11", "-", "+\"", "搜索 sla", "-only",
		`"two words"`, "http://example.com/x y", "x -y", "x-ray 12", `"server:" github`, "ok\u00a0x",
	} {
		q, err := Parse(s)
		if err != nil {
			continue
		}
		checkRankingQuery(t, q)
	}
}

func TestIsPattern(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"weather__get_*", true},
		{"*_issue", true},
		{"^git__(add|commit)$", true},
		{"slack|message", true},
		{"get_.*", true},
		{`\bsend\b`, true},
		{"[sS]lack", true},
		{"issue$", true},
		{"*", false},
		{"send slack message", false},
		{"weather__get_* -alerts", false},
		{"c++", false},
		{"node.js", false},
		{"what?", false},
		{"$100", false},
		{"(optional)", false},
		{"a(b|", false},
		{"github__create_issue", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsPattern(tt.in); got != tt.want {
			t.Errorf("IsPattern(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestHasWords(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"a", false},
		{"???", false},
		{"the a of", false},
		{"+", false},
		{"-", false},
		{"server:slack", false},
		{"select:x", false},
		{"-weather", false},
		{"weather", true},
		{"the weather", true},
		{"天气", true},
		{"42", true},
	}
	for _, tt := range tests {
		q, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.HasWords(); got != tt.want {
			t.Errorf("Parse(%q).HasWords() = %v, want %v", tt.in, got, tt.want)
		}
	}
}
