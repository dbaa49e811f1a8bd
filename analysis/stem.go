package analysis

import "github.com/kljensen/snowball/english"

// Stem returns the Snowball (Porter2) English stem of a lowercase word:
// "forecasts" → "forecast", "running" → "run", "searching" → "search".
// Words shorter than three bytes and words that contain anything other than
// ASCII letters (numbers, "mp3", CJK, accented words) are returned
// unchanged, since the English stemmer has nothing sensible to say about them.
// Safe for concurrent use.
func Stem(word string) string {
	if len(word) < 3 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; c < 'a' || c > 'z' {
			return word
		}
	}
	return english.Stem(word, true)
}

// StemFilter replaces every token by its [Stem].
var StemFilter Filter = FilterFunc(func(tokens []string) []string {
	for i, t := range tokens {
		tokens[i] = Stem(t)
	}
	return tokens
})
