package search_test

import "testing"

// TestMakeThing: "make" with a new thing as its object makes it
// (makesThing): a short request is flagged when no top tool that creates
// has the thing ("a new slack channel", "a new jira project"), and served
// when one has ("a new branch", "a note"); with an action's noun it is
// the action ("make a phone call": unservedCausative reads it).
func TestMakeThing(t *testing.T) {
	topAndFlag(t, []topCase{
		{"make a new slack channel for the launch", "", true},
		{"make a new jira project called Atlas", "", true},
		{"make a new branch called hotfix/login", "git__create_branch", false},
		{"make a note titled groceries with milk and eggs", "", false},
		{"make a new note about the offsite agenda", "", false},
	})
}
