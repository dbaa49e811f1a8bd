package fallback

import "testing"

// TestEmojiCode: an emoji's short code between colons is a value of
// KindEmoji; a word before a colon ("following:") and a time ("10:30:")
// are not.
func TestEmojiCode(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{"put a :eyes: on message 1732610455.002300", true},
		{"react with :white_check_mark:.", true},
		{"give it a :+1:", true},
		{"do the following: list the files", false},
		{"meet at 10:30: the usual room", false},
		{"the ratio is 3:2:", false},
	} {
		got := false
		for _, v := range ValueKinds(tc.raw) {
			got = got || v.Kind == KindEmoji
		}
		if got != tc.want {
			t.Errorf("%q: emoji %v, want %v (%v)", tc.raw, got, tc.want, ValueKinds(tc.raw))
		}
	}
}
