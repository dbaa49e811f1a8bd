package fallback

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPairs(t *testing.T) {
	// Same words and lengths; only adjacency differs. Without the phrase
	// bonus the tie would go to "word_b_cloud" by name.
	docs := []Document{
		{Name: "word_b_cloud", Description: "Render text."},
		{Name: "word_cloud_b", Description: "Render text."},
		{Name: "cloud_storage", Description: "Keep a word in the cloud storage."},
	}
	ix := NewIndex(docs)
	tests := []struct {
		query string
		want  []string
	}{
		{"word cloud", []string{"word_cloud_b", "word_b_cloud", "cloud_storage"}},
		{"cloud word", []string{"word_cloud_b", "word_b_cloud", "cloud_storage"}}, // either order
		{"the word for the cloud", []string{"word_cloud_b", "word_b_cloud", "cloud_storage"}},
		{"cloud storage", []string{"cloud_storage", "word_b_cloud", "word_cloud_b"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := names(ix, ix.Keyword(mustParse(t, tt.query+" "), Options{}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Keyword(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestPairKey(t *testing.T) {
	if pairKey(3, 7) != pairKey(7, 3) {
		t.Error("pairKey depends on order")
	}
	if pairKey(1, 2) == pairKey(1, 3) || pairKey(0, 1<<20) == pairKey(1<<20, 1<<21) {
		t.Error("pairKey collides")
	}
}
