package search

import "testing"

// TestHasWord: inSchemas reads whole words (hasWord): "lab" is not in
// "labels", is in "lab_id" and at the text's end; an empty word is in no
// text (it panicked past the end of a text ending in a letter).
func TestHasWord(t *testing.T) {
	for _, c := range []struct {
		text, w string
		want    bool
	}{
		{`{"labels": ["bug"]}`, "lab", false},
		{`{"labels": ["bug"], "lab_id": 1}`, "lab", true},
		{"labels xlab lab", "lab", true},
		{"labels xlab labx", "lab", false},
		{"lab", "lab", true},
		{"lab", "", false},
		{"", "", false},
		{"", "lab", false},
	} {
		if got := hasWord([]byte(c.text), []byte(c.w)); got != c.want {
			t.Errorf("hasWord(%q, %q) = %v, want %v", c.text, c.w, got, c.want)
		}
	}
}
