package search

import (
	"slices"
	"testing"
)

// TestWriteVerbsChange: the verbs whose tools do not answer a question
// (writeVerbs) are verbs that change something (changes), as the
// unserved step reads a tool's actions (changers): one classification of
// action verbs, of which writeVerbs is the part that stores or changes
// what a user keeps. A verb added to writeVerbs must be an action verb
// (actionVerbs) and no answer verb (answerVerbs).
func TestWriteVerbsChange(t *testing.T) {
	var ws []string
	for w := range writeVerbs {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	for _, w := range ws {
		if !changes(w) {
			t.Errorf("write verb %q does not change (changes: an action verb, no answer verb)", w)
		}
	}
	for _, w := range []string{"run", "log", "convert", "analyze", "get"} {
		if writeVerbs[w] {
			t.Errorf("%q writes; a tool doing it answers questions", w)
		}
	}
}

// TestOpeningAction: a request's opening verb with the word after it is
// the verb itself, the verb a phrasal verb means, or a request for an
// answer.
func TestOpeningAction(t *testing.T) {
	tests := []struct {
		base   string
		object []string
		want   string
		asks   bool
	}{
		{"send", []string{"bob", "the", "report"}, "send", false},
		{"send", nil, "send", false},
		{"set", []string{"up", "a", "call"}, "setup", false},
		{"sign", []string{"me", "up", "for", "a", "pottery", "class"}, "signup", false}, // an object pronoun between
		{"sign", []string{"up", "for", "the", "newsletter"}, "signup", false},
		{"sign", []string{"the", "contract"}, "sign", false},
		{"send", []string{"me", "up"}, "send", false},                  // no phrasal verb of "send"
		{"call", []string{"off", "the", "offsite"}, "call off", false}, // the phrase fallback.VerbSynonyms has (phrasalAction)
		{"call", []string{"the", "dentist"}, "call", false},
		{"jot", []string{"down", "a", "note"}, "jot", false}, // its phrase also reads as "note", no verb
		{"inform", []string{"me", "about", "the", "weather"}, "inform", true},
		{"update", []string{"us", "on", "the", "release"}, "update", true},
		{"update", []string{"the", "event"}, "update", false},
		{"start", []string{"a", "new", "branch"}, "create", false}, // a new thing made (beginVerbs)
		{"raise", []string{"an", "issue"}, "create", false},
		{"start", []string{"the", "build"}, "start", false}, // a thing that exists
		{"raise", []string{"the", "price"}, "raise", false},
	}
	for _, tt := range tests {
		got, asks := openingAction(tt.base, tt.object)
		if got != tt.want || asks != tt.asks {
			t.Errorf("openingAction(%q, %q) = %q, %v; want %q, %v", tt.base, tt.object, got, asks, tt.want, tt.asks)
		}
	}
}

// TestCountedRead: a retrieve verb whose object holds a count reads.
func TestCountedRead(t *testing.T) {
	for _, c := range []struct {
		verb   string
		object []string
		want   bool
	}{
		{"pull", []string{"the", "20", "newest", "signups"}, true},
		{"pull", []string{"the", "ten", "largest", "refunds"}, true},
		{"pull", []string{"the", "fourteen", "newest", "tickets"}, true},
		{"pull", []string{"a", "dozen", "recent", "orders"}, true},
		{"pull", []string{"the", "latest", "changes"}, false},
		{"delete", []string{"the", "10", "oldest", "rows"}, false},
	} {
		if got := countedRead(c.verb, c.object); got != c.want {
			t.Errorf("countedRead(%q, %q) = %v, want %v", c.verb, c.object, got, c.want)
		}
	}
}
