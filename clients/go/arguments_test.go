package toolsearch

import (
	"testing"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

func TestParseSearchArguments(t *testing.T) {
	const (
		semantic = toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC
		keyword  = toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD
		regex    = toolsearchv1.SearchType_SEARCH_TYPE_REGEX
	)
	for _, tc := range []struct {
		name, args string
		want       SearchArguments
	}{
		{"query only", `{"query":"a"}`, SearchArguments{Query: "a"}},
		{"nulls", `{"query":"a","search_type":null,"max_results":null,"category_filter":null}`, SearchArguments{Query: "a"}},
		{"enum case", `{"query":"a","search_type":"Semantic"}`, SearchArguments{Query: "a", SearchType: semantic}},
		{"enum upper, spaces", `{"query":"a","search_type":" REGEX "}`, SearchArguments{Query: "a", SearchType: regex}},
		{"float", `{"query":"a","search_type":"regex","max_results":7.0}`, SearchArguments{Query: "a", SearchType: regex, MaxResults: 7}},
		{"fraction truncated", `{"query":"a","max_results":3.7}`, SearchArguments{Query: "a", MaxResults: 3}},
		{"number as string", `{"query":"a","search_type":"keyword","max_results":" 3 "}`, SearchArguments{Query: "a", SearchType: keyword, MaxResults: 3}},
		{"float string", `{"query":"a","max_results":"4.0"}`, SearchArguments{Query: "a", MaxResults: 4}},
		{"negative is default", `{"query":"a","max_results":-3}`, SearchArguments{Query: "a"}},
		{"huge clamped", `{"query":"a","max_results":1e12}`, SearchArguments{Query: "a", MaxResults: 2147483647}},
		{"browse, unknown field", `{"query":"","extra":1}`, SearchArguments{}},
		{"category", `{"query":"a","category_filter":"slack"}`, SearchArguments{Query: "a", CategoryFilter: "slack"}},
		{"next page", `{"query":"","page_token":"abc","max_results":10}`, SearchArguments{PageToken: "abc", MaxResults: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSearchArguments([]byte(tc.args))
			if err != nil {
				t.Fatalf("parse(%s): %v", tc.args, err)
			}
			if got != tc.want {
				t.Errorf("parse(%s) = %+v, want %+v", tc.args, got, tc.want)
			}
		})
	}
	for _, bad := range []string{``, `{}`, `[]`, `null`, `{"query":1}`, `{"query":"a","max_results":"many"}`, `{"query":"a","search_type":3}`,
		`{"query":"a","search_type":"vector"}`, `{"query":"a","category_filter":[]}`, `{"query":"","page_token":3}`} {
		if _, err := ParseSearchArguments([]byte(bad)); err == nil {
			t.Errorf("parse(%s): no error", bad)
		}
	}
}

// Whatever the model sends, parsing never panics, and a parsed call has a
// known search type and a non-negative max_results.
func FuzzParseSearchArguments(f *testing.F) {
	for _, s := range []string{`{"query":"a"}`, `{"query":"a","max_results":"7","search_type":"REGEX"}`, `{"query":1}`, `[]`, `null`, `{"query":"a","max_results":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		got, err := ParseSearchArguments([]byte(args))
		if err != nil {
			return
		}
		if got.MaxResults < 0 {
			t.Errorf("MaxResults %d", got.MaxResults)
		}
		if _, ok := toolsearchv1.SearchType_name[int32(got.SearchType)]; !ok {
			t.Errorf("search type %v", got.SearchType)
		}
	})
}
