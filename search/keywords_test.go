package search_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// Search-only text (the KeywordsAnnotation and Config.Keywords) finds a
// tool whose name and description lack the words, and never shows up in
// what a search returns.
func TestSearchOnlyKeywords(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "billing__create_doc", Description: "Create a document.", InputSchema: obj,
			Annotations: json.RawMessage(`{"toolsearch/keywords": ["invoice", "receipt"]}`)},
		{Name: "crm__find", Description: "Find a record.", InputSchema: obj},
		{Name: "mail__send", Description: "Send a message.", InputSchema: obj},
	})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{Keywords: map[string]string{"crm__find": "customer lookup"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct{ query, want string }{
		{"invoice", "billing__create_doc"},
		{"receipt", "billing__create_doc"},
		{"customer lookup", "crm__find"},
	} {
		res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: search.ModeKeyword})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) == 0 || res.References[0].Name != tc.want {
			t.Errorf("%q: %+v, want %s first", tc.query, res.References, tc.want)
			continue
		}
		if s := res.References[0].Summary; strings.Contains(s, "invoice") || strings.Contains(s, "customer") {
			t.Errorf("%q: the summary %q shows search-only text", tc.query, s)
		}
	}
}
