package fallback

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// withinEdits finds exactly the strings editDistance finds within k, with
// the same distances: on a seeded random vocabulary of similar words (so
// that prefixes are shared and pruned), for random words and their typos.
func TestWithinEditsMatchesEditDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdeéz_"
	word := func(n int) string {
		r := []rune(alphabet)
		b := make([]rune, n)
		for i := range b {
			b[i] = r[rng.IntN(len(r))]
		}
		return string(b)
	}
	var vocab []string
	for range 3000 {
		vocab = append(vocab, word(1+rng.IntN(9)))
	}
	vocab = append(vocab, "weather", "wether", "whether", "get_weather", "getweather", "", "\U0010FFFF", "a\U0010FFFF")
	slices.Sort(vocab)
	for i := range 400 {
		w := word(rng.IntN(10))
		if i%2 == 0 {
			w = vocab[rng.IntN(len(vocab))] + word(rng.IntN(2))
		}
		for k := range 3 {
			t.Run(fmt.Sprintf("%q k=%d", w, k), func(t *testing.T) {
				var want, got []string
				for _, v := range vocab {
					if d := editDistance(w, v, k); d <= k {
						want = append(want, fmt.Sprintf("%s:%d", v, d))
					}
				}
				withinEdits(&sliceCursor{ss: vocab}, w, k, func(s string, d int) bool {
					got = append(got, fmt.Sprintf("%s:%d", s, d))
					return true
				})
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("(-editDistance +withinEdits):\n%s", diff)
				}
			})
		}
	}
}

// The walk visits the prefixes within reach, not the vocabulary: a word
// of unknown letters against 100,000 words touches a few of them.
func TestWithinEditsSkipsThePrunedPrefixes(t *testing.T) {
	var vocab []string
	for i := range 100000 {
		vocab = append(vocab, fmt.Sprintf("w%06dx", i))
	}
	c := &countingCursor{cursor: &sliceCursor{ss: vocab}}
	withinEdits(c, "qqqqqqqq", 2, func(string, int) bool { return true })
	yielded := c.n
	if yielded > 1000 {
		t.Errorf("the walk read %d of %d strings for a word none is near; want a few", yielded, len(vocab))
	}
}

// countingCursor counts the strings a cursor returns.
type countingCursor struct {
	cursor
	n int
}

func (c *countingCursor) next() (string, bool) {
	s, ok := c.cursor.next()
	if ok {
		c.n++
	}
	return s, ok
}

// slistCursor reads an slist as its from does: base less gone, with born.
func TestSlistCursor(t *testing.T) {
	l := slist{base: []string{"a", "b", "c", "d"}}.update([]string{"b"}, []string{"bb", "e"})
	for _, k := range []string{"", "b", "bb", "c", "z"} {
		var want, got []string
		for s := range l.from(k) {
			want = append(want, s)
		}
		c := &slistCursor{l: &l}
		c.seek(k)
		for s, ok := c.next(); ok; s, ok = c.next() {
			got = append(got, s)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("from %q (-from +cursor):\n%s", k, diff)
		}
	}
}
