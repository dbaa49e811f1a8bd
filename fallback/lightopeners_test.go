package fallback

import (
	"math"
	"slices"
	"testing"
)

// TestSeeOpenerCoverage: a colloquial verb of getting or seeing that
// opens a request (SeeVerb) counts as known in Result.Coverage, and ranks
// nothing: the hits are those of the object's words alone. Later in a
// request, or a phrasal verb's verb without its particle ("dig the
// garden"), it is a word the catalog does not know.
func TestSeeOpenerCoverage(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "email__read_email", Server: "email", Description: "Read an email by its id."},
		{Name: "notes__create_note", Server: "notes", Description: "Create a note."},
	})
	for _, c := range []struct {
		q        string
		coverage float64
	}{
		{"grab the email", 1},
		{"dig up the email", 1},
		{"dig out the email", 1},
		{"peek at the email", 1},
		{"dig the email", 0.5},
		{"email grab", 0.5},
	} {
		q := mustParse(t, c.q)
		res := ix.Keyword(q, Options{Limit: 5, Expand: true, CoverageVerbs: VerbSynonyms})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 {
			t.Errorf("%q: Coverage %.3f, want %.3f", c.q, res.Coverage, c.coverage)
		}
		plain := ix.Keyword(mustParse(t, "email"), Options{Limit: 5, Expand: true})
		if !slices.EqualFunc(plain.Hits, res.Hits, func(a, b Hit) bool { return a.ID == b.ID }) {
			t.Errorf("%q: hits %v, want those of its object alone %v", c.q, res.Hits, plain.Hits)
		}
	}
}

// TestSeeVerb: the colloquial verbs of getting, and the particle that
// makes a phrasal verb one of them.
func TestSeeVerb(t *testing.T) {
	for _, c := range []struct {
		w, next string
		want    bool
	}{
		{"grab", "the", true}, {"grab", "", true}, {"dig", "up", true}, {"dig", "out", true},
		{"track", "down", true}, {"track", "my", false}, {"pull", "up", true}, {"pull", "the", false},
		{"pin", "down", false}, {"dig", "", false}, {"find", "the", false},
	} {
		if got := SeeVerb(c.w, c.next); got != c.want {
			t.Errorf("SeeVerb(%q, %q) = %v, want %v", c.w, c.next, got, c.want)
		}
	}
}
