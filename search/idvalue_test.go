package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestIDValueRanksIDTakers: a request that names an existing thing by a
// noun and an identifier ranks the tools that take that thing's identifier
// (note_id) over the tools that make such things or share the request's
// other words (notes__create_note). Each fails
// without the rule (valueTakers' identifiers).
func TestIDValueRanksIDTakers(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	for _, tc := range []struct{ query, want string }{
		{"add a second paragraph to note n_88 about the budget", "notes__update_note"},
		{"pull up note n_301", "notes__get_note"},
	} {
		for _, m := range []search.Mode{search.ModeKeyword, search.ModeDefault} {
			res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: m, MaxResults: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != tc.want {
				t.Errorf("%q (%s): top %v, want %s first", tc.query, m, res.References, tc.want)
			}
		}
	}
}

// TestIdentifier: the identifiers the rule reads, and the numbers, times
// and values of a kind it does not.
func TestIdentifier(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"add a line to note n_4410", []string{"note/id"}},
		{"is issue #1287 in hashicorp/terraform still open?", []string{"issue/number"}},
		{"My one-to-one with Priya (event 7f3k2) moves to Thursday", []string{"event/id"}},
		{"react with :eyes: to message 1732610455.002300", nil}, // a timestamp
		{"meet on Friday 2pm", nil},
		{"move DATA-908 to Done", nil}, // an issue key: a value of its kind
		{"read the note, 4410 words long", nil},
	} {
		if got := search.IDRefsOf(tc.query); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.query, got, tc.want)
		}
	}
}

// TestIdentifierInTable: a request that names a database table as the
// place of its data names a row by its key (idRefsOf, fallback.InTable):
// "user 77" of "change the email of user 77 ... in the members table"
// lifted slack__get_user_profile (user_id) over postgres__execute.
func TestIdentifierInTable(t *testing.T) {
	firstTools(t, []firstCase{
		{"change the email of user 77 to a@b.co in the members table", search.ModeKeyword, "postgres__execute"},
	})
}
