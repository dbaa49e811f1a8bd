package search_test

import (
	"github.com/toolsearch/toolsearch/catalog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsearch/toolsearch/search"
)

// TestNegatedVerbs: the action verbs a request rules out are the word
// after a negator (or after its "to") and an -ing form after "without";
// a modal's negation, a light verb and a noun are not read.
func TestNegatedVerbs(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{"Prepare an email to hr@acme.io, but don't send it yet", []string{"send"}},
		{"Write up, but do not send, a message to hr@company.com", []string{"send"}},
		{"archive the logs without deleting them", []string{"delete"}},
		{"remember not to merge the branch", []string{"merge"}},
		{"list the files without opening them", nil}, // a light verb
		{"I can't log in to the portal", nil},        // a modal's negation: what fails
		{"not a word about the budget", nil},
		{"send the report to the team", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, search.NegatedVerbs(tt.raw)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.raw, diff)
		}
	}
}

// TestActionRuledOut: a request that rules out an action (notAsked) is
// not done by the tools that do it: "don't send it" asks for the draft,
// not the sending, in both modes.
func TestActionRuledOut(t *testing.T) {
	firstTools(t, []firstCase{
		{"Get an email to sam@example.com ready about Friday's demo, but don't send it", search.ModeDefault, "email__create_draft"},
		{"Get an email to sam@example.com ready about Friday's demo, but don't send it", search.ModeKeyword, "email__create_draft"},
		{"Prepare an email to the landlord about the boiler repair and do not send it", search.ModeKeyword, "email__create_draft"},
	})
}

// TestActionRuledOutOwnNegation: a tool whose own description rules out
// the action too ("… it does not send it") is not demoted by notAsked: a
// request that does not want the email sent ranks it over the tool that
// sends.
func TestActionRuledOutOwnNegation(t *testing.T) {
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "mail__send_message", Description: "Send an email message to its recipients.",
			InputSchema: []byte(`{"type":"object","properties":{"to":{"type":"string","description":"Recipients."},"body":{"type":"string","description":"Text."}}}`)},
		{Name: "mail__send_preview", Description: "Send a preview of an email message to yourself; it does not send it to the recipients.",
			InputSchema: []byte(`{"type":"object","properties":{"body":{"type":"string","description":"Text."}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	firstToolsOn(t, newEngine(t, snap, search.Config{}), []firstCase{
		{"email the newsletter message to the team, but don't send it yet", search.ModeKeyword, "mail__send_preview"},
	})
}
