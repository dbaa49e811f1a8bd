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

// TestEverydaySenses: an action verb said in its everyday sense is done
// by a tool that does the plain action (fallback's everydaySenses):
// "wipe" deletes, "correct", "switch", "adjust" and "patch" update,
// "resolve" moves an issue on, "turn X into Y" converts, "cut" a branch
// makes it, a reply on a ticket comments on it; a verb of them
// that is a noun of the request ("release mode") does not count as a
// word the catalog knows (fallback.CoverageSynonyms), and the near miss
// stays flagged.
func TestEverydaySenses(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Wipe note n-12", "notes__delete_note", false},
		{"Discard note n-4410", "notes__delete_note", false},
		{"Correct the date of event evt-5521 to Friday", "calendar__update_event", false},
		{"Switch event evt-5521 to Friday at 3pm", "calendar__update_event", false},
		{"Adjust the time of event evt-5521 to 4pm", "calendar__update_event", false},
		{"Patch note n-12 with the new address", "notes__update_note", false},
		{"Resolve PLAT-3301", "jira__transition_issue", false},
		{"Cut a new branch release/2.0 off main in ~/repos/portal", "git__create_branch", false},
		{"Reply on PLAT-12 that QA passed", "jira__add_comment", false},
		{"Turn '59.91, 10.75' into a street address", "", false},
		{"Build ~/code/rt in release mode with cargo", "", true},
		{"turn the thermostat down to 19 degrees", "", true},
	})
}

// TestStepComplement: the words after "it" or "them" right after a later
// step's verb are the value it gives the thing named before (complement),
// not a thing a tool must have: notes__create_note, which takes tags,
// serves "... and tag it travel" though it has no word "travel".
func TestStepComplement(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Create a note titled 'trip' and tag it travel", "notes__create_note", false},
		// "them" as "it" (referentPronouns)
		{"Find my notes about Lisbon and tag them travel", "", false},
		// The unserved task reads a step's complement so too.
		{"File a bug on acme/widgets: the export button does nothing in Safari, label it browser", "github__create_issue", false},
	})
}
