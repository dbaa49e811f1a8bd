package search_test

import (
	"context"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestPathValueRanksPathTakers: a short request that acts on a local path
// or a file name ranks the tools whose parameters take one (boostPathTakers)
// ahead of the tools whose text shares the value's words or the request's
// other words: e-mail's draft for "save ... to greeting.txt", the database
// for "how big is backup.tar", the notes for "/srv/uploads".
func TestPathValueRanksPathTakers(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	for _, tc := range []struct{ query, want string }{
		{"save 'hello world' to greeting.txt", "filesystem__write_file"},
		{"how big is backup.tar", "filesystem__get_file_info"},
		{"What's in the /srv/uploads folder?", "filesystem__list_directory"},
		{"get src/main.go from acme/api on github", "github__get_file_contents"},
	} {
		res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: search.ModeKeyword, MaxResults: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) == 0 || res.References[0].Name != tc.want {
			t.Errorf("%q: top %v, want %s first", tc.query, res.References, tc.want)
		}
	}
}
