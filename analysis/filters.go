package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Filter transforms a token stream. A filter may modify and return the slice
// it is given (callers must not reuse it) and must never panic.
// Implementations must be safe for concurrent use.
type Filter interface {
	Filter(tokens []string) []string
}

// FilterFunc adapts a function to the Filter interface.
type FilterFunc func(tokens []string) []string

// Filter calls f(tokens).
func (f FilterFunc) Filter(tokens []string) []string { return f(tokens) }

// Lowercase maps every token to lower case (Unicode simple folding, as
// strings.ToLower).
var Lowercase Filter = FilterFunc(func(tokens []string) []string {
	for i, t := range tokens {
		tokens[i] = lower(t)
	}
	return tokens
})

// lower is strings.ToLower without the allocation for already-lowercase ASCII.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// SplitCamelCase splits tokens at case changes, before lowercasing:
//
//	getWeather      → get Weather
//	getHTTPResponse → get HTTP Response
//	mp3ToWav        → mp3 To Wav
//	JSON, iPhone    → JSON; i Phone
//
// A split happens before an upper-case letter that follows a lower-case
// letter or a digit, and before the last upper-case letter of an upper-case
// run that is followed by a lower-case letter. Digits stay with the letters
// before them ("sha256", "base64Encode" → "base64" "Encode").
var SplitCamelCase Filter = FilterFunc(func(tokens []string) []string {
	var out []string // allocated only when some token splits
	for i, t := range tokens {
		parts := splitCamel(t)
		if parts == nil {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(tokens)+len(parts)), tokens[:i]...)
		}
		out = append(out, parts...)
	}
	if out == nil {
		return tokens
	}
	return out
})

// splitCamel returns the camelCase parts of t, or nil when t does not split.
func splitCamel(t string) []string {
	var parts []string
	start := 0
	prev := rune(-1)
	for i, r := range t {
		if i > start && upperCased(r) {
			split := unicode.IsLower(prev) || unicode.IsDigit(prev)
			if !split && upperCased(prev) {
				_, size := utf8.DecodeRuneInString(t[i:])
				next, _ := utf8.DecodeRuneInString(t[i+size:])
				split = unicode.IsLower(next)
			}
			if split {
				parts = append(parts, t[start:i])
				start = i
			}
		}
		prev = r
	}
	if parts == nil {
		return nil
	}
	return append(parts, t[start:])
}

// upperCased reports whether r is an upper-case letter with a lower-case
// form. Only those mark camelCase boundaries: an upper-case letter without
// one ('ϓ') is unchanged by lowercasing, so a boundary before it would
// split a lowercased word differently from the original, and Standard
// would not be word-local over Words (FuzzAnalyze).
func upperCased(r rune) bool { return unicode.IsUpper(r) && unicode.ToLower(r) != r }

// StopWords is a set of words removed by [StopFilter]. Words are lowercase.
// A StopWords value is read-only after construction and safe for concurrent
// reads.
type StopWords map[string]struct{}

// NewStopWords returns the set of the given words.
func NewStopWords(words ...string) StopWords {
	s := make(StopWords, len(words))
	for _, w := range words {
		s[w] = struct{}{}
	}
	return s
}

// Contains reports whether w is in the set. A nil set contains nothing.
func (s StopWords) Contains(w string) bool {
	_, ok := s[w]
	return ok
}

// English is the stop-word list of the Snowball English stemmer (the classic
// list of 127 function words: "a", "the", "and", "of", "you", "can", ...),
// plus the fragments that the tokenizer leaves from contractions
// ("I'm" → "i" "m"; "we'll" → "we" "ll"; "don't" → "don" "t").
// Content words that merely occur often in queries ("please", "help") are
// not stop words here: that is a query-side weighting decision, made by the
// caller.
var English = NewStopWords(
	"a", "about", "above", "after", "again", "against", "all", "am", "an",
	"and", "any", "are", "as", "at", "be", "because", "been", "before",
	"being", "below", "between", "both", "but", "by", "can", "did", "do",
	"does", "doing", "don", "down", "during", "each", "few", "for", "from",
	"further", "had", "has", "have", "having", "he", "her", "here", "hers",
	"herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is",
	"it", "its", "itself", "just", "me", "more", "most", "my", "myself",
	"no", "nor", "not", "now", "of", "off", "on", "once", "only", "or",
	"other", "our", "ours", "ourselves", "out", "over", "own", "s", "same",
	"she", "should", "so", "some", "such", "t", "than", "that", "the", "their",
	"theirs", "them", "themselves", "then", "there", "these", "they",
	"this", "those", "through", "to", "too", "under", "until", "up",
	"very", "was", "we", "were", "what", "when", "where", "which", "while",
	"who", "whom", "why", "will", "with", "you", "your", "yours", "yourself",
	"yourselves",
	// contraction fragments
	"m", "re", "ve", "ll", "d", "isn", "aren", "wasn", "weren", "doesn", "didn",
	"won", "wouldn", "couldn", "shouldn", "can't", "hasn", "haven", "hadn",
)

// StopFilter returns a filter that drops the tokens in words.
func StopFilter(words StopWords) Filter {
	return FilterFunc(func(tokens []string) []string {
		out := tokens[:0]
		for _, t := range tokens {
			if !words.Contains(t) {
				out = append(out, t)
			}
		}
		return out
	})
}
