package fallback

import (
	"fmt"
	"math/rand"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// suiteRegexes are the regex-mode patterns of the repository's tests and
// benchmarks (fallback, search, cmd/toolsearch), run through both paths by
// TestRegexIndexMatchesScan.
var suiteRegexes = []string{
	// fallback/fallback_test.go
	"issue$", "WEATHER", "(?-i)WEATHER", "channel", "get_*", "*_issue", "orderid", "a(b", "issue", "x",
	// search/engine_test.go, cmd/toolsearch/main_test.go
	"weather__get_*", "^git__", "^github__", "slack__*", "send_.*message", "(?i)slack",
	// the bench's regex patterns (cmd/toolsearch synthetic catalogs)
	"create_.*ticket", "^jira__", "_issue$", "(list|search)_users?", "invoice", "get_[a-z]+_by_id",
}

// unicodeDocs exercise case folding beyond ASCII: the Kelvin sign and the
// long s fold with k and s under (?i); Σ has three case forms; invalid
// UTF-8 reads as U+FFFD.
var unicodeDocs = []Document{
	{Name: "physics__kelvin_convert", Description: "Convert 300 \u212a (Kelvin sign) to Celsius.", ParamNames: []string{"Temperature"}},
	{Name: "old__ſpelling", Description: "Long ſ as in \u017ftreet; Greek ΣΊΣΥΦΟΣ σίσυφος ς."},
	{Name: "bytes__raw", Description: "Invalid \xff\xfe bytes and the replacement \ufffd rune.", ParamNames: []string{"İstanbul", "ß"}},
	{Name: "KELVIN__Search_USERS", Description: "SEARCH Users By Email.", ParamNames: []string{"EMAIL_ADDRESS"}},
	{Name: "lab__read_Kelvins", Description: "Read KELVINS from the ſtreet sensor."},
}

// unicodePatterns match unicodeDocs only through case folding (or invalid
// UTF-8): each would be lost by an index that did not fold both sides.
var unicodePatterns = []string{
	"kelvins", "(?i)KELVINS", "(?-i)Kelvins", "street", "STREET", "ſtreet", "ſpelling", "spelling",
	"σίσυφος", "ΣΊΣΥΦΟΣ", "ςίςυφος", `replacement \x{fffd}`, `invalid \x{fffd}`, `\x{fffd}\x{fffd} bytes`, "İstanbul", "read_kel",
}

// requireBenchDocs loads the first n tools of a bench catalog; missing
// data skips the test, or fails it when CI=true (evaltest.Bench).
func requireBenchDocs(t *testing.T, path string, n int) []Document {
	t.Helper()
	docs := loadBenchDocs(t, path)
	return docs[:min(n, len(docs))]
}

// generatedPatterns draws n regex patterns, deterministic in seed, from the
// words of docs and the RE2 operators: literals of every length in mixed
// case, anchors, ".", ".*", classes, alternations, repeats, optional parts,
// case flags, escapes, globs, non-ASCII runes, and invalid patterns.
func generatedPatterns(docs []Document, n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	var words []string
	for _, d := range docs {
		words = append(words, strings.FieldsFunc(d.Name+" "+d.Description+" "+strings.Join(d.ParamNames, " "), func(c rune) bool {
			return c == ' ' || c == '.' || c == ',' || c == '(' || c == ')'
		})...)
	}
	word := func() string {
		w := words[r.Intn(len(words))]
		if r.Intn(3) == 0 && len(w) > 2 { // a piece of a word, 1+ bytes
			i := r.Intn(len(w) - 1)
			w = w[i : i+1+r.Intn(len(w)-i)]
		}
		switch r.Intn(5) {
		case 0:
			w = strings.ToUpper(w)
		case 1:
			w = strings.ToTitle(w[:1]) + w[1:]
		}
		return w
	}
	quote := func(w string) string {
		if r.Intn(4) == 0 {
			return w // unescaped: its "." or "+" become operators, or it fails to parse
		}
		return regexpQuote(w)
	}
	var atom func(depth int) string
	atom = func(depth int) string {
		switch k := r.Intn(20); {
		case k < 8:
			return quote(word())
		case k < 9:
			return "."
		case k < 10:
			return []string{"[a-c]", "[bc]", "[^x]", `\d`, `\w`, "[_-]", "[kK]", "[s-t]", `\s`, "[[:alpha:]]", "[ſk]", "[Σσ]"}[r.Intn(12)]
		case k < 11:
			return []string{"K", "ſ", "ς", "İ", "\ufffd", "ß", "σ", "搜索"}[r.Intn(8)]
		case k < 13 && depth < 3:
			alts := []string{atom(depth + 1)}
			for range 1 + r.Intn(3) {
				alts = append(alts, atom(depth+1))
			}
			return "(" + strings.Join(alts, "|") + ")"
		case k < 15 && depth < 3:
			return "(" + atom(depth+1) + atom(depth+1) + ")" + []string{"?", "*", "+", "{2}", "{1,3}", "{0,2}", ""}[r.Intn(7)]
		default:
			return quote(word())
		}
	}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		switch r.Intn(12) {
		case 0:
			b.WriteString("(?-i)")
		case 1:
			b.WriteString("(?i)")
		case 2: // a glob
			parts := []string{"*", word(), "*"}
			if r.Intn(2) == 0 {
				parts = []string{word(), "_*"}
			}
			out = append(out, strings.Join(parts, ""))
			continue
		}
		if r.Intn(5) == 0 {
			b.WriteString("^")
		}
		for range 1 + r.Intn(3) {
			b.WriteString(atom(0))
			if r.Intn(4) == 0 {
				b.WriteString([]string{".*", ".", "_", `\b`, " ", ".+"}[r.Intn(6)])
			}
		}
		if r.Intn(5) == 0 {
			b.WriteString("$")
		}
		if p := b.String(); len(p) <= MaxPatternLength {
			out = append(out, p)
		}
	}
	return out
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestRegexIndexMatchesScan is the trigram index's contract: for every
// regex of the test suite and 1,000 generated patterns, on a catalog of
// test, Unicode and 300 StableToolBench tools (40 under -race, which slows
// RE2 ~20x; CI runs it so), Regex with the index returns exactly what
// matching every tool returns (hits, scores, order, totals, explanations,
// errors), also under a scope and a limit (every fourth pattern). It also
// checks that most patterns are answered from the index, so the
// comparison is not vacuous.
func TestRegexIndexMatchesScan(t *testing.T) {
	bench := 300
	if raceEnabled {
		bench = 40
	}
	docs := slices.Concat(testDocs, unicodeDocs, requireBenchDocs(t, benchCatalog, bench))
	ix := NewIndex(docs)
	patterns := slices.Concat(suiteRegexes, unicodePatterns, generatedPatterns(docs, 1000, 1))
	scoped := Options{Limit: 7, Explain: true, Allow: func(id int) bool { return id%3 != 1 }}
	var indexed, parsed int
	for i, p := range patterns {
		opts := []Options{{Explain: true}}
		if i%4 == 0 {
			opts = append(opts, scoped)
		}
		for _, o := range opts {
			want, wantErr := ix.regex(p, o, false)
			got, gotErr := ix.regex(p, o, true)
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Fatalf("Regex(%q): error %v with the index, %v by scanning", p, gotErr, wantErr)
			}
			if wantErr == nil && !want.Scanned {
				t.Fatalf("Regex(%q) by scanning: Scanned not set", p)
			}
			want.Scanned = got.Scanned
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("Regex(%q, %+v): the index changes the result (-scan +index):\n%s", p, o, diff)
			}
		}
		if r, err := ix.Regex(p, Options{}); err == nil {
			parsed++
			if !r.Scanned {
				indexed++
			}
		}
	}
	t.Logf("%d patterns (%d valid), %d answered from the trigram index", len(patterns), parsed, indexed)
	if indexed < parsed/2 {
		t.Errorf("only %d of %d valid patterns used the trigram index", indexed, parsed)
	}
}

// FuzzRegexIndex checks the same contract on fuzzed patterns and that no
// pattern makes the analysis panic.
func FuzzRegexIndex(f *testing.F) {
	for _, p := range slices.Concat(suiteRegexes, unicodePatterns) {
		f.Add(p)
	}
	f.Add(`(?i)ſ[kK]\x{212a}`)
	ix := NewIndex(slices.Concat(testDocs, unicodeDocs))
	f.Fuzz(func(t *testing.T, p string) {
		want, wantErr := ix.regex(p, Options{Explain: true}, false)
		got, gotErr := ix.regex(p, Options{Explain: true}, true)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Fatalf("Regex(%q): error %v with the index, %v by scanning", p, gotErr, wantErr)
		}
		want.Scanned = got.Scanned
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Regex(%q): the index changes the result (-scan +index):\n%s", p, diff)
		}
	})
}

// TestRegexQuery pins the analysis on hand-checked patterns: q renders the
// query with trigrams as folded text, "+" for AND, "|" for OR, "*" for no
// constraint.
func TestRegexQuery(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"issue", "ISS+SSU+SUE"},
		{"(?i)IsSuE", "ISS+SSU+SUE"},
		{"(?-i)issue", "ISS+SSU+SUE"},
		{"is", "*"},
		{".*", "*"},
		{`\d+`, "*"},
		{"^get_", "GET+ET_"},
		{"issue$", "ISS+SSU+SUE"},
		{"get_.*issue", "GET+ET_+ISS+SSU+SUE"},
		{"[bc]at", "(BAT|CAT)"},
		{"(get|list)_user", "(GET+ET_+T_U+_US+USE+SER|LIS+IST+ST_+T_U+_US+USE+SER)"},
		{"colou?r", "(COL+OLO+LOR|COL+OLO+LOU+OUR)"},
		{"a|issue", "*"},
		{"(abc)+d", "ABC"},
		{"x*abc", "ABC"},
		{"(ab){2}", "ABA+BAB"},
		{"[a-z]+_id", "_ID"},
		{"(?i)kelvin", "KEL+ELV+LVI+VIN"},
		{"\u212aelvin", "KEL+ELV+LVI+VIN"}, // the Kelvin sign folds to K
		{"ſend", "SEN+END"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			re, err := syntax.Parse(tt.pattern, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			if got := renderQuery(regexQuery(re)); got != tt.want {
				t.Errorf("query = %s, want %s", got, tt.want)
			}
		})
	}
}

func renderQuery(q *gramQuery) string {
	if q.all {
		return "*"
	}
	var parts []string
	for _, g := range q.grams {
		parts = append(parts, string([]byte{byte(g >> 16), byte(g >> 8), byte(g)}))
	}
	for _, s := range q.sub {
		parts = append(parts, renderQuery(s))
	}
	if q.or {
		return "(" + strings.Join(parts, "|") + ")"
	}
	return strings.Join(parts, "+")
}

func TestIntersect(t *testing.T) {
	tests := []struct{ a, b, want []int32 }{
		{nil, []int32{1, 2}, nil},
		{[]int32{1, 2}, nil, nil},
		{[]int32{1, 5, 9}, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int32{1, 5, 9}},
		{[]int32{0, 100}, []int32{1, 2, 3, 100}, []int32{100}},
		{[]int32{3}, []int32{1, 2}, nil},
		{[]int32{2, 4, 6, 8, 10, 12}, []int32{1, 4, 5, 6, 7, 12, 13}, []int32{4, 6, 12}},
	}
	for _, tt := range tests {
		got := intersect(slices.Clone(tt.a), tt.b)
		if !slices.Equal(got, tt.want) {
			t.Errorf("intersect(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[rune]rune{'a': 'A', 'A': 'A', 'k': 'K', '\u212a': 'K', 'ſ': 'S', 's': 'S', 'σ': 'Σ', 'ς': 'Σ', '1': '1', '搜': '搜'} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}
