package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolFrames: a description's sentences that open with a verb say
// what it acts on and the preposition after it.
func TestToolFrames(t *testing.T) {
	for _, c := range []struct {
		desc string
		want []verbFrame
	}{
		{"Add a comment to an existing issue or pull request in a GitHub repository.", []verbFrame{{"add", "comment", "to", ""}}},
		{"Create a new issue in a GitHub repository with a title, body, labels and assignees. Returns the issue number and URL.", []verbFrame{{"create", "issue", "in", ""}, {"return", "number", "", ""}}},
		{"Replace or append to the content of an existing note, or change its title and tags.", nil}, // two verbs, no object of the first
		{"Delete a calendar event. Attendees are notified that the event was cancelled.", []verbFrame{{"delete", "event", "", ""}}},
		{"Move a note to the trash. It can be restored from the trash for 30 days.", []verbFrame{{"move", "note", "to", "trash"}}},
		{"Send a message to a Slack channel or a direct message to a user.", []verbFrame{{"send", "message", "to", ""}}},
		{"", nil},
	} {
		if diff := cmp.Diff(c.want, toolFrames(c.desc), cmp.AllowUnexported(verbFrame{})); diff != "" {
			t.Errorf("toolFrames(%q) (-want +got):\n%s", c.desc, diff)
		}
	}
}
