package search_test

import (
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestSeeReads checks that a request to see something ("find ...",
// "show ...", "list ...") is answered by a tool that reads, not by one
// that writes (seerequest.go): "find the slack message about the outage"
// put slack__send_message first by "slack" and "message", "find the note
// with my packing list" notes__create_note. A later clause that asks for
// a change keeps its writer ("... and react to it").
func TestSeeReads(t *testing.T) {
	firstTools(t, []firstCase{
		{"find the note with my packing list", search.ModeKeyword, "notes__search_notes"},
		{"find the note with my packing list", search.ModeDefault, "notes__get_note"},
		{"find the slack message about the outage in #ops", search.ModeDefault, "slack__get_channel_history"},
		{"find the slack message about the outage in #ops", search.ModeKeyword, "slack__get_channel_history"},
		{"find Maria's message in #ops and react to it with :eyes:", search.ModeDefault, "slack__add_reaction"},
	})
}
