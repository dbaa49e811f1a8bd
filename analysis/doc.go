// Package analysis holds the one text pipeline that every lexical path of
// toolsearch shares: keyword search, fuzzy matching and the built-in
// word-vector embedder all turn text into terms through an [Analyzer].
//
// An Analyzer is a [Tokenizer] followed by [Filter]s, applied in order:
//
//	Unicode tokenizer  – runs of letters/digits; everything else (spaces,
//	                     punctuation, "_", "-", ".", "__") separates tokens;
//	                     Han/Kana/Hangul runs are tokens of their own
//	SplitCamelCase     – "getHTTPResponse" → "get" "HTTP" "Response"
//	Lowercase
//	CJKBigrams         – "天气预报" → "天气" "气预" "预报"
//	StopFilter         – drops English stop words (Standard only)
//	StemFilter         – Snowball English stemmer (Standard only)
//
// camelCase splitting runs before lowercasing because it needs the case.
// [Standard] is the full pipeline used for ranking; [Words] stops before
// stop-word removal and stemming and yields plain lowercase words.
//
// The pipeline is word-local: analyzing a text with Standard gives the same
// terms as analyzing it with Words and then each resulting word with
// Standard. Callers (fallback) rely on this to map surface words to terms.
//
// The package imports only the standard library and the Snowball stemmer.
package analysis
