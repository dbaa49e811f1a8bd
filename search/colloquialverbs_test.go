package search_test

import (
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// Colloquial verbs rank the tools of the plain verbs they stand for
// (fallback's verbSynonyms, expanded when they open a request).

// TestWriteUp: "write up" composes a message (fallback's verbSynonyms:
// draft, compose, create), it writes no file: "Write up an email …, but
// leave it unsent" is email__create_draft's, not filesystem__write_file's.
func TestWriteUp(t *testing.T) {
	firstTools(t, []firstCase{
		{"Write up an email to pat@example.com about the venue change, but leave it unsent for now", search.ModeDefault, "email__create_draft"},
		{"Write up an email to pat@example.com about the venue change, but leave it unsent for now", search.ModeKeyword, "email__create_draft"},
	})
}

// TestTackAppends: "tack" appends (fallback's verbSynonyms, expanded when
// it opens a request): "Tack '…' onto the end of note n-77" is
// notes__update_note's ("Replace or append to the content …").
func TestTackAppends(t *testing.T) {
	firstTools(t, []firstCase{
		{"Tack 'buy oat milk' onto the end of note n-77", search.ModeDefault, "notes__update_note"},
		{"Tack 'buy oat milk' onto the end of note n-77", search.ModeKeyword, "notes__update_note"},
	})
}

// TestRenameUpdates: to rename a thing is to change its name or title
// (fallback.VerbSynonyms: update, change), which a tool that changes the
// thing does; a thing no tool changes stays unserved.
func TestRenameUpdates(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Rename event evt-5521 to 'Quarterly review'", "calendar__update_event", false},
		{"Rename note n-99 to 'Weekly plan'", "notes__update_note", false},
		{"Rename the #old-project channel to #archive-2024", "", true},
	})
}
