package fallback

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWordMatches checks each ranking word of a query against one tool:
// in the tool (itself or a stem variant), known elsewhere, or unknown;
// stop words and -terms are left out.
func TestWordMatches(t *testing.T) {
	ix := NewIndex(testDocs)
	id, _ := ix.Lookup("slack__send_message")
	got := ix.WordMatches(mustParse(t, "forward the messages to the github team -weather"), id)
	want := []WordMatch{
		{Word: "forward", Weight: 1},
		{Word: "messages", Weight: 1, Known: true, InTool: true, Tools: 1},
		{Word: "github", Weight: 1, Known: true, Tools: 2},
		{Word: "team", Weight: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WordMatches (-want +got):\n%s", diff)
	}
	if got := ix.WordMatches(mustParse(t, "send"), -1); got != nil {
		t.Errorf("WordMatches of an unknown tool ID = %v, want nil", got)
	}
}

// TestHasWord checks one word against one tool's text, with stem variants.
func TestHasWord(t *testing.T) {
	ix := NewIndex(testDocs)
	id, _ := ix.Lookup("github__close_issue")
	for w, want := range map[string]bool{"close": true, "closing": true, "issues": true, "create": false, "the": false, "": false} {
		if got := ix.HasWord(id, w); got != want {
			t.Errorf("HasWord(github__close_issue, %q) = %v, want %v", w, got, want)
		}
	}
	if ix.HasWord(ix.Len(), "close") {
		t.Error("HasWord of an unknown tool ID = true")
	}
}

func TestArgumentWords(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"forward this email to my accountant", nil},
		{"delete the #random slack channel", []string{"random"}},
		{"assign OPS-88 to me", []string{"88", "ops"}},
		{"send 'build is green' to #deploys", []string{"build", "deploys", "green", "is"}},
		{"Invite Dana to the standup. Book room 4", []string{"4", "dana"}},
		{"email bob@acme.io the report.pdf", []string{"acme", "bob", "io", "pdf", "report"}},
		{"read the \"release notes\" file", []string{"notes", "release"}},
		{"send “build is green” to #deploys", []string{"build", "deploys", "green", "is"}},
		{"reply ‘on my way’ to Sam", []string{"my", "on", "sam", "way"}},
		{"", nil},
	} {
		got := slices.Sorted(maps.Keys(argumentWords(c.raw)))
		if !slices.Equal(got, c.want) {
			t.Errorf("argumentWords(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestRequestOpening(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want Opening
	}{
		{"cancel my flight to Oslo", Opening{Verb: "cancel", Object: []string{"my", "flight"}}},
		{"please archive the #old-project channel", Opening{Verb: "archive", Object: []string{"the", "old", "project", "channel"}}},
		{"Can you help me convert 150 Euros to dollars?", Opening{Verb: "convert", Object: []string{"150", "euros"}}},
		{"I'd like to forward this email", Opening{Verb: "forward", Object: []string{"this", "email"}}},
		{"transition OPS-8 to review", Opening{Verb: "transition", Object: []string{"ops", "8"}}},
		{"comment on OPS-12 that the fix is deployed", Opening{Verb: "comment", Text: []string{"the", "fix", "is", "deployed"}}},
		{"jot down a note: call the plumber", Opening{Verb: "jot", Object: []string{"down", "a", "note"}, Text: []string{"call", "the", "plumber"}}},
		{"add a :tada: reaction to the announcement", Opening{Verb: "add", Object: []string{"a", "tada", "reaction"}}},
		{"what's in the downloads folder", Opening{}},
		{"is it windy in Chicago", Opening{}},
		{"please", Opening{}},
		{"", Opening{}},
	} {
		if diff := cmp.Diff(c.want, RequestOpening(c.raw)); diff != "" {
			t.Errorf("RequestOpening(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestCoverageArguments: an argument value by its form (a path, a URL, a
// #channel, a number) that the catalog does not know is left out of
// Result.Coverage; an unknown plain word is not.
func TestCoverageArguments(t *testing.T) {
	ix := NewIndex(testDocs)
	for _, c := range []struct {
		q    string
		want float64
	}{
		{"send messages", 1},
		{"send messages to #zorblax", 1},
		{"send messages to https://zorblax.example/qux", 1},
		{"send zorblax messages", 2.0 / 3},
		{"send Zorblax messages", 2.0 / 3}, // a capitalized name counts: it may be the object
	} {
		if got := ix.Keyword(mustParse(t, c.q), Options{Limit: 5}).Coverage; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Coverage(%q) = %.3f, want %.3f", c.q, got, c.want)
		}
	}
	// WordCoverage counts every word, argument values too.
	for _, c := range []struct {
		q    string
		want float64
	}{
		{"send messages", 1},
		{"send messages to #zorblax", 2.0 / 3},
		{"send zorblax messages", 2.0 / 3},
	} {
		if got := ix.Keyword(mustParse(t, c.q), Options{Limit: 5}).WordCoverage; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("WordCoverage(%q) = %.3f, want %.3f", c.q, got, c.want)
		}
	}
}
