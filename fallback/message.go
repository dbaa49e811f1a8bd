package fallback

import (
	"strings"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/query"
)

// A message's text is what a request carries, not what it asks a tool to
// do: "Tell the reviewers on PR #77 in acme/payments that the migration
// was tested on staging" asks for a comment on a pull request, yet
// "staging" drew the tools that stage (git__diff, git__commit) and the
// drafts that are sent for "review" ahead of github__add_issue_comment.
// Keyword search ranks the words of a message's text at formedWeight, as
// it ranks quoted text (quotedTerms): the text after "saying", or after
// "that" where a verb of saying says it (sayVerbs: the request's verb, or
// the word before "that": "… and answer that we will pay by Friday"), to
// the end of its sentence or a clause after a comma (textEnd). A "that"
// after any other verb opens a relative clause, whose words are the
// request's own ("show the bugs in MOB that are still unassigned"), as
// after "tell me" (asksAnswer); after an -ing form it is a demonstrative
// ("Post sending that message to Jane, I would prefer to review ...").
//
// Measured (thirteenth session, h39-rank; docs/benchmarks.md, "A message's
// text ranks as a value"), main 8961a2d → after, default / keyword mode:
// example pairs pooled without 22 and 24 (717) first tool right 557.3 →
// 557.3 / 567.3 → 568.3, mean nDCG@10 .8959 → .8960 / .9052 → .9060; pair
// 24 nDCG@10 .8116 → .8161 / .8104 → .8120 ("Read issue 312 in octo/cli
// and leave a comment that a fix is in progress"); no flag of any set
// moves; the dev sets unchanged. Without the demonstrative and "tell me",
// bfcl lost .0003 in both modes ("Post sending that message to Jane, …").

// sayVerbs are the verbs whose "that" opens what they say (messageTerms):
// telling, replying and posting, in their base forms.
var sayVerbs = wordSet("tell reply answer respond say comment post message ping text dm notify inform remind warn email mail write shoot")

// messageTerms appends to dst, for each of ts (the terms of the request
// raw), whether it is a word of a message's text (see above).
func messageTerms(raw string, ts []query.Term, dst []bool) []bool {
	at := len(dst)
	for range ts {
		dst = append(dst, false)
	}
	if lower := strings.ToLower(raw); !strings.Contains(lower, "that") && !strings.Contains(lower, "saying") {
		return dst
	}
	op := RequestOpening(raw)
	if len(op.Text) == 0 {
		return dst
	}
	toks := make([]string, len(ts))
	for k, t := range ts {
		toks[k] = t.Text
	}
	start, exact := textStartToken(toks, len(op.Text))
	if start <= 0 || !exact {
		return dst
	}
	before := analysis.Words().Analyze(toks[start-1])
	if len(before) != 1 || !textStarts[before[0]] {
		return dst
	}
	if before[0] == "that" {
		if start < 2 {
			return dst
		}
		prev := analysis.Words().Analyze(toks[start-2])
		if len(prev) != 1 || strings.HasSuffix(prev[0], "ing") {
			return dst // "sending that message": a demonstrative
		}
		if !sayVerbs[prev[0]] && !(sayVerbs[op.Verb] && !asksAnswer(op.Object)) {
			return dst
		}
	}
	for k := start; k < textEnd(toks, start, false); k++ {
		dst[at+k] = true
	}
	return dst
}

// asksAnswer reports whether the object of a verb of saying is the one who
// asks ("tell me the projects that Adriel works on"): the request asks for
// an answer, and its "that" opens a relative clause.
func asksAnswer(object []string) bool {
	return len(object) > 0 && (object[0] == "me" || object[0] == "us")
}

// textStartToken returns the index in toks of the token where the last
// text words of a request (Opening.Text, which runs to the request's end)
// begin, and whether they begin exactly there (a token's words may span
// the text's start).
func textStartToken(toks []string, text int) (start int, exact bool) {
	start, n := len(toks), 0
	for start > 0 && n < text {
		start--
		n += len(analysis.Words().Analyze(toks[start]))
	}
	return start, n == text
}

// textEnd returns the index in toks after a message's text that starts at
// start: the end of its sentence or a clause after a comma; with atComma,
// the first comma (freeTextWords, messageTerms).
func textEnd(toks []string, start int, atComma bool) int {
	for i := start; i < len(toks); i++ {
		tok := toks[i]
		if i > start && strings.HasSuffix(toks[i-1], ",") && (atComma || clauseBreaks[strings.ToLower(tokenCore(tok))]) {
			return i
		}
		if tok != "" && strings.ContainsAny(tok[len(tok)-1:], ".?!;") {
			return i + 1
		}
	}
	return len(toks)
}
