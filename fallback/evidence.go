package fallback

import (
	"iter"
	"math"
	"slices"
	"strconv"
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
	// InTool: one of its terms or stem variants occurs in the tool, or,
	// for a Plain short form, every word of one of its full forms ("PR":
	// pull request).
	InTool bool
	// Tools is the number of tools that have one of its own terms (not
	// variants); 0 for an unknown word.
	Tools int
	// Plain: the word is a short or everyday form whose full words the
	// catalog knows (shortForms, everydayWords: "umbrella" → rain,
	// "repo" → repository, "cold" → temperature, which reads so only
	// about the weather); Known may be false.
	Plain bool
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
		m := WordMatch{Word: qw.word, Weight: qw.weight, Known: !qw.unmatched && (len(qw.ids) > 0 || len(qw.vars) > 0), Plain: qw.shortKnown, Arg: args[qw.word]}
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
		if !m.InTool && m.Plain && ix.shortIn(id, qw.short) {
			m.InTool = true // "PR" and a tool that says "pull request"
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
// query word: one of its terms or stem variants) in any field. Safe for
// concurrent use.
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
	var quote bool
	start := true
	toks := strings.Fields(raw)
	for i, tok := range toks {
		if quote || opensQuote(tok) && quoteCloses(toks[i:]) {
			add(tok)
			quote = quoteAfter(tok, quote)
			start = false
			continue
		}
		if core := tokenCore(tok); argumentValue(core, start) && !acronym(core) {
			add(core)
		}
		start = strings.ContainsAny(tok[len(tok)-1:], ".?!:")
	}
	return args
}

// acronym reports whether a token core is a word in capitals ("SMS",
// "PDF", "VPN"): the thing a request asks for as often as a name.
func acronym(core string) bool {
	return len(core) >= 2 && !strings.ContainsFunc(core, func(r rune) bool { return !unicode.IsUpper(r) })
}

// kindWeight weighs the kind of an argument value (valueKind) against
// the value's own word, as variantWeight weighs a stem variant: the value
// matches a tool through the kind at half the weight, and counts once, by
// its best match. Measured (docs/benchmarks.md, "The kind of an argument
// value"): nDCG@10 on the example catalog's labelled sets +0.01 to +0.07
// in default and keyword mode, the dev sets within ±0.0004; 0.5 is the
// only weight tried (prefixWeight's).
const kindWeight = 0.5

// valueKind names the kind of an argument value by its form, the word a
// tool's parameters use for it: a "#name" is a chat "channel", an e-mail
// address an "email", a URL a "url"; "" for any other token. Keyword
// search matches the value's first word through this word too (at
// kindWeight), so "post an update in #general" finds the tools with a
// channel. Forms that name several kinds ("owner/repo" or a branch,
// "@name" on any network) are left out: of formKind's kinds, which the
// no-match decision reads (ValueKinds), only these three, an issue key's
// ("OPS-1402": "issue"), and a path's or a file's (path true), which
// Keyword reads only with Options.PathKinds: PathKindWords' "file", or
// "directory" and "folder". An issue key was left out too until the
// twelfth session (h38-rank; docs/benchmarks.md, "An issue key matches
// through "issue""): "who is working on OPS-1402 right now" and "Which
// fix version is set on PAY-2291?" found no Jira tool; read, the example
// pairs' mean nDCG@10 .8880 → .8889 (keyword .8981 → .8990), pair 24
// .7609 → .7687 (.7598 → .7675), no-answer flagged 672 → 674 of 710
// (keyword 673 → 675), the dev sets unchanged. A chat id (chatID:
// "C02RELEASE" a channel's, "U05KJ8PQ3" a user's, "user") since h38-rank2
// (docs/benchmarks.md, "A chat id is a channel's or a user's"): "Latest
// messages in C02RELEASE" ranked slack__send_message first and
// slack__get_channel_history second, "is it too late to ping U04ABCD12
// right now? where are they based" no Slack tool in the best 3; read,
// the example pairs' mean nDCG@10 .8951 → .8959 (keyword .9046 →
// .9052), pair 24 .8061 → .8116 (.8049 → .8104), flags and the dev sets
// unchanged.
func valueKind(text string) (words []string, path bool) {
	if globCore(text) != "" {
		return []string{"glob", "pattern"}, false
	}
	core := tokenCore(text)
	switch k := formKind(core); k {
	case KindChannel, KindURL, KindEmail:
		return []string{k}, false
	case KindIssue:
		return []string{"issue"}, false
	case KindUser:
		return []string{"user"}, false
	case KindPath, KindFile:
		return PathKindWords(core), true
	}
	return nil, false
}

// PathKindWords returns the words a tool's parameters use for what a
// path or a file name (KindPath, KindFile: a Value's Text) names:
// fileKindWords when its last element is a file's name ("notes.txt",
// "src/app.ts"), directoryKindWords otherwise ("~/Downloads", "/var/log/",
// "/srv/app"). A path without an extension names a directory far more
// often than a file: of the example sets' 70 such paths, 2 are files
// ("/etc/hosts", "/var/log/syslog"), and the tools that take either say
// "file or directory". The slice is shared: callers must not modify it.
func PathKindWords(text string) []string {
	if fileName(text[strings.LastIndexByte(text, '/')+1:]) {
		return fileKindWords
	}
	return directoryKindWords
}

// fileKindWords and directoryKindWords are the words of a file's and a
// directory's parameters (PathKindWords).
var (
	fileKindWords      = []string{"file"}
	directoryKindWords = []string{"directory", "folder"}
)

// coordinatesKind are the words keyword search matches coordinates by
// (KindCoordinates: "48.8584, 2.2945"), as valueKind's word matches a
// value of its kind: the parameters that take them ("latitude") and the
// word descriptions use for them. They match at kindWeight of a content
// word's weight, not of the number's (numberWeight), the first word of
// the coordinates' first token. Measured (docs/benchmarks.md, "Everyday
// vocabulary"): nDCG@10 of the example held-out sets 8, 9 and 10 +0.013
// to +0.020 in both modes, bfcl +0.0003, the other dev sets unchanged.
var coordinatesKind = []string{"latitude", "coordinates"}

// locativeNames returns the analysed words of the names in a raw request
// that follow a locative preposition (locativePrepositions: "in Delhi",
// "from Boston to Providence", "near Union Square"): capitalized words
// inside a sentence, as argumentValue reads them, right after the
// preposition or its "the" ("to the British Museum") or after a name word
// that is taken, or after such a name and a comma, "and" or "or" (a list:
// "in Lyon, Grenoble and Annecy"; a semicolon ends it), not technical, not
// quoted and not all capitals ("in USD", "to SMS": often the thing asked
// for). Such a name is where or to whom, an argument
// value, and Keyword leaves it out of Result.Coverage when the catalog
// does not know it. A name after "on", "with", "at" or "via" is left in:
// it is as often the service a request asks to use ("on Spotify", "with
// Equifax", "at the Marriott"), which a catalog without it cannot serve.
// In Title Case (no word of the request in lowercase) there are none. A
// pure function of raw, safe for concurrent use.
func locativeNames(raw string) map[string]bool {
	names, _ := requestNames(raw)
	return names
}

// requestNames returns locativeNames of raw and the analysed words of the
// other names in it, read the same way (capitalized words inside a
// sentence, not technical, not quoted, not all capitals; none in Title
// Case) but in no locative place: "where Priya talked about the budget",
// "the GPS position of the Sydney Opera House", "Marta's email". Keyword
// weighs an unknown one of those at otherNameWeight in Result.Coverage.
func requestNames(raw string) (names, others map[string]bool) {
	names, others = map[string]bool{}, map[string]bool{}
	toks := strings.Fields(raw)
	if !slices.ContainsFunc(toks, func(tok string) bool {
		core := tokenCore(tok)
		return core != "" && !startsUpper(core) && !technical(core)
	}) {
		return names, others
	}
	var quote bool
	start := true
	after := false   // the token before is a locative preposition, or a name after one
	prep := false    // the token before is a locative preposition
	took := false    // the token before is a name taken after one
	service := false // the token before is a servicePrepositions word, its "the", or a name after one
	for i, tok := range toks {
		if quote || opensQuote(tok) && quoteCloses(toks[i:]) {
			quote = quoteAfter(tok, quote)
			start, after, prep, took = false, false, false, false
			continue
		}
		core := tokenCore(tok)
		name := argumentValue(core, start) && !technical(core) && strings.ToUpper(core) != core
		if name && (after || !service) {
			into := others
			if after {
				into = names
			}
			for _, w := range analysis.Words().Analyze(core) {
				into[w] = true
			}
		}
		// A name after "on", "with", "at", "via" or "for", its "the" or
		// a name after one, stays whole: "on Slack", "at Pebble Beach";
		// so does the asker's own (possessives): "my Excel spreadsheet".
		service = !strings.ContainsAny(tok[len(tok)-1:], ".?!:,;") && (servicePrepositions[strings.ToLower(core)] || possessives[strings.ToLower(core)] || service && (name || strings.EqualFold(core, "the")))
		start = strings.ContainsAny(tok[len(tok)-1:], ".?!:")
		last, lower := tok[len(tok)-1:], strings.ToLower(core)
		wasPrep, wasTaken := prep, took
		took = name && after
		prep = !start && !strings.ContainsAny(last, ",;") && locativePrepositions[core]
		switch {
		case start:
			after = false
		case took:
			after = last != ";" // a comma goes on to the next name of a list: "in Lyon, Grenoble and Annecy"
		case wasPrep && lower == "the", wasTaken && listJoins[lower]:
			after = !strings.ContainsAny(last, ",;") // "to the British Museum", "in Leeds and Bristol"
		default:
			after = prep
		}
	}
	for w := range names {
		delete(others, w)
	}
	return names, others
}

// listJoins join the names of a list after a locative preposition ("in
// Leeds and Bristol", "to Maria or Lee"): locativeNames takes the next
// capitalized word as a name of the same list. The list and the article
// after the preposition were measured together (docs/benchmarks.md,
// "Lists of places and "the" after a locative preposition"): answerable
// requests flagged, example tuning 5.0 → 4.0 % (keyword 5.9 → 5.0 %),
// held-out-9 6.0 → 4.0 % (keyword 10.0 → 8.0 %), held-out-20 keyword
// 16.0 → 14.0 %, bfcl keyword 4.2 → 4.1 %; no no-answer request of any
// set less flagged, nDCG@10 unchanged.
var listJoins = wordSet("and or")

// freeTextWords returns the analysed words of a raw request's free text:
// the message after "that", "saying" (and that word) or a colon that
// follows the request's verb (RequestOpening's Opening.Text: "message
// #frontend that the build is broken", "take a note: wifi password is on
// the fridge"), or after "know" in a request framed "let X know ..."
// (letKnow, anywhere in the request; the frame's words and X, whom to
// tell, too: "let everyone in #releases know v2.8 is live"), up to the
// end of its sentence or a clause after a comma (", and forward anything
// urgent to my manager" is the next ask; the message of "let X know" up
// to a comma). Such words are what the request carries, not what it asks a tool
// to do, like an argument value: Keyword leaves them out of
// Result.Coverage when the catalog does not know them (the known ones
// still count: leaving them out too lowers coverage where "that" opens no
// message, "Naviagte to that first analysis ...", and flagged 0.3 points
// more of bfcl's answerable queries). Quoted text is not read as free text
// here: fuzzy search quotes its corrections ("apply s"), which then left
// coverage. A pure function of raw, safe for concurrent use.
func freeTextWords(raw string) map[string]bool {
	if lower := strings.ToLower(raw); !strings.Contains(raw, ":") && !strings.Contains(lower, "that") && !strings.Contains(lower, "saying") && !strings.Contains(lower, "know") {
		return nil // no text can start (RequestOpening would cost ≈ 3 µs)
	}
	words := map[string]bool{}
	toks := strings.Fields(raw)
	if let, know := letKnow(toks); know > 0 {
		for _, tok := range toks[let:know] { // the frame and the one told
			for _, w := range analysis.Words().Analyze(tok) {
				words[w] = true
			}
		}
		textFrom(words, toks, know, true)
		return words
	}
	if text := len(RequestOpening(raw).Text); text > 0 {
		// Opening.Text runs to the request's end: its first token is the
		// one where the last text words begin, or "saying" before it.
		start, n := len(toks), 0
		for start > 0 && n < text {
			start--
			n += len(analysis.Words().Analyze(toks[start]))
		}
		if start > 0 && n == text {
			if ws := analysis.Words().Analyze(toks[start-1]); len(ws) == 1 && textStarts[ws[0]] {
				start-- // "saying"
			}
		}
		textFrom(words, toks, start, false)
	}
	return words
}

// textFrom adds to words the words of toks from start to the end of their
// sentence or a clause after a comma (freeTextWords); with atComma, to the
// first comma: the message of "let X know" ends there ("let my manager
// know on Slack, decline my three meetings and ..." asks more after it).
func textFrom(words map[string]bool, toks []string, start int, atComma bool) {
	for i := start; i < len(toks); i++ {
		tok := toks[i]
		if i > start && strings.HasSuffix(toks[i-1], ",") && (atComma || clauseBreaks[strings.ToLower(tokenCore(tok))]) {
			break
		}
		for _, w := range analysis.Words().Analyze(tok) {
			words[w] = true
		}
		if strings.ContainsAny(tok[len(tok)-1:], ".?!;") {
			break
		}
	}
}

// letKnow returns the indexes in toks of "let" and "know" where the
// request's words frame "let X know ..." (letKnowWord, the rule the verb
// expansion reads too: "let the team in #design know the mockups are
// ready", anywhere in the request, "I'm late. Can you let #standup know?";
// not "let me know", "let's"), the first such frame; 0, 0 when there is
// none. X is whom to tell, the words after "know" the message.
func letKnow(toks []string) (int, int) {
	var ws []planWord
	var tokOf []int // ws[k] is a word of toks[tokOf[k]]
	for i, tok := range toks {
		for _, w := range analysis.Words().Analyze(tok) {
			ws = append(ws, planWord{word: w})
			tokOf = append(tokOf, i)
		}
	}
	for i := range ws {
		if j, ok := letKnowWord(ws, i); ok {
			return tokOf[i], tokOf[j]
		}
	}
	return 0, 0
}

// locativePrepositions come before a place or a person that is an
// argument value (locativeNames).
var locativePrepositions = wordSet("in from to near around between")

// servicePrepositions are the prepositions after which a name is as often
// what the request needs a tool to know as an argument: the service ("on
// Slack", "via WhatsApp"), the venue ("at Pebble Beach"), what it is for
// ("earthquake alerts for Alaska"); so is a name after "my" or "our"
// (possessives: "in my Excel spreadsheet", the asker's own app or
// account). requestNames leaves such a name out of
// its others, so it counts in full in Result.Coverage. Measured with
// otherNameWeight (docs/benchmarks.md, "Names as arguments"): without
// them bfcl and livemcpbench no-answer flagged fell 82 → 80 % and 84 →
// 82 % in both modes ("Book a tee time for two at Pebble Beach", "Let my
// manager know on Slack, ...") and example held-out-22 keyword 76 → 74 %.
// "through" and "using" name the service as namedMeans reads it ("page
// the on-call engineer through Opsgenie"): added for that agreement
// (thirteenth session's review), no measured set moves (modes.sh, ex.sh,
// pooled, both modes).
var servicePrepositions = wordSet("on with at via for through using")

// NamedObjects returns the words (analysis.Words) of the names that a raw
// request asks for as a thing, not as an argument value: a capitalized
// word inside a sentence (argumentValue), neither technical nor all
// capitals nor quoted, right after "a", "an", "my", "our" or "your"
// (namedDeterminers, written in lowercase unless it starts a sentence:
// in Title Case every word is capitalized), that ends its noun phrase — the last word, one
// before punctuation, a preposition or a clause break: "get me a Lyft
// from the Ferry Building" → lyft, "my heart rate from my Fitbit for the
// past week" → fitbit; not "a Fender guitar" (the name qualifies a noun)
// nor "my Zeta Corp order", nor a common noun for a person that a writer
// capitalizes as a name ("text my Mom", "email my Boss": personNouns).
// So is such a name right after a preposition of means ("on", "through",
// "via", "using": namedMeans) before any colon: "open a merge request on
// GitLab", "page the on-call engineer through PagerDuty" (thirteenth
// session, h39-na; measured in package search, unservedname.go).
// The no-match decision of package search reads such a name that no tool
// knows as a service the catalog does not have. It is a pure function of
// raw, safe for concurrent use.
func NamedObjects(raw string) []string {
	var out []string
	for _, n := range namedPhrases(raw) {
		if n.Head == "" {
			out = append(out, n.Name...)
		}
	}
	return out
}

// NamedPhrase is a name read where NamedObjects reads one (after a
// determiner or a preposition of means): Name its words (analysis.Words),
// Head the lowercase noun that ends its noun phrase after it when the
// name qualifies one ("our Mailchimp audience" → mailchimp, audience), ""
// when the name itself ends it. A plain value; NamedQualifiers allocates
// its Name afresh for each call.
type NamedPhrase struct {
	Name []string
	Head string
}

// NamedQualifiers returns the names that qualify the noun ending their
// phrase (NamedPhrase.Head): "add them to our Mailchimp audience", "send
// the figures as an Excel attachment", "a Fender guitar". Package search
// reads one that no tool knows, whose noun no top tool has, as a service
// the catalog does not have. A pure function of raw.
func NamedQualifiers(raw string) []NamedPhrase {
	var out []NamedPhrase
	for _, n := range namedPhrases(raw) {
		if n.Head != "" {
			out = append(out, n)
		}
	}
	return out
}

// namedPhrases returns the names of raw that NamedObjects and
// NamedQualifiers read: a run of capitalized words inside a sentence
// (nameToken) right after a determiner or a preposition of means, that
// ends its noun phrase or is followed by one lowercase noun that does.
func namedPhrases(raw string) []NamedPhrase {
	var out []NamedPhrase
	var quote bool
	start := true
	det := false   // the token before is a determiner (lowercase, unless it starts a sentence)
	means := false // the token before is a preposition of means, before any message text (namedMeans)
	text := false  // a colon came before: what follows is a message's text ("...: broken on Safari")
	toks := strings.Fields(raw)
	for i, tok := range toks {
		after, by := det, means
		// In Title Case ("Create A Calendar Event For My Dentist") every
		// word is capitalized: a name there is no name.
		det = namedDeterminers[strings.ToLower(tok)] && (start || tok == strings.ToLower(tok))
		means = !text && namedMeans[tok]
		if quote || opensQuote(tok) && quoteCloses(toks[i:]) {
			quote = quoteAfter(tok, quote)
			start = false
			continue
		}
		core := tokenCore(tok)
		if (after || by) && !timeName(core) && nameToken(core, start) {
			if n, ok := namedPhrase(toks, i); ok {
				out = append(out, n)
			}
		}
		start = strings.ContainsAny(tok[len(tok)-1:], ".?!:")
		text = text || strings.HasSuffix(tok, ":")
	}
	return out
}

// nameToken reports whether core (a token without its outer punctuation)
// is a word of a name: capitalized inside a sentence (argumentValue),
// neither technical nor all capitals, and no common noun for a person
// (personNouns).
func nameToken(core string, sentenceStart bool) bool {
	return argumentValue(core, sentenceStart) && !technical(core) && strings.ToUpper(core) != core && !personNouns[strings.ToLower(core)]
}

// namedPhrase reads the name that opens at toks[i] (a nameToken): the
// capitalized words from there up to a punctuation's end, then either the
// end of its noun phrase (endsPhrase) or one lowercase plain word that
// ends it, the noun the name qualifies.
func namedPhrase(toks []string, i int) (NamedPhrase, bool) {
	j := i + 1
	for j < len(toks) && !strings.ContainsAny(toks[j-1][len(toks[j-1])-1:], ".,;:!?") && !opensQuote(toks[j]) && nameToken(tokenCore(toks[j]), false) {
		j++
	}
	var name []string
	for _, t := range toks[i:j] {
		name = append(name, analysis.Words().Analyze(tokenCore(t))...)
	}
	if endsPhrase(toks[j-1], toks[j:]) {
		// One word: "a Lyft"; several are mostly a common noun's phrase in
		// Title Case ("a Random Forest Model on", "a Reading Room and").
		return NamedPhrase{Name: name}, j == i+1
	}
	if strings.ContainsAny(toks[j-1][len(toks[j-1])-1:], ".,;:!?") || opensQuote(toks[j]) {
		return NamedPhrase{}, false
	}
	head := tokenCore(toks[j])
	if head == "" || head != strings.ToLower(head) || technical(head) || !endsPhrase(toks[j], toks[j+1:]) {
		return NamedPhrase{}, false // "my Zeta Corp order number", "a Fender guitar 2 days ago"
	}
	hw := analysis.Words().Analyze(head)
	if len(hw) != 1 {
		return NamedPhrase{}, false
	}
	return NamedPhrase{Name: name, Head: hw[0]}, true
}

// timeName reports whether core, a capitalized token, is a day's name,
// one or several ("on Friday", "on Sundays"), or a month's ("my March
// payslip", "on June 3"): a time, no service, whether it follows a
// preposition of means or a determiner.
func timeName(core string) bool {
	w := strings.ToLower(core)
	return isTime(w) || isTime(strings.TrimSuffix(w, "s")) || monthNames[w]
}

// monthNames are the months' names in lowercase (timeName). General
// English, not from any query set.
var monthNames = wordSet("january february march april may june july august september october november december")

// namedMeans are the prepositions (in lowercase) before a name that is
// the service a request is to be done on or through ("open a merge
// request on GitLab", "page the on-call engineer through PagerDuty",
// "book it via Expedia"), a thing asked for as a name after a determiner
// is (NamedObjects); not "with" (a person: "a call with Sam") nor "in",
// "to", "from", "at" (places: "the weather in Lisbon"), and no time ("on
// Friday", "on Sundays": timeName; no measured set has the plural, which
// a scan of bfcl's answerable requests found). A name after a colon is a
// message's text ("open an issue: login broken on Safari").
var namedMeans = wordSet("on through via using")

// namedDeterminers come before a name that is the thing a request is
// about (NamedObjects).
var namedDeterminers = wordSet("a an my our your")

// personNouns are common nouns for a person by kinship or role, which a
// writer may capitalize as the person's name after "my" or "our" ("text
// my Mom", "email my Boss", "call our Landlord"): a person to reach, an
// argument value, no service a catalog lacks (NamedObjects). General
// English, written from general knowledge, not from any query set.
var personNouns = wordSet("mom mum mommy mummy mama ma dad daddy papa pa mother father parents " +
	"sister brother sis bro sibling wife husband hubby spouse partner boyfriend girlfriend fiance fiancee " +
	"son daughter kid kids child children baby aunt auntie uncle cousin niece nephew grandma grandpa " +
	"granny grandmother grandfather nana nan gran grandson granddaughter family " +
	"boss manager supervisor colleague coworker teammate team assistant secretary landlord landlady " +
	"tenant roommate flatmate neighbor neighbour friend bestie doctor doc dentist therapist nurse " +
	"lawyer attorney accountant teacher tutor coach trainer babysitter nanny")

// endsPhrase reports whether raw token tok ends its noun phrase: it ends
// with punctuation, or no token follows, or the next one opens with a
// preposition or a clause break (objectEnds, clauseBreaks).
func endsPhrase(tok string, next []string) bool {
	if strings.ContainsAny(tok[len(tok)-1:], ".,;:!?") || len(next) == 0 {
		return true
	}
	nw := analysis.Words().Analyze(next[0])
	return len(nw) > 0 && (objectEnds[nw[0]] || clauseBreaks[nw[0]])
}

// quoteAfter reports whether quoted text is still open after tok, a raw
// token that opens quoted text or comes inside it (quoted: it was open
// before tok).
func quoteAfter(tok string, quoted bool) bool {
	opens := !quoted && opensQuote(tok)
	body := strings.TrimLeft(tok, quotes)
	if opens && body == "" {
		return true
	}
	closes := strings.ContainsAny(body, quotes) || (!opens && strings.ContainsAny(tok, quotes))
	return !closes
}

// quotedTerms appends to dst, for each of ts, whether it is inside quoted
// text that closes ("add a line 'TODO: rotate keys' to my ops note",
// “the fix is deployed”, or a term that query.Parse read as one between
// double quotes): the text a caller passes, a message's or a name's, an
// argument value whose words keyword search ranks at formedWeight, as a
// path's. An unclosed quote is an elision (quoteCloses).
func quotedTerms(ts []query.Term, dst []bool) []bool {
	open := false
	for k, t := range ts {
		in := open
		switch {
		case open:
			open = quoteAfter(t.Text, true)
		case opensQuote(t.Text) && closesWithin(len(ts)-k, func(i int) string { return ts[k+i].Text }):
			in, open = true, quoteAfter(t.Text, false)
		default:
			in = strings.ContainsFunc(t.Text, unicode.IsSpace)
		}
		dst = append(dst, in)
	}
	return dst
}

// quoteCloses reports whether the quoted text toks[0] opens closes within
// toks. A quote never closed is no quote but an elision ("songs from '19.
// I hear the album Reincarnation is nice", "'m traveling soon and need
// the forecast"): read as one, it made every later word an argument value
// and one clause.
func quoteCloses(toks []string) bool {
	return closesWithin(len(toks), func(i int) string { return toks[i] })
}

// closesWithin is quoteCloses over n tokens that tok returns.
func closesWithin(n int, tok func(int) string) bool {
	for i := range n {
		if !quoteAfter(tok(i), i > 0) {
			return true
		}
	}
	return false
}

// tokenCore is a raw query token without its outer punctuation, but with
// a leading '#', '@' or '/'.
func tokenCore(tok string) string {
	return strings.TrimFunc(tok, func(r rune) bool { return unicode.IsPunct(r) && !strings.ContainsRune("#@/", r) })
}

// technical reports whether a token core is an argument value by its form:
// it has a digit or an inner @ / . : # _ (numbers, dates, paths, e-mail
// addresses, URLs, channels, issue keys, file names).
func technical(core string) bool {
	return strings.ContainsFunc(core, unicode.IsDigit) || strings.ContainsAny(strings.Trim(core, ".:"), "@/.:#_")
}

// Kinds of argument values by their form (ValueKinds): the kind of thing
// a value names, which a tool can act on only if it takes that kind of
// argument.
const (
	// KindPath: a file system path ("/tmp/old-report.csv", "~/src/app",
	// "./build", "docs/setup.md").
	KindPath = "path"
	// KindFile: a file name with a common extension ("deploy.sh",
	// "logs.zip", "report.pdf").
	KindFile = "file"
	// KindEmail: an e-mail address ("bob@example.com").
	KindEmail = "email"
	// KindURL: a web address ("https://go.dev/doc", "www.example.com").
	KindURL = "url"
	// KindChannel: a channel or hashtag ("#general", "#old-project"),
	// not a colour's hex code ("#00ff00").
	KindChannel = "channel"
	// KindRepo: an owner/name pair ("acme/widgets", "golang/go"), which
	// also names branches ("feature/login") and relative paths.
	KindRepo = "repo"
	// KindIssue: an issue key ("OPS-12", "PAY-210").
	KindIssue = "issue"
	// KindPhone: a telephone number ("+49 170 1234567", "555-0199",
	// "(415) 555-0100"; phoneLength).
	KindPhone = "phone"
	// KindCoordinates: a latitude and a longitude in decimal degrees
	// ("48.8584, 2.2945", "40.7484,-73.9857"; coordinatesLength).
	KindCoordinates = "coordinates"
	// KindEmoji: an emoji's short code (":eyes:", ":white_check_mark:",
	// ":+1:"; emojiCode).
	KindEmoji = "emoji"
	// KindPattern: a glob pattern of file names ("*.tf", "report-*.pdf",
	// "src/**/*.ts"; globCore).
	KindPattern = "pattern"
	// KindUser: a chat workspace's user id ("U04ABCD12", "W0123ABCD";
	// chatID). A chat channel's id ("C024BE91L") is a KindChannel.
	KindUser = "user"
)

// Value is an argument value of a request with its kind (ValueKinds). A
// plain value, safe to copy.
type Value struct {
	// Text is the value as written, without its outer punctuation.
	Text string
	// Kind is one of the Kind constants.
	Kind string
	// Adjunct: the value is in a phrase opened by "about", "for",
	// "regarding", "as" or "with" (adjunctPrepositions): the request's
	// subject, purpose, format or instrument rather than a thing it acts
	// on: "add a note about the SHA-256 checksum", "create a branch for
	// OPS-12", "encode the text as UTF-8", "hash it with SHA-256"; or it
	// is in a message's text, after "that" or "saying" (textStarts) up to
	// a clause break or the sentence's end: "send a message to #ops saying
	// call me at +1 415 555 0100".
	Adjunct bool
}

// adjunctPrepositions open the phrase of a request's subject, purpose,
// format or instrument (Value.Adjunct), up to the next preposition
// (objectEnds) or comma.
var adjunctPrepositions = wordSet("about for regarding as with")

// fileExtensions are the extensions that make a name a file's (KindFile):
// documents, data, code, archives and media. A name with another ending
// is a domain, a product or a framework ("tacoshack.dev", "Node.js",
// "D.C.").
var fileExtensions = wordSet("txt csv tsv json yaml yml toml xml md pdf doc docx xls xlsx ppt pptx odt " +
	"sh py go rb java cpp ts html htm css sql log zip tar gz tgz rar 7z png jpg jpeg gif svg webp bmp " +
	"mp3 mp4 m4a wav mov avi mkv ini cfg conf env")

// ValueKinds returns the argument values of raw whose form says what kind
// of thing they are (a path, a file, an e-mail address, a URL, a channel,
// an owner/name pair, an issue key, a chat id, a phone number or coordinates, which
// may span several tokens; the Kind constants), in order, each
// marked when it is the request's subject, purpose, format or
// instrument, or in a message's text (Value.Adjunct).
// Quoted text is a message or a title, not a value of a kind; numbers,
// dates, names and words joined by a slash ("and/or", "TCP/IP") have no
// kind. It is a pure function of raw, safe for concurrent use.
func ValueKinds(raw string) []Value {
	var out []Value
	var quote, adjunct, text bool // text: in a message's text (Value.Adjunct)
	skip := -1                    // the last token of a phone number read
	toks := strings.Fields(raw)
	for i, tok := range toks {
		if i <= skip {
			continue
		}
		if quote || opensQuote(tok) && quoteCloses(toks[i:]) {
			quote = quoteAfter(tok, quote)
			continue
		}
		if clauseBreak(tok) {
			text = false
		}
		core := strings.TrimRight(tokenCore(tok), ".:")
		kind, n := KindPhone, phoneLength(toks[i:])
		if n == 0 {
			kind, n = KindCoordinates, coordinatesLength(toks[i:])
		}
		last := tok // the token whose end may close the phrase or the sentence
		if n > 0 {
			skip = i + n - 1
			out = append(out, Value{spanCore(rawSpan(raw, toks, i, skip)), kind, adjunct || text})
			last = toks[skip]
		} else if w := strings.ToLower(core); objectEnds[w] {
			adjunct = adjunctPrepositions[w]
			text = text || textStarts[w] && !determiner([]string{w}, toks[i+1:])
		} else if g := globCore(tok); g != "" {
			out = append(out, Value{g, KindPattern, adjunct || text})
		} else if k := formKind(core); k != "" {
			out = append(out, Value{core, k, adjunct || text})
		} else if code := strings.TrimRight(tok, ".,;!?)"); emojiCode(code) {
			out = append(out, Value{code[1 : len(code)-1], KindEmoji, adjunct || text}) // its name: tokenCore would cut the "-" of ":-1:"
		}
		if strings.ContainsAny(last[len(last)-1:], ".,;:!?") {
			adjunct = false
		}
		if strings.ContainsAny(last[len(last)-1:], ".?!") {
			text = false
		}
	}
	return out
}

// formKind returns the kind of a token core by its form (see ValueKinds),
// or "": the one classifier of values by kind, which keyword search reads
// too (valueKind).
func formKind(core string) string {
	switch at := strings.IndexByte(core, '@'); {
	case strings.HasPrefix(core, "http://") || strings.HasPrefix(core, "https://") || strings.HasPrefix(core, "www."):
		return KindURL
	case at > 0 && strings.Contains(core[at+1:], ".") && !strings.ContainsAny(core, "/:"):
		return KindEmail
	case len(core) > 1 && core[0] == '#' && !strings.ContainsAny(core[1:], "#/@.") && strings.ContainsFunc(core[1:], unicode.IsLetter):
		if hexColor(core[1:]) {
			return "" // "#00ff00": a colour, no channel
		}
		return KindChannel
	case strings.HasPrefix(core, "/") || strings.HasPrefix(core, "~/") || strings.HasPrefix(core, "./") || strings.HasPrefix(core, "../"):
		if strings.ContainsFunc(core, unicode.IsLetter) {
			return KindPath
		}
	case strings.Contains(core, "/"):
		parts := strings.Split(core, "/")
		if fileName(parts[len(parts)-1]) {
			return KindPath
		}
		if len(parts) == 2 && namePart(parts[0]) && namePart(parts[1]) && !pairOfWords(parts[0], parts[1]) {
			return KindRepo
		}
	case fileName(core):
		return KindFile
	case issueKey(core):
		return KindIssue
	default:
		return chatID(core)
	}
	return ""
}

// chatIDMin and chatIDMax are the shortest and longest chat id (chatID),
// 9 to 12 characters: the Slack ids of the example and dev sets have 9 to
// 11 ("C024BE91L", "C02INCIDENT"), and one more is allowed. Not measured
// apart from chatID (docs/benchmarks.md, "A chat id is a channel's or a
// user's").
const chatIDMin, chatIDMax = 9, 12

// chatID returns the kind of a chat workspace's id, or "": a channel's
// (KindChannel: "C024BE91L", "C02RELEASE"; G and D open a private one's
// and a direct one's) or a user's (KindUser: "U04ABCD12", "W0123ABCD"),
// its letter, a "0", then capitals and digits (chatIDMin to chatIDMax in
// all) with a capital after the letter. The "0" and the capital keep out
// the other codes of capitals and digits the example and dev sets name: a
// chemical formula ("C12H22O11"), a product's number ("W003247135",
// "B08N5WG761"), a parcel's ("CA107308006SI"), a trial's ("NCT04280705").
func chatID(core string) string {
	if len(core) < chatIDMin || len(core) > chatIDMax || core[1] != '0' ||
		strings.ContainsFunc(core, func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9') }) ||
		!strings.ContainsFunc(core[1:], func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
		return ""
	}
	switch core[0] {
	case 'C', 'G', 'D':
		return KindChannel
	case 'U', 'W':
		return KindUser
	}
	return ""
}

// emojiCode reports whether tok, a raw token without its trailing
// punctuation, is an emoji's short code: at least two lower-case letters,
// digits, "_", "+" or "-" between colons (":eyes:", ":+1:",
// ":white_check_mark:"), with a letter or a "+1"/"-1".
func emojiCode(tok string) bool {
	name, open := strings.CutPrefix(tok, ":")
	name, closed := strings.CutSuffix(name, ":")
	if !open || !closed || len(name) < 2 {
		return false
	}
	if strings.ContainsFunc(name, func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_' || r == '+' || r == '-')
	}) {
		return false
	}
	return name == "+1" || name == "-1" || strings.ContainsFunc(name, func(r rune) bool { return 'a' <= r && r <= 'z' })
}

// rawSpan returns raw's text from its field i to its field j (toks is
// strings.Fields(raw)) as written, the spaces between them kept: a value
// of several tokens is a span of the request ("+49  170 1234567"), not
// its tokens joined again.
func rawSpan(raw string, toks []string, i, j int) string {
	at, start := 0, 0
	for k := 0; k <= j; k++ {
		at += strings.Index(raw[at:], toks[k]) // a field has no space: its first occurrence after the last is itself
		if k == i {
			start = at
		}
		at += len(toks[k])
	}
	return raw[start:at]
}

// spanCore returns a value of several tokens (a phone number, coordinates)
// without its outer punctuation, as tokenCore gives a value of one token:
// "[40.7484,-73.9857]" → 40.7484,-73.9857, "(+49 170 1234567)," → +49 170
// 1234567; a national number's area code keeps its parentheses ("(415)
// 555-0100"), and "+" and "-" their place. An opening parenthesis goes
// while the span has more of them than closing ones, so the core of a
// core is itself ("((0.0,0.0" → 0.0,0.0, as "(0.0,0.0" gives).
func spanCore(text string) string {
	for {
		core := strings.TrimLeft(strings.TrimRight(text, ".,;:!?)]"), "[")
		if strings.HasPrefix(core, "(") && strings.Count(core, "(") > strings.Count(core, ")") {
			core = core[1:]
		}
		if core == text {
			return core
		}
		text = core
	}
}

// phoneLength returns how many of toks, from the first, make a telephone
// number (KindPhone), or 0: an international number, "+" and its country
// code, with the groups of digits after it ("+49 170 1234567", "+1 555
// 0100", "+14155550100"), or a national one of three digits and four,
// perhaps after three more ("555-0199", "415-555-0100", "(415)
// 555-0100", its parentheses closed). A number of digits alone, a date ("2019-07-14") or a range
// ("10-20", "300-1000": numberRange) is none.
func phoneLength(toks []string) int {
	core := strings.TrimRight(tokenCore(toks[0]), ".,")
	if rest, ok := strings.CutPrefix(core, "+"); ok && rest != "" && isNumber(rest) {
		n, digits := 1, len(rest)
		for ; n < len(toks) && digits < maxPhoneDigits; n++ {
			g := strings.Trim(toks[n], "().,;:!?")
			if g == "" || !isNumber(strings.ReplaceAll(g, "-", "")) || strings.ContainsAny(toks[n][:len(toks[n])-1], ",;:!?") {
				break
			}
			digits += len(strings.ReplaceAll(g, "-", ""))
			if strings.ContainsAny(toks[n][len(toks[n])-1:], ".,;:!?") {
				n++
				break
			}
		}
		if digits >= minPhoneDigits && digits <= maxPhoneDigits {
			return n
		}
		return 0
	}
	if strings.HasPrefix(toks[0], "(") && strings.HasSuffix(toks[0], ")") && len(core) == 3 && isNumber(core) && len(toks) > 1 {
		if g := strings.Split(strings.TrimRight(toks[1], ".,;:!?"), "-"); len(g) == 2 && len(g[0]) == 3 && len(g[1]) == 4 && isNumber(g[0]+g[1]) {
			return 2 // "(415) 555-0100"
		}
	}
	g := strings.Split(core, "-")
	area := len(g) == 3 && len(g[0]) == 3 && isNumber(g[0])
	if area {
		g = g[1:]
	}
	if len(g) == 2 && len(g[0]) == 3 && len(g[1]) == 4 && isNumber(g[0]+g[1]) && (area || !numberRange(g[0], g[1])) {
		return 1
	}
	return 0
}

// numberRange reports whether a and b, the groups of "ddd-dddd" without an
// area code, are rather a range of numbers than a local telephone number:
// the first opens with 0 or 1, as no exchange does ("100-2000",
// "150-1200 dollars"), or both are round ("300-1000 a night", "500-1000
// per person"); "555-0199", "555-0100" and "212-5551" are numbers.
func numberRange(a, b string) bool {
	return a[0] == '0' || a[0] == '1' || a[len(a)-1] == '0' && b[len(b)-1] == '0'
}

// coordinatesLength returns how many of toks, from the first, make a
// latitude and a longitude in decimal degrees (KindCoordinates), or 0:
// two decimal numbers with a fractional part, the first at most 90 and the
// second at most 180 in magnitude, joined by a comma within one token
// ("40.7484,-73.9857") or the first ending with one ("48.8584, 2.2945").
// Prices and versions are no coordinates when they are one number alone
// ("12.50"), and a list of decimals reads as coordinates only pairwise.
func coordinatesLength(toks []string) int {
	first := strings.TrimLeft(toks[0], "([")
	if a, b, ok := strings.Cut(strings.TrimRight(first, ".;:!?)]"), ","); ok && b != "" {
		if degrees(a, 90) && degrees(b, 180) {
			return 1
		}
		return 0
	}
	if len(toks) < 2 || !strings.HasSuffix(first, ",") || !degrees(strings.TrimSuffix(first, ","), 90) {
		return 0
	}
	if degrees(strings.TrimRight(toks[1], ".,;:!?)]"), 180) {
		return 2
	}
	return 0
}

// degrees reports whether s is a decimal number with a fractional part
// ("48.8584", "-73.9857") of magnitude at most limit.
func degrees(s string, limit float64) bool {
	whole, frac, ok := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if !ok || !isNumber(whole) || !isNumber(frac) || len(whole) > 3 {
		return false
	}
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && math.Abs(v) <= limit
}

// coordinatesHead reports whether a query chunk may open coordinates of
// two chunks ("48.8584,"): whether it does depends on the next chunk, so
// the query-word cache (termWords) does not keep it.
func coordinatesHead(text string) bool {
	return strings.HasSuffix(text, ",") && degrees(strings.TrimSuffix(text, ","), 90)
}

// minPhoneDigits and maxPhoneDigits bound the digits of an international
// telephone number, its country code included (E.164 allows at most 15;
// "+1 555 0100" has 8).
const (
	minPhoneDigits = 7
	maxPhoneDigits = 15
)

// fileName reports whether s is a name with a file extension
// (fileExtensions), written in lowercase: "deploy.sh", "README.md".
func fileName(s string) bool {
	i := strings.LastIndexByte(s, '.')
	return i > 0 && fileExtensions[s[i+1:]] && strings.ContainsFunc(s[:i], unicode.IsLetter)
}

// globCore returns tok, a raw token, without its outer punctuation when
// it is a glob pattern of file names (KindPattern): a "*" with a letter,
// and a dot or a slash ("*.tf", "report-*.pdf", "src/**/*.ts"), not
// emphasis ("**urgent**") nor arithmetic ("3*4"); "" otherwise. tokenCore
// would cut a leading "*", a punctuation mark.
func globCore(tok string) string {
	s := strings.TrimRight(strings.TrimLeft(tok, "(\"'`"), ".,;:!?)\"'`")
	if strings.Contains(s, "*") && strings.ContainsFunc(s, unicode.IsLetter) && strings.ContainsAny(s, "./") {
		return s
	}
	return ""
}

// namePart reports whether s is one part of an owner/name pair: two or
// more letters, digits, '.', '-' and '_', with a letter ("m/s" and "w/o"
// are units and abbreviations).
func namePart(s string) bool {
	return len(s) > 1 && strings.ContainsFunc(s, unicode.IsLetter) &&
		!strings.ContainsFunc(s, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-", r)
		})
}

// hexColor reports whether s, a token after '#', is a colour's hex code:
// 6 or 8 hex digits ("00ff00", "abcdef"), or 3 or 4 with a decimal digit
// ("f00"; "#cafe" and "#add" stay channels).
func hexColor(s string) bool {
	if strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEF", r) }) {
		return false
	}
	switch len(s) {
	case 6, 8:
		return true
	case 3, 4:
		return strings.ContainsFunc(s, unicode.IsDigit)
	}
	return false
}

// pairOfWords reports whether an owner/name pair's parts a and b are
// rather two words or codes joined by a slash: both without a lowercase
// letter ("TCP/IP", "USD/EUR", "Q1/Q2"), one a stop word ("and/or",
// "his/her"), or a pair of short forms ("lat/long", "lat/lng":
// shortForms).
func pairOfWords(a, b string) bool {
	lower := func(s string) bool { return strings.ContainsFunc(s, unicode.IsLower) }
	la, lb := strings.ToLower(a), strings.ToLower(b)
	return !lower(a) && !lower(b) ||
		analysis.English.Contains(la) || analysis.English.Contains(lb) ||
		shortForms[la+" "+lb] != nil || shortFormOf(la) != nil && shortFormOf(lb) != nil
}

// issueKey reports whether s is an issue key: capital letters (a project
// key), a hyphen and a number ("OPS-12").
func issueKey(s string) bool {
	key, num, ok := strings.Cut(s, "-")
	return ok && len(key) >= 2 && num != "" && startsUpper(key) &&
		!strings.ContainsFunc(key, func(r rune) bool { return !unicode.IsUpper(r) && !unicode.IsDigit(r) }) &&
		!strings.ContainsFunc(num, func(r rune) bool { return !unicode.IsDigit(r) })
}

// argumentValue reports whether a token core outside quotes is an argument
// value: by its form (technical) or a capitalized name that does not start
// a sentence ("Denver", "Maria").
func argumentValue(core string, sentenceStart bool) bool {
	return technical(core) || !sentenceStart && startsUpper(core)
}

// opensQuote reports whether a raw token opens quoted text (quotes).
func opensQuote(tok string) bool {
	first, _ := utf8.DecodeRuneInString(tok) // a curly quote is several bytes
	return strings.ContainsRune(quotes, first)
}

// argumentToken reports whether a query term, as written, is an argument
// value by its form (technical): "#general", "report.txt",
// "https://example.com", "OPS-12", "10am". Keyword search leaves such
// words out of Result.Coverage when the catalog does not know them.
func argumentToken(text string) bool {
	return technical(tokenCore(text))
}

// quotes open and close quoted text, an argument value: "'Draft.txt'",
// “the fix is deployed”.
const quotes = "\"'“”‘’`"

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// Opening is how a request opens (RequestOpening): its first word, the
// phrase after it and any message text, which the no-match decision reads
// as the request's action, its object and free text. A plain value, safe
// to copy.
type Opening struct {
	// Verb is the request's first word after a preamble ("please", "can
	// you", "I'd like to"; openingPreamble), as analysis.Words gives it;
	// "" when the request opens with a question word ("what", "how",
	// "is"; questionWords) or a noun phrase (nounOpening: "cast of the
	// movie Inception"), or has no other word.
	Verb string
	// VerbValue: Verb's own token is an argument value by its form
	// (technical: "#random", "OPS-12") or opens quoted text, so Verb is
	// no verb. The same word as a value later in the request ("zip up
	// the logs folder into logs.zip") leaves Verb a verb.
	VerbValue bool
	// Object holds the words (analysis.Words) between Verb and the first
	// preposition, "that", "saying" or colon (objectEnds): "cancel my
	// flight to Oslo" → my, flight; "transition OPS-8 to review" → ops, 8.
	Object []string
	// Text holds the words after the first "that", "saying" or colon
	// after Verb, the text of a message ("comment on OPS-12 that the fix
	// is deployed" → the, fix, is, deployed), which says nothing for or
	// against a tool.
	Text []string
	// End is the word of objectEnds that ended Object, most often a
	// preposition ("add the bug label to issue #45" → to; "so" of a
	// purpose too), or afterObjectEnd after a word of Object ("a new
	// branch hotfix/login off main" → off), "" when none did; Place holds the words after it up
	// to the next such word or a clause's end (issue, 45): after a
	// preposition, where the verb puts its object, or takes it from.
	End   string
	Place []string
}

// openingPreamble are the words a request may put before its verb
// (PreambleWord); "s" is the rest of "let's". The adverbs that chain a
// list of asks ("Additionally, provide ...", "Finally, book ...") are
// preamble too: the word after them asks for something.
var openingPreamble = wordSet("please pls plz kindly can could would will you i d m ll we me us to need want like " +
	"let s help try just also quickly go ahead hey hi ok so and then now " +
	"additionally finally lastly furthermore moreover besides plus afterwards secondly thirdly")

// PreambleWord reports whether w (a word as analysis.Words gives it) is one
// a request may put before its verb ("please", "can you", "I'd like to",
// "let's"): RequestOpening and RequestClauses skip such words, and the
// no-match decision of package search reads a request's first ranking
// word after them. A pure function, safe for concurrent use.
func PreambleWord(w string) bool { return openingPreamble[w] }

// prefixLetters is the longest prefix that a hyphen joins to a request's
// verb ("e-file my tax return", "co-sign the lease", "re-send the
// invite"): the verb is the word after it.
const prefixLetters = 2

// cutVerbPrefix returns ws, the words of raw token tok, without a prefix
// that a hyphen joins to a verb (prefixLetters: "e-file", "co-sign",
// "re-send" → file, sign, send), which RequestOpening and RequestClauses
// both read as the verb's; ws itself otherwise.
func cutVerbPrefix(tok string, ws []string) []string {
	if len(ws) == 2 && len(ws[0]) <= prefixLetters && strings.Contains(tok, "-") && !openingPreamble[ws[1]] && !questionWords[ws[1]] {
		return ws[1:]
	}
	return ws
}

// countWords are the cardinal numbers written as words (CountWord),
// beside digits: general English, two to twelve ("one" is a pronoun as
// often: "pull the one from Friday"), the teens, the tens, "hundred" and
// "dozen" (the teens, sixty to ninety and "dozen" added after the
// thirteenth session's review). As a digit is an argument value, one the
// catalog does not know counts in no coverage (keyword search's).
var countWords = wordSet("two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen")

// CountWord reports whether w (a word as analysis.Words gives it) is a
// cardinal number written as a word (countWords: "two", "twenty",
// "dozen"). A pure function.
func CountWord(w string) bool { return countWords[w] }

// questionWords open a question rather than a request: a question word
// (whWords) or a verb that opens a yes/no question.
var questionWords = withWords(whWords, "is are am was were do does did")

// whWords are the question words ("what", "how" ...): a request that
// opens with one asks to be told something (WhWord).
var whWords = wordSet("what where when how which who whom whose why")

// WhWord reports whether w (a word as analysis.Words gives it) is a
// question word (whWords: "what", "which", "how" ...), one that opens a
// question rather than a request. A pure function.
func WhWord(w string) bool { return whWords[w] }

// withWords returns a new set of the words of set and of s.
func withWords(set map[string]bool, s string) map[string]bool {
	m := wordSet(s)
	for w := range set {
		m[w] = true
	}
	return m
}

// afterObjectEnd ends a request's object phrase after a word of it, not
// right after the verb: "start a new branch hotfix/login off main" takes
// the branch from main ("off" a preposition, as "from"), where "call off
// the offsite" and "switch off the lights" say the verb's particle
// (package search's phrasal verbs read it). Measured: see
// docs/benchmarks.md, "Verbs of beginning make a new thing" (thirteenth
// session, h39-flags).
const afterObjectEnd = "off"

// objectEnds end a request's object phrase: prepositions, and the words
// that introduce a message's text (textStarts). Those after "when" (the
// other prepositions of place and time, and "while") were added in the
// tenth session (h36-bfclna): "Find him a driving school near Columbus"
// read "near" and "Columbus" into the object, and car_rental ("Rent a car
// near you") served the read; default and keyword mode, bfcl held-out
// no-answer flagged 70 → 75 %, nothing else moves (no flag and no nDCG@10
// of any example, dev or dev held-out set). "around", "past", "inside",
// "outside" and "like" are left out: they also modify a noun or end a
// phrasal verb ("the outside temperature", "past events", "move the
// meetings around"). "so" (h36-dev19) opens a purpose or a result ("Overwrite
// ~/notes/todo.txt so it contains only the line ...": "contains" and
// "line" are no object of filesystem__write_file, and the unserved object
// flagged it): default and keyword mode, example held-out-19 answerable
// flagged 10 → 8 % (keyword 14 → 12 %), keyword tuning 5.9 → 5.0 %,
// held-out-9 10 → 8 %, held-out-20 16 → 14 %, bfcl held-out-2 no-answer
// keyword 80 → 85 %; nothing else moves (no nDCG@10 of any dev set).
var objectEnds = wordSet("to into onto from in on for with at as by about of under until via through over after " +
	"before within without than that saying where which who when near during between across while since toward towards throughout upon among against so")

// ObjectEnd reports whether w (a word as analysis.Words gives it) ends
// a noun phrase the way it ends a request's object (objectEnds: a
// preposition, "that", "so"): the no-match decision of package search
// reads a tool description's places ("in a GitHub repository with a
// title") and its verbs' objects ("Add a comment to ...": comment, to)
// with it (phraseHead). A pure function.
func ObjectEnd(w string) bool { return objectEnds[w] }

// textStarts introduce a message's text: "tell the team that ...",
// "reply saying ...".
var textStarts = wordSet("that saying")

// TextStart reports whether w (a word as analysis.Words gives it)
// introduces a message's text ("that", "saying"; Opening.Text holds the
// words after it): no word of the request's object. A pure function.
func TextStart(w string) bool { return textStarts[w] }

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// RequestOpening returns how the raw request opens (see Opening): "please
// archive the #old-project channel" → archive, [the old project channel];
// "what's in the downloads folder" → no verb. It is a pure function of
// raw, safe for concurrent use.
func RequestOpening(raw string) Opening { return requestOpening(raw, false) }

// RequestVerb returns RequestOpening(raw)'s Verb and VerbValue, reading raw
// only up to its verb (a rule that asks only which verb opens a request,
// and most requests are longer than their opening). A pure function.
func RequestVerb(raw string) (verb string, value bool) {
	op := requestOpening(raw, true)
	return op.Verb, op.VerbValue
}

// requestOpening is RequestOpening, which returns once it has the verb
// when verbOnly (its Object and Text then cut short).
func requestOpening(raw string, verbOnly bool) Opening {
	var op Opening
	object, text, place := false, false, false
	toks := strings.Fields(raw)
	for i, tok := range toks {
		ws := analysis.Words().Analyze(tok)
		if len(ws) == 0 {
			continue
		}
		switch {
		case text:
			op.Text = append(op.Text, ws...)
		case op.Verb == "":
			if _, ws = cutPreamble(ws); len(ws) == 0 {
				continue
			}
			if questionWords[ws[0]] || nounOpening(tok, ws, toks[i+1:]) {
				return Opening{}
			}
			ws = cutVerbPrefix(tok, ws)
			op.Verb, object = ws[0], true
			op.VerbValue = technical(tokenCore(tok)) || opensQuote(tok)
			if verbOnly {
				return op
			}
			op.Object = append(op.Object, ws[1:]...)
		case object && len(op.Object) == 0 && determiner(ws, toks[i+1:]):
			op.Object = append(op.Object, ws...)
		case textStarts[ws[0]]:
			object, text = false, true
			op.Text = append(op.Text, ws[1:]...)
		case object && (objectEnds[ws[0]] || ws[0] == afterObjectEnd && len(op.Object) > 0):
			object = false
			if place = len(op.Object) > 0; place {
				op.End = ws[0]
				op.Place = append(op.Place, ws[1:]...)
			}
		case object:
			op.Object = append(op.Object, ws...)
		case place && objectEnds[ws[0]]:
			place = false
		case place:
			op.Place = append(op.Place, ws...)
		}
		if strings.HasSuffix(tok, ",") || strings.HasSuffix(tok, ";") {
			place = false // "move it to the archive, then ..."
		}
		if strings.HasSuffix(tok, ":") && !strings.HasPrefix(tok, ":") && op.Verb != "" { // not an :emoji:
			object, text = false, true // text is read first: no place after a colon
		}
	}
	return op
}

// phrasalParticles are the particles that make a phrasal verb of a verb
// ("check in", "take down", "put off"); "up", "out", "back" and "over"
// are left out: with a light verb they mostly still ask to see something
// ("look up", "find out", "look back at last week's commits", "check
// over the diff"), and the verbs they make an action of ("give back",
// "take over") are support verbs, read by their object.
var phrasalParticles = wordSet("in off away down")

// seeParticles are the particles phrasalParticles leaves out: after a
// light verb they ask to see ("look up", "find out").
var seeParticles = wordSet("up out back over")

// Particle reports whether w is a phrasal verb's particle
// (phrasalParticles or seeParticles): after an action verb's participle
// every one of them completes its action ("get my car's engine tuned
// up", "have the gutters cleaned out", "get the old sofa hauled away"),
// and after an opening verb it makes the phrase VerbSynonyms may have
// ("call off the offsite"). A pure function.
func Particle(w string) bool { return phrasalParticles[w] || seeParticles[w] }

// objectPronouns may come between a phrasal verb and its particle: "check
// me in", "take it down".
var objectPronouns = wordSet("me it him her them us this that")

// ObjectPronoun reports whether w may come between a phrasal verb and its
// particle (objectPronouns: "sign me up", "check me in"). A pure function.
func ObjectPronoun(w string) bool { return objectPronouns[w] }

// OpeningParticle returns the particle of the phrasal verb that opens the
// raw request (phrasalParticles): the verb (the first word after a
// preamble), one object pronoun or none, then the particle, which ends
// the sentence or the clause or comes before a preposition, so that it
// takes no object of its own ("check me in for my flight", "check in for
// my flight tomorrow", "take it down"; not "look in the drawer", "get
// back the deposit"); "" otherwise. It is a pure function of raw, safe
// for concurrent use.
func OpeningParticle(raw string) string {
	var ws []string // the words of the request's first clause, after its preamble
	for _, tok := range strings.Fields(raw) {
		w := analysis.Words().Analyze(tok)
		if len(ws) == 0 {
			_, w = cutPreamble(w)
		}
		ws = append(ws, w...)
		if strings.ContainsAny(tok[len(tok)-1:], ".?!;:,") || len(ws) > 4 {
			break
		}
	}
	return phrasalParticle(ws)
}

// Particle returns the particle of the phrasal verb that opens the clause
// (as OpeningParticle reads a request: "... and check me in" → in), or "".
func (c Clause) Particle() string {
	if c.First == "" {
		return ""
	}
	return phrasalParticle(append([]string{c.First}, c.Words()...))
}

// phrasalParticle returns the particle of the phrasal verb that ws, a
// clause's words from its verb on, open with (see OpeningParticle), or "".
func phrasalParticle(ws []string) string {
	i := 1
	if i < len(ws) && objectPronouns[ws[i]] {
		i++
	}
	if i >= len(ws) || !phrasalParticles[ws[i]] {
		return ""
	}
	if i+1 < len(ws) && !objectEnds[ws[i+1]] && !clauseBreaks[ws[i+1]] {
		return "" // "look in the drawer": a preposition with its object
	}
	return ws[i]
}

// nounOpening reports whether a request's first word (ws, the words of
// its token tok after any preamble) is a noun rather than its verb: "of"
// follows it right away, in the same clause ("cast of the movie
// Inception", "record of my workouts", "order of events"). An imperative
// is followed by its object, not by "of".
func nounOpening(tok string, ws, next []string) bool {
	if len(ws) != 1 || len(next) == 0 || strings.ContainsAny(tok[len(tok)-1:], ".?!;:,") {
		return false
	}
	nw := analysis.Words().Analyze(next[0])
	return len(nw) > 0 && nw[0] == "of"
}

// determiner reports whether "that" (ws, a token's words) right after a
// request's verb points at its object ("delete that message", "archive
// that channel") rather than opening a message's text ("reply that I'm
// on my way", "confirm that the fix is deployed"): it is the token's only
// word and the next token opens no clause of its own (clauseOpeners).
func determiner(ws, next []string) bool {
	if len(ws) != 1 || ws[0] != "that" || len(next) == 0 {
		return false
	}
	nw := analysis.Words().Analyze(next[0])
	return len(nw) > 0 && !clauseOpeners[nw[0]]
}

// clauseOpeners are the words that open a clause after "that": subjects
// and determiners ("that I'll be late", "that the build is green", "that
// it works").
var clauseOpeners = wordSet("i we you he she it they there this these those the a an my our your his her their " +
	"its everyone everybody nobody someone all no")

// cutPreamble splits a token's words (analysis.Words) into its leading
// preamble words (openingPreamble: "I'd" → i, d) and the rest, whose first
// word opens the request ("Please,archive" → archive).
func cutPreamble(ws []string) (pre, rest []string) {
	n := 0
	for n < len(ws) && openingPreamble[ws[n]] {
		n++
	}
	return ws[:n], ws[n:]
}

// possessives open the subject of a question about the asker's own
// things: "has my refund been issued", "is our order shipped"; a name
// after one is the asker's own app or account (requestNames: "my Excel
// spreadsheet").
var possessives = wordSet("my our")

// YesNoOpener reports whether w (a word as analysis.Words gives it) opens
// a yes/no question (yesNo: "is", "did", "has" ...). A pure function.
func YesNoOpener(w string) bool { return yesNo[w] }

// yesNo open a yes/no question; auxiliaries end its subject.
var (
	yesNo       = wordSet("is are was were do does did has have had")
	auxiliaries = wordSet("is are was were be been being do does did has have had get got can could will would should")
)

// stateQuestions open a yes/no question whose subject a predicate may
// follow without an auxiliary: "is my calendar free", "has my package
// arrived".
var stateQuestions = wordSet("is are was were has have had")

// whenWords open a question's time phrase, which ends its subject: "is my
// calendar free tomorrow afternoon", "is my order shipped yet". "moment"
// ("at the moment") and "lately" came in the twelfth session (h38-flags,
// docs/benchmarks.md, "A time the catalog does not know"): held-out-4
// answerable flagged 9.1 → 4.5 % in both modes ("what's been said in
// #incidents lately"), nothing else moves; "recently" and "currently"
// were left out, their stems being what tools report ("most recent
// messages": "anything posted in #deploys recently" was then flagged by
// the unserved when).
var whenWords = wordSet("today tomorrow tonight yesterday now yet still already anymore this next last " +
	"morning afternoon evening night week weekend month year moment lately")

// TimeWord reports whether w (a word as analysis.Words gives it) is one of
// a time phrase ("tomorrow", "next", "week"; whenWords): no thing a
// request acts on. A pure function.
func TimeWord(w string) bool { return whenWords[w] }

// OwnQuestion returns the subject of a yes/no question about the asker's
// own things, as analysis.Words gives its words: the words after "my" or
// "our" up to an auxiliary, a preposition, an argument value by its form
// or the sentence's end ("Has my state tax refund been issued yet?" →
// state, tax, refund; "is my jira issue OPS-12 closed?" → jira, issue),
// without a time phrase (whenWords) and, in a question of state
// (stateQuestions), without the predicate that ends it when nothing else
// did ("is my calendar free tomorrow afternoon?" → calendar, "has my
// package arrived?" → package); nil when raw is no such question. It is
// a pure function of raw, safe for concurrent use.
func OwnQuestion(raw string) []string {
	toks := strings.Fields(raw)
	if len(toks) < 3 {
		return nil
	}
	first, second := analysis.Words().Analyze(toks[0]), analysis.Words().Analyze(toks[1])
	if len(first) != 1 || !yesNo[first[0]] || len(second) != 1 || !possessives[second[0]] {
		return nil
	}
	var subject []string
	predicate := true // the subject's last word may be a predicate: no auxiliary, preposition or value ended it
	for _, tok := range toks[2:] {
		ws := analysis.Words().Analyze(tok)
		if len(ws) > 0 && (auxiliaries[ws[0]] || objectEnds[ws[0]]) || technical(tokenCore(tok)) {
			predicate = false
			break
		}
		if len(ws) > 0 && whenWords[ws[0]] {
			break
		}
		subject = append(subject, ws...)
		if strings.ContainsAny(tok[len(tok)-1:], ".?!;:,") {
			break
		}
	}
	if predicate && stateQuestions[first[0]] && len(subject) > 1 {
		subject = subject[:len(subject)-1] // "is my calendar free": "free" is what is asked of it
	}
	return subject
}

// Clause is one clause of a request (RequestClauses): how it opens and
// the words after its opening, which the no-match decision reads as one
// step of a longer task. A plain value, safe to copy.
type Clause struct {
	// First is the clause's first word after a request preamble
	// ("please", "can you", "I'd like to"; openingPreamble), as
	// analysis.Words gives it; "" when the clause is a statement or a
	// name (see RequestClauses).
	First string
	// Preamble: a request preamble came before First ("can you provide
	// ...": whatever First is, the clause asks for something).
	Preamble bool
	// Question: First is a question word ("what", "how", "is").
	Question bool
	// Chained: a clause break word (clauseBreaks: "and", "then", "also")
	// opened the clause, inside its sentence ("find the log **and**
	// delete it"); not after a sentence's end, a comma or a colon alone.
	Chained bool
	// rest is the clause's raw text after its first word.
	rest []string
}

// Words returns the clause's words after First (analysis.Words), analysed
// only when asked: most clauses are read for their opening alone.
func (c Clause) Words() []string {
	var ws []string
	for _, tok := range c.rest {
		ws = append(ws, analysis.Words().Analyze(tok)...)
	}
	return ws
}

// Object returns the clause's words after First up to the first
// preposition, "that", "saying" or colon (objectEnds), as Opening.Object
// does for a request: "forward my calls to my office line" → my, calls.
func (c Clause) Object() []string {
	var ws []string
	for _, tok := range c.rest {
		w := analysis.Words().Analyze(tok)
		if len(w) > 0 && objectEnds[w[0]] {
			break
		}
		ws = append(ws, w...)
		if strings.HasSuffix(tok, ":") {
			break
		}
	}
	return ws
}

// Phrase returns the clause's words after First up to the text of a
// message (textStarts): "saying", or a "that" that opens a clause of its
// own, not one that points at the object ("delete that message"; see
// determiner): "reply that we accept the terms" → nothing; "comment on
// OPS-12 saying it shipped" → on, ops, 12. The text says nothing for or
// against a tool that does the clause's action, as Opening.Text does for
// a request; a colon, which also opens one, ends the clause.
func (c Clause) Phrase() []string {
	var ws []string
	for i, tok := range c.rest {
		w := analysis.Words().Analyze(tok)
		if len(w) > 0 && textStarts[w[0]] && (w[0] != "that" || !determiner(w, c.rest[i+1:])) {
			break
		}
		ws = append(ws, w...)
	}
	return ws
}

// Text returns the clause's raw text after First, as written: what
// ValueKinds reads for the clause's own values ("... and post it in
// #travel": a channel).
func (c Clause) Text() string { return strings.Join(c.rest, " ") }

// conditionWords open a condition rather than a step: "..., if it's
// sunny, book me a surf lesson", "... and once it's merged deploy it".
var conditionWords = wordSet("if unless once when whenever")

// Condition reports whether the clause opens with a condition word
// (conditionWords: "if", "unless", "once", "when", "whenever"), which
// governs the step after it, in the same clause or the next one. As the
// first clause of a request "when" asks a question: the caller reads
// conditions only after a step.
func (c Clause) Condition() bool {
	return conditionWords[c.First]
}

// Governed returns the step that a condition clause holds after its
// condition, when no comma parts them ("... and if it's dry book a tee
// time" → book: a, tee, time): the clause from the first word after the
// condition's own first word that opens a token and for which verb holds,
// chained as the condition is; false when there is none (the step is the
// next clause, or there is no step).
func (c Clause) Governed(verb func(string) bool) (Clause, bool) {
	for i, tok := range c.rest {
		w := analysis.Words().Analyze(tok)
		if i == 0 || len(w) == 0 || !verb(w[0]) {
			continue
		}
		g := Clause{First: w[0], Chained: c.Chained}
		if len(w) > 1 {
			g.rest = append(g.rest, strings.Join(w[1:], " "))
		}
		g.rest = append(g.rest, c.rest[i+1:]...)
		return g, true
	}
	return Clause{}, false
}

// clauseBreaks are the words that start a new clause of a request:
// "freeze my card **and** order a new one", "**then** book a table".
var clauseBreaks = wordSet("and then also")

// HasClauseBreak reports whether raw has a clause break word
// (clauseBreaks: "and", "then", "also", in any case, with a comma or
// semicolon around it), without allocating for a request in lowercase:
// without one, RequestClauses yields one clause a sentence. A pure
// function, safe for concurrent use.
func HasClauseBreak(raw string) bool {
	for tok := range strings.FieldsSeq(raw) {
		if clauseBreak(tok) {
			return true
		}
	}
	return false
}

// clauseBreak reports whether a raw token is a clause break word
// (clauseBreaks), as RequestClauses reads it: "and", "Then,", ";also".
func clauseBreak(tok string) bool {
	t := strings.Trim(tok, ",;")
	return len(t) <= len("then") && clauseBreaks[strings.ToLower(t)]
}

// subjects open a statement rather than a request ("I took a photo",
// "we are moving") unless a wish follows them ("I need to", "we'd like
// to": wishes).
var subjects = wordSet("i we")

// wishes turn a subject into a request preamble: "I need to renew my
// passport", "we'd like to book", "I want you to".
var wishes = wordSet("want need like d would you")

// RequestClauses splits the raw request into clauses — at the end of a
// sentence (. ? ! ; :), at a comma, and before "and", "then" and "also" —
// and yields each clause's opening (see Clause) in order, until the
// caller stops: "I'm moving next month. Please transfer my electricity
// account, and cancel my internet" → [(a statement)], [transfer: my
// electricity account], [cancel: my internet]. A clause opens with no
// word (First "") when it is a statement (a subject without a wish: "I'm
// moving", "we found a house"), when its first word is an argument value
// (a capitalized name inside a sentence, quoted text, a path or number:
// "Equifax, Experian and TransUnion") or a noun (nounOpening: "copy of
// my passport"). A clause of preamble words alone ("Additionally,") is
// no clause: its preamble opens the next one. It is a pure function of
// raw, safe for concurrent use.
func RequestClauses(raw string) iter.Seq[Clause] {
	return func(yield func(Clause) bool) {
		var cur Clause
		open, started := false, false // the clause has a word; it has its First
		pre, subject, wish := false, false, false
		sentence := true // the clause starts a sentence
		flush := func(endsSentence bool) bool {
			ok := !open || yield(cur)
			carry := !open && pre // a clause of preamble words alone opens the next: "Additionally, provide ..."
			cur, open, started = Clause{}, false, false
			pre, subject, wish = carry, false, false
			sentence = endsSentence
			return ok
		}
		quote := false // inside quoted text, which no clause break splits
		toks := strings.Fields(raw)
		for i, tok := range toks {
			quoted := quote
			if quote || opensQuote(tok) && quoteCloses(toks[i:]) {
				quote = quoteAfter(tok, quote)
			}
			if !quoted && clauseBreak(tok) {
				if !flush(false) {
					return
				}
				cur.Chained = true
				continue
			}
			var ws []string
			if !started {
				ws = analysis.Words().Analyze(tok)
			}
			switch {
			case started:
				cur.rest = append(cur.rest, tok)
			case len(ws) == 0:
			default:
				lead, rest := cutPreamble(ws)
				for _, w := range lead {
					subject = subject || subjects[w]
					wish = wish || wishes[w]
				}
				pre = pre || len(lead) > 0
				if ws = rest; len(ws) == 0 {
					continue
				}
				ws = cutVerbPrefix(tok, ws) // "... and e-sign it"
				open, started = true, true
				name := argumentValue(tokenCore(tok), sentence) || opensQuote(tok)
				noun := !questionWords[ws[0]] && nounOpening(tok, ws, toks[i+1:])
				if !(subject && !wish || name || noun) { // else a statement, an argument value or a noun: no request opens here
					cur.First, cur.Preamble, cur.Question = ws[0], pre, questionWords[ws[0]]
				}
				if len(ws) > 1 {
					cur.rest = append(cur.rest, strings.Join(ws[1:], " "))
				}
			}
			if last := tok[len(tok)-1:]; !quote && strings.ContainsAny(last, ".?!;:,") {
				if !flush(strings.ContainsAny(last, ".?!;:")) {
					return
				}
			}
		}
		flush(false)
	}
}

// Words returns the words of s as the request parsers of this file read
// them (analysis.Words: lowercased, split, not stemmed), for callers that
// may not import analysis (package search). A pure function, safe for
// concurrent use.
func Words(s string) []string { return analysis.Words().Analyze(s) }

// SameStem reports whether two words (as Words gives them) have the same
// stem ("message" and "messages"). A pure function.
func SameStem(a, b string) bool { return a == b || Stem(a) == Stem(b) }

// Stem returns a word's stem (analysis.Stem), which SameStem compares:
// for callers that compare one word with many and stem each once. A pure
// function.
func Stem(w string) string { return analysis.Stem(w) }

// toolActionsScan is how much of a description, in bytes, ToolActions
// reads (up to the last space before it): what a tool does is said
// first, and reading a long description (API documentation pasted in)
// would cost time for nothing.
const toolActionsScan = 1000

// How far ToolActions reads past a sentence's first word, in words
// (tokens between spaces).
const (
	// joinedVerbWords: a word after "or" or "and" among the
	// description's first joinedVerbWords is a verb joined to its first
	// ("Move or rename a file": "rename" is the third).
	joinedVerbWords = 4
	// makeWords: the words after a sentence's leading "make" that say
	// what it makes ("Make line-based edits to a file": line, based,
	// edits, to).
	makeWords = 3
	// useToWords: how far after a sentence's leading "use" (or "useful",
	// "used") its "to" may come, the verb after which is an action ("Use
	// it to call a REST API", "Used by agents to book rooms").
	useToWords = 3
	// labelWords: a colon among a sentence's first labelWords words ends
	// a label, and the word after it starts a sentence ("Tool description:
	// Remove a file or directory.").
	labelWords = 3
)

// ToolActions returns the words that may say what a tool does, as
// analysis.Words gives them: its name's words (name without a server;
// the caller tells its actions from the things it reads), and from its
// description the leading word of each sentence ("Returns ..."; not one
// an auxiliary follows, the sentence's subject: "Files are returned
// decoded as text"), a word after "or" or "and" among its first
// joinedVerbWords ("Move or rename a file"), the verb after "use it to"
// ("Use it to call a REST API"; useToWords), the words after a leading
// "make" ("Make line-based edits"; makeWords) and words written in
// capitals (the commands it runs: "INSERT, UPDATE, DELETE").
// The no-match decision of package search reads a request's verb against
// them. A word the tool has only elsewhere is about something else: "to
// merge a head branch" in github__create_pull_request, "it can be
// restored from the trash" in notes__delete_note. It is a pure function
// of its arguments, safe for concurrent use.
func ToolActions(name, description string) (fromName, fromDescription []string) {
	fromName = analysis.Words().Analyze(name)
	var acts []string
	if len(description) > toolActionsScan {
		cut := strings.LastIndexFunc(description[:toolActionsScan], unicode.IsSpace)
		if cut < 0 { // one long token (a text without spaces): cut at a rune's start
			for cut = toolActionsScan; cut > 0 && !utf8.RuneStart(description[cut]); cut-- {
			}
		}
		description = description[:cut]
	}
	toks := strings.Fields(description)
	start, lead := true, 0 // a sentence starts; words still to take after "make"
	sentence := 0          // the index of the current sentence's first token
	for i, tok := range toks {
		if core := strings.Trim(tok, tokenPunct); len(core) > 1 && strings.ToUpper(core) == core && strings.ToLower(core) != core {
			acts = append(acts, analysis.Words().Analyze(core)...)
		}
		take := start || lead > 0 || i > 0 && i < joinedVerbWords && (strings.EqualFold(toks[i-1], "or") || strings.EqualFold(toks[i-1], "and"))
		if start && lead == 0 && i+1 < len(toks) && auxiliaries[strings.ToLower(strings.Trim(toks[i+1], tokenPunct))] {
			take, start = false, false // "Files are returned decoded as text": the sentence's subject, no action
		}
		if take {
			if ws := analysis.Words().Analyze(tok); len(ws) > 0 {
				acts = append(acts, ws...)
				switch {
				case lead > 0:
					lead--
				case start && ws[0] == "make":
					lead = makeWords
				case start && (ws[0] == "use" || ws[0] == "useful" || ws[0] == "used"):
					if to := slices.IndexFunc(toks[i+1:min(i+1+useToWords, len(toks))], func(s string) bool { return strings.EqualFold(s, "to") }); to >= 0 && i+to+2 < len(toks) {
						acts = append(acts, analysis.Words().Analyze(toks[i+to+2])...)
					}
				}
				start = false
			}
		}
		if strings.ContainsAny(tok[len(tok)-1:], ".!?") || strings.HasSuffix(tok, ":") && i-sentence < labelWords {
			start = true
		}
		if start {
			sentence = i + 1
		}
	}
	return fromName, acts
}

// tokenPunct is the punctuation ToolActions trims from a description's
// token before reading it as a word: a command in capitals, an auxiliary.
const tokenPunct = ".,;:()[]\"'`"
