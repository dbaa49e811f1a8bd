package search_test

import "testing"

// TestLightSupport: "drop" and "post" with a new thing that is an
// action's noun mean that action (offerVerbs, lightSupport): "drop a
// comment on OPS-12" comments, as "leave a comment" does; with a thing
// that exists they keep their own sense ("drop the comment" deletes it,
// which no comment tool does), and the words after the noun are its
// object still ("post a comment on my Instagram photo": no tool has it).
func TestLightSupport(t *testing.T) {
	topAndFlag(t, []topCase{
		{"drop a comment on OPS-12 saying the fix is deployed", "jira__add_comment", false},
		{"post a comment on OPS-12 saying the fix is deployed", "jira__add_comment", false},
		{"drop the comment on OPS-12", "", true},
		{"post a comment on my Instagram photo", "", true},
	})
}

// TestThrowAway: "throw away" and "throw out" delete (fallback's
// verbSynonyms, phrasal keys that keyword search and coverage read): the
// deleting tool first and confident, where "throw", which the catalog
// does not know, kept the request under the confident line.
func TestThrowAway(t *testing.T) {
	topAndFlag(t, []topCase{
		{"throw away the duplicate note n-5521", "notes__delete_note", false},
		{"throw out the stale note n-5521", "notes__delete_note", false},
	})
}
