package analysis

import (
	"unicode"
	"unicode/utf8"
)

// Tokenizer splits a text into raw tokens, in order. Implementations must be
// safe for concurrent use and must never panic, whatever the input (including
// invalid UTF-8).
type Tokenizer interface {
	Tokenize(text string) []string
}

// TokenizerFunc adapts a function to the Tokenizer interface.
type TokenizerFunc func(text string) []string

// Tokenize calls f(text).
func (f TokenizerFunc) Tokenize(text string) []string { return f(text) }

// Unicode is the default tokenizer. A token is a maximal run of letters,
// digits and combining marks; every other rune separates tokens, so
// snake_case, kebab-case, dotted.names and MCP server__tool names fall apart
// into their words here. A run of Han, Hiragana, Katakana or Hangul
// characters is a token of its own even when it touches Latin letters
// ("用Go写" → "用", "Go", "写"), so [CJKBigrams] can recognise it. Case is
// preserved ([SplitCamelCase] needs it). Invalid UTF-8 bytes are separators.
//
// The zero value is ready to use and safe for concurrent use.
type Unicode struct{}

// Tokenize implements Tokenizer.
func (Unicode) Tokenize(text string) []string {
	var tokens []string
	start := -1       // byte offset of the current token, -1 if none
	startCJK := false // whether the current token is a CJK run
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		word := size > 0 && !(r == utf8.RuneError && size == 1) && isWordRune(r)
		cjk := word && IsCJK(r)
		if start >= 0 && (!word || cjk != startCJK) {
			tokens = append(tokens, text[start:i])
			start = -1
		}
		if word && start < 0 {
			start, startCJK = i, cjk
		}
		i += size
	}
	if start >= 0 {
		tokens = append(tokens, text[start:])
	}
	return tokens
}

// isWordRune reports whether r belongs inside a token.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 'ー'
}

// IsCJK reports whether r is a Han, Hiragana, Katakana or Hangul character
// (or the Katakana prolonged sound mark "ー"): the scripts that are written
// without spaces and are indexed as character bigrams.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
