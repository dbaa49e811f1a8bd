package search_test

import "testing"

// TestServerModifier: a server's name before the head of a verb of
// beginning's object that the catalog does not know modifies it ("start a
// git bisect", "launch a slack huddle") and serves no object of that
// server's tools; after "create" it does not read so ("a calendar
// appointment" is an event); the name as the head ("send an
// email"), before a known head ("a git branch", "a jira issue") or in a
// place after the object ("ping the team on slack") still does, and so
// does an unknown head that names a kind of value the tool takes ("a jira
// ticket": an issue).
func TestServerModifier(t *testing.T) {
	topAndFlag(t, []topCase{
		{"start a git bisect", "", true},
		{"launch a slack huddle for the design team", "", true},
		{"create a calendar appointment for the dentist on Monday at 9", "calendar__create_event", false},
		{"create a git branch called release-2", "git__create_branch", false},
		{"start a new git branch named fix-login", "git__create_branch", false},
		{"create a jira issue for the login crash in project OPS", "jira__create_issue", false},
		{"create a jira ticket for the outage", "jira__create_issue", false},
		{"send a slack message to #general saying hi", "slack__send_message", false},
		{"ping the team on slack about the outage", "slack__send_message", false},
		{"send an email to bob about lunch", "email__send_email", false},
	})
}
