package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/fallback"
)

// TestCopulaSubject: the subject of a question that asks what a thing is
// runs from the copula's determiners to the first word that is no
// ranking word; a possessor's "s" starts it again.
func TestCopulaSubject(t *testing.T) {
	stop := map[string]bool{"the": true, "my": true, "in": true, "at": true, "on": true, "s": true, "is": true, "it": true, "been": true, "of": true}
	ranking := func(w string) bool { return !stop[w] && !fallback.WhWord(w) && !copulas[w] }
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"What's my checking account balance?", []string{"checking", "account", "balance"}},
		{"How high is the pollen count in Vienna today?", []string{"pollen", "count", "vienna", "today"}[:2]},
		{"When is high tide at Brighton tomorrow?", []string{"high", "tide"}},
		{"what is bob's job title on slack", []string{"job", "title"}},
		{"what's on my calendar", nil},
		{"what was said in #general yesterday", nil},
		{"how hot is it in Madrid", nil},
		{"why is this query slow", nil},
		{"show my heart rate", nil},
		{"what is", nil},
		{"", nil},
	} {
		text := fallback.Words(c.raw)
		var got []string
		for _, i := range copulaSubject(text, ranking) {
			got = append(got, text[i])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("copulaSubject(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// FuzzCopulaSubject: whatever the text, the subject's positions are
// increasing, inside the text, of words ranking accepts, and after a
// question word and a copula.
func FuzzCopulaSubject(f *testing.F) {
	for _, s := range []string{"What's my checking account balance?", "how high is the pollen count in Vienna", "what is bob's job title", "when is is is", "what s s s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		text := fallback.Words(raw)
		ranking := func(w string) bool { return len(w) > 2 && !copulas[w] }
		sub := copulaSubject(text, ranking)
		if len(sub) > 0 && (!quantityWh[text[0]] || !copulas[text[1]] && !copulas[text[2]]) {
			t.Fatalf("copulaSubject(%q) = %v without a question word and a copula", raw, sub)
		}
		for k, i := range sub {
			if i < 2 || i >= len(text) || k > 0 && i <= sub[k-1] || !ranking(text[i]) {
				t.Fatalf("copulaSubject(%q) = %v: position %d out of order, range or ranking (%s)", raw, sub, i, strings.Join(text, " "))
			}
		}
	})
}
