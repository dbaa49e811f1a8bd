package search

import (
	"strings"
	"testing"
)

// TestPastMarker: the first look of the unserved past finds "historical"
// and every past auxiliary (pastAuxiliaries, the one list) in any case
// and with punctuation, not inside another word, and allocates nothing.
func TestPastMarker(t *testing.T) {
	for a := range pastAuxiliaries {
		for _, raw := range []string{a + " it rain", strings.ToUpper(a[:1]) + a[1:] + " it rain?", "how hot (" + a + ")"} {
			if !pastMarker(raw) {
				t.Errorf("pastMarker(%q) = false, want true", raw)
			}
		}
	}
	for _, c := range []struct {
		raw  string
		want bool
	}{{"Historical weather", true}, {"wasabi and weirdos", false}, {"", false}, {"is it raining", false}} {
		if got := pastMarker(c.raw); got != c.want {
			t.Errorf("pastMarker(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { pastMarker("What Was the temperature in London last July?") }); n != 0 {
		t.Errorf("pastMarker allocates %v times", n)
	}
}
