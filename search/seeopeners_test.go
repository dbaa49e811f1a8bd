package search_test

import "testing"

// TestSeeOpeners: a colloquial verb of getting or seeing (fallback.SeeVerb)
// asks to see its object: the tool that reads it is confident, the verb
// counting as known (coverage), "track down" asking for no action (the
// unserved action read "track"), and the writers demoted (seeRequest:
// notes__create_note was first on "dig out the note ...").
func TestSeeOpeners(t *testing.T) {
	topAndFlag(t, []topCase{
		{"track down the email from alice about the contract", "", false},
		{"dig out the note about the kitchen renovation", "", false},
		{"grab the text of https://example.com/post", "fetch__fetch_url", false},
	})
}
