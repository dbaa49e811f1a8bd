package search_test

import "testing"

// TestReferentUntaken: a later step that is a verb and a pronoun alone
// ("... and then delete it") acts on the values of the step before it; a
// top tool doing the verb serves it only when it (or a tool below it that
// does the verb) takes a value of their kind: the note and event deleters
// take no issue key and no path. A step that makes something of what was
// read ("... and file it as a bug in Jira project WRK") is no pronoun
// alone, and tools taking the kind serve theirs.
func TestReferentUntaken(t *testing.T) {
	topAndFlag(t, []topCase{
		{"look up OPS-12 and then delete it", "", true},
		{"open ~/drafts/old.txt and delete it", "", true},
		{"look up OPS-77 and transition it", "jira__transition_issue", false},
		{"read ~/notes/todo.md and edit it", "filesystem__edit_file", false},
		{"find the email from bob@acme.io and reply to it", "email__reply_to_email", false},
		{"Read the stack trace in ~/logs/app.log and file it as a bug in Jira project WRK", "", false},
	})
}
