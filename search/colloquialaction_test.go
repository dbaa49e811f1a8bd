package search_test

import "testing"

// TestColloquialAction: a colloquial verb that is no verb of the lists
// (fallback's verbSynonyms: "nuke", "zap" → delete, remove; "spin up" →
// create, start, launch, provision) is the request's action verb for the
// unserved action (colloquialAction): a top tool that does none of its
// synonyms does not serve it, one that does serves it.
func TestColloquialAction(t *testing.T) {
	topAndFlag(t, []topCase{
		{"nuke the message I just posted in #general", "", true},
		{"zap the slack message I sent to #random", "", true},
		{"nuke note n-12", "notes__delete_note", false},
		{"zap event evt-5521 from my calendar", "calendar__delete_event", false},
		{"spin up a new branch hotfix/login in ~/code/api", "git__create_branch", false},
	})
}
