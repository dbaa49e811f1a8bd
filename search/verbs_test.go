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
