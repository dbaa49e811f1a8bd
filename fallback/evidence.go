package fallback

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/query"
)

// WordMatch is one ranking word of a query checked against one tool: what
// the no-match decision (search/nomatch.go) reads to tell "this tool does
// what was asked" from "this tool shares some words with the request". A
// plain value, safe to copy.
type WordMatch struct {
	// Word is the surface word (analysis.Words: lowercased, split).
	Word string
	// Weight is its query-side weight (1; less for filler and numbers).
	Weight float64
	// Known: one of its terms or stem variants occurs in some tool.
	Known bool
	// InTool: one of its terms or stem variants occurs in the tool.
	InTool bool
	// Tools is the number of tools that have one of its own terms (not
	// variants); 0 for an unknown word.
	Tools int
	// Arg: the word is part of an argument value in the raw query (a
	// number, a path, an e-mail address, a #channel, an issue key, quoted
	// text, a capitalized name; see argumentWords), which says nothing for
	// or against a tool.
	Arg bool
}

// WordMatches returns the ranking words of q (not stop words, not -terms),
// in query order, each checked against tool id. It is safe for concurrent
// use, like every read of an Index.
func (ix *Index) WordMatches(q query.Query, id int) []WordMatch {
	if id < 0 || id >= ix.Len() {
		return nil
	}
	var out []WordMatch
	args := argumentWords(q.Raw)
	ix.eachRankingWord(q, func(qw queryWord) {
		m := WordMatch{Word: qw.word, Weight: qw.weight, Known: !qw.unmatched && (len(qw.ids) > 0 || len(qw.vars) > 0), Arg: args[qw.word]}
		for _, tid := range qw.ids {
			m.Tools = max(m.Tools, len(ix.termData.At(int(tid)).postings))
			if ix.has(id, tid) {
				m.InTool = true
			}
		}
		for _, tid := range qw.vars {
			if !m.InTool && ix.has(id, tid) {
				m.InTool = true
			}
		}
		out = append(out, m)
	})
	return out
}

// RankingWords returns the surface words WordMatches checks, in the same
// order, without checking them against a tool or the raw query: a cheap
// first look (the keyword search has usually cached the query's words).
// Safe for concurrent use.
func (ix *Index) RankingWords(q query.Query) []string {
	var out []string
	ix.eachRankingWord(q, func(qw queryWord) { out = append(out, qw.word) })
	return out
}

// eachRankingWord calls f with each ranking word of q (not a stop word,
// not of a -term), in query order.
func (ix *Index) eachRankingWord(q query.Query, f func(queryWord)) {
	chunks := ix.termWords(nil, q.Terms)
	for k, t := range q.Terms {
		if t.Excluded {
			continue
		}
		for _, qw := range chunks[k] {
			if qw.hasTerms {
				f(qw)
			}
		}
	}
}

// HasWord reports whether tool id has the surface word w (analysed as a
// query word: one of its terms or stem variants) in any field.
func (ix *Index) HasWord(id int, w string) bool {
	if id < 0 || id >= ix.Len() {
		return false
	}
	qws := ix.termWords(nil, []query.Term{{Text: w}})
	for _, qw := range qws[0] {
		for _, tid := range qw.ids {
			if ix.has(id, tid) {
				return true
			}
		}
		for _, tid := range qw.vars {
			if ix.has(id, tid) {
				return true
			}
		}
	}
	return false
}

// argumentWords returns the analysed words of the raw query's argument
// values, which say nothing for or against a tool: tokens with a digit or
// an inner @ / . : # _ (numbers, dates, paths, e-mail addresses, URLs,
// channels, issue keys), words in quotes, and capitalized words that do
// not start the query or a sentence (names, places).
func argumentWords(raw string) map[string]bool {
	args := map[string]bool{}
	add := func(tok string) {
		for _, w := range analysis.Words().Analyze(tok) {
			args[w] = true
		}
	}
	const quotes = "\"'“”‘’`"
	var quote bool
	start := true
	for _, tok := range strings.Fields(raw) {
		first, _ := utf8.DecodeRuneInString(tok) // a curly quote is several bytes
		opens := strings.ContainsRune(quotes, first)
		if quote || opens {
			add(tok)
			body := strings.TrimLeft(tok, quotes)
			closes := strings.ContainsAny(body, quotes) || (!opens && strings.ContainsAny(tok, quotes))
			quote = !closes
			if opens && body == "" {
				quote = true
			}
			start = false
			continue
		}
		core := strings.TrimFunc(tok, func(r rune) bool { return unicode.IsPunct(r) && !strings.ContainsRune("#@/", r) })
		if strings.ContainsFunc(core, unicode.IsDigit) || strings.ContainsAny(strings.Trim(core, ".:"), "@/.:#_") ||
			(!start && startsUpper(core)) {
			add(core)
		}
		start = strings.ContainsAny(tok[len(tok)-1:], ".?!:")
	}
	return args
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}
