package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestStandard(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"snake", "get_current_weather", []string{"get", "current", "weather"}},
		{"dots and camel", "AbstractJarAgent.runJarAgent", []string{"abstract", "jar", "agent", "run", "jar", "agent"}},
		{"mcp separator and kebab", "slack__send_message trends-hub", []string{"slack", "send", "messag", "trend", "hub"}},
		{"acronyms", "getHTTPResponse JSONParser", []string{"get", "http", "respons", "json", "parser"}},
		{"digits stay", "mp3ToWav base64Encode sha256", []string{"mp3", "wav", "base64", "encod", "sha256"}},
		{"stop words and stems", "Can you search the forecasts for me?", []string{"search", "forecast"}},
		{"contractions", "I'm sure we'll don't", []string{"sure"}},
		{"han bigrams", "搜索关键词", []string{"搜索", "索关", "关键", "键词"}},
		{"han unigram", "天", []string{"天"}},
		{"mixed scripts", "用Go写代码", []string{"用", "go", "写代", "代码"}},
		{"kana", "ポケモンGO", []string{"ポケ", "ケモ", "モン", "go"}},
		{"hangul", "날씨 예보", []string{"날씨", "예보"}},
		{"accents kept", "Café Zürich", []string{"café", "zürich"}},
		{"invalid utf8", "ab\xffcd", []string{"ab", "cd"}},
		{"empty", "", nil},
		{"only punctuation", " __ -- .. ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Standard().Analyze(tt.text)); diff != "" {
				t.Errorf("Standard().Analyze(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"keeps stop words, no stemming", "Searches the forecasts", []string{"searches", "the", "forecasts"}},
		{"splits identifiers", "getWeather_byCity", []string{"get", "weather", "by", "city"}},
		{"cjk", "天气预报", []string{"天气", "气预", "预报"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Words().Analyze(tt.text)); diff != "" {
				t.Errorf("Words().Analyze(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestSplitCamelCase(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getWeather", []string{"get", "Weather"}},
		{"HTTPResponse", []string{"HTTP", "Response"}},
		{"JSON", []string{"JSON"}},
		{"iPhone", []string{"i", "Phone"}},
		{"mp3ToWav", []string{"mp3", "To", "Wav"}},
		{"lower", []string{"lower"}},
		{"Title", []string{"Title"}},
		{"ABc", []string{"A", "Bc"}},
		{"a\xffB", []string{"a\xffB"}}, // invalid UTF-8: no split, no panic
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, SplitCamelCase.Filter([]string{tt.in})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecompound(t *testing.T) {
	dict := NewStopWords("get", "videos", "by", "tag", "order", "id", "log", "out", "user", "logout")
	f := Decompound(dict.Contains)
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"splits", []string{"getvideosbytag"}, []string{"getvideosbytag", "get", "videos", "by", "tag"}},
		{"fewest parts", []string{"logoutuser"}, []string{"logoutuser", "logout", "user"}},
		{"known word stays", []string{"logout"}, []string{"logout"}},
		{"short stays", []string{"getbyid"[:5]}, []string{"getby"}},
		{"unsplittable stays", []string{"getvideosbyxyz"}, []string{"getvideosbyxyz"}},
		{"non-letters stay", []string{"get_order_by_id"}, []string{"get_order_by_id"}},
		{"order kept", []string{"a", "getorderbyid", "b"}, []string{"a", "getorderbyid", "get", "order", "by", "id", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, f.Filter(slices.Clone(tt.in))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		"running": "run", "forecasts": "forecast", "searching": "search",
		"go": "go", "mp3": "mp3", "café": "café", "2024": "2024",
	}
	for in, want := range tests {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzAnalyze checks that the pipeline never panics and keeps its
// invariants: terms are non-empty, valid UTF-8, lowercase-stable, contain no
// separators, and Standard is word-local over Words (the property fallback
// relies on to map surface words to terms).
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"get_current_weather", "AbstractJarAgent.runJarAgent", "搜索关键词 and 天", "I'm sure",
		"ポケモンGO", "ab\xffcd", "İstanbul ǅemal", "HTTPResponse", "mp3ToWav", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		std := Standard().Analyze(text)
		ws := Words().Analyze(text)
		for _, term := range append(slices.Clone(std), ws...) {
			if term == "" {
				t.Fatalf("empty term from %q", text)
			}
			if !utf8.ValidString(term) {
				t.Fatalf("invalid UTF-8 term %q from %q", term, text)
			}
			if strings.ContainsAny(term, " _-.\t\n") {
				t.Fatalf("separator in term %q from %q", term, text)
			}
		}
		var viaWords []string
		for _, w := range ws {
			viaWords = append(viaWords, Standard().Analyze(w)...)
		}
		if diff := cmp.Diff(std, viaWords, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Standard(%q) differs from Standard over Words (-direct +via words):\n%s", text, diff)
		}
	})
}
