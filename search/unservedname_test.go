package search_test

import "testing"

// TestUnservedNameMeans: a name after "on", "through", "via" or "using"
// is the service the request is to be done on (fallback.NamedObjects):
// one no tool knows is flagged no_confident_match, in both modes; a time,
// a person after "with", a value and a name in a message's text after a
// colon are not. "GitLab" is read as "git" and "lab", and "lab" is no
// word of a schema's "labels" (inSchemas reads whole words).
func TestUnservedNameMeans(t *testing.T) {
	flaggedExample(t, []unservedCase{
		{"open a merge request on GitLab from branch fix-login", true},
		{"open a merge request on Bitbucket for my feature branch", true},
		{"page the database team through Opsgenie", true},
		{"commit my changes in ~/src/app and push them to a new repo on Codeberg", true},
		{"create a pull request on GitHub from feature-x into main in acme/web", false},
		{"book a 30 minute sync with Priya on Friday at 10", false},
		{"open a GitHub issue in acme/web: login broken on Safari", false},
		{"add a comment on PR 12 in acme/web saying looks good", false},
	})
}

// TestUnservedQualifier: a name no tool knows that qualifies a noun no tool
// knows either (fallback.NamedQualifiers) is the named service's thing:
// flagged in both modes. A noun the catalog knows keeps the request ("my
// Notion workspace": the notes workspace; a known gap), as does a name a
// tool knows.
func TestUnservedQualifier(t *testing.T) {
	flaggedExample(t, []unservedCase{
		{"look up the Slack profile of U123ABC and add them to our Hubspot audience", true},
		{"save my latest note to my Evernote notebook", true},
		{"find the note about the launch and add it to my Notion workspace", false},
		{"create an event in my work calendar for the Acme offsite", false},
	})
}
