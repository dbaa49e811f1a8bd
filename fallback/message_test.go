package fallback

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKeywordMessageText: a message's text after a verb of saying is a
// value, the text the caller passes (messageTerms): its words rank at
// formedWeight, so the tools that share them do not lead the one that
// says it.
func TestKeywordMessageText(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "github__add_issue_comment", Server: "github", Description: "Add a comment to an existing issue or pull request."},
		{Name: "git__commit", Server: "git", Description: "Record the staged changes."},
	})
	for _, query := range []string{
		"tell them on issue 312 that the staged changes look fine",
		"reply on issue 312 saying the staged changes look fine",
	} {
		firstExpanded(t, ix, mustParse(t, query), "github__add_issue_comment")
	}
}

func TestMessageTerms(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  []bool
	}{
		{"tell #ops that the deploy is done", []bool{false, false, false, true, true, true, true}},
		{"reply saying sounds good, and archive it", []bool{false, false, true, true, false, false, false}},
		{"find the email from Ana and answer that we pay Friday", []bool{false, false, false, false, false, false, false, false, true, true, true}},
		{"show the bugs in MOB that are still unassigned", []bool{false, false, false, false, false, false, false, false, false}}, // a relative clause
		{"tell me the projects that Ada works on", []bool{false, false, false, false, false, false, false, false}},                // asks an answer
		{"Post sending that message to Jane, review what I sent", []bool{false, false, false, false, false, false, false, false, false, false}},
	} {
		q := mustParse(t, tt.query)
		if diff := cmp.Diff(tt.want, messageTerms(q.Raw, q.Terms, nil)); diff != "" {
			t.Errorf("messageTerms(%q) (-want +got):\n%s", tt.query, diff)
		}
	}
}
