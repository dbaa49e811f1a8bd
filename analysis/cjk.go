package analysis

import "unicode/utf8"

// CJKBigrams replaces every token that is a run of Han, Kana or Hangul
// characters (see [IsCJK]) by its overlapping character bigrams, so that
// text written without spaces is searchable by any two-character word:
//
//	天气预报 → 天气 气预 预报
//	天       → 天 (a one-character run stays a unigram)
//
// Other tokens pass unchanged. The [Unicode] tokenizer guarantees that a
// token starting with a CJK character consists only of CJK characters.
var CJKBigrams Filter = FilterFunc(func(tokens []string) []string {
	var out []string // allocated only when some token is CJK
	for i, t := range tokens {
		r, _ := utf8.DecodeRuneInString(t)
		cjk := IsCJK(r) && utf8.RuneCountInString(t) > 1
		if !cjk {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(tokens)+8), tokens[:i]...)
		}
		out = appendBigrams(out, t)
	}
	if out == nil {
		return tokens
	}
	return out
})

// appendBigrams appends the overlapping rune bigrams of t (at least two runes).
func appendBigrams(out []string, t string) []string {
	first := 0
	_, s1 := utf8.DecodeRuneInString(t)
	second := s1
	for second < len(t) {
		_, s2 := utf8.DecodeRuneInString(t[second:])
		out = append(out, t[first:second+s2])
		first, second = second, second+s2
	}
	return out
}
