package fallback

// fillerWeight is the query-side weight of conversational filler words
// ("please", "help", "need", "thanks"...) relative to other words. Long
// natural-language requests are full of them, and because tool descriptions
// rarely contain them they would otherwise get a high IDF and let a tool
// that happens to say "help" outrank the one that does the job.
//
// Worked example: in "can you please help me find flights", "please" and
// "help" count 0.1 each, "find" and "flights" 1.0 each.
const fillerWeight = 0.1

// filler is the set of conversational words (lowercase, unstemmed) that a
// request wraps around its content. The list is generic English request
// phrasing, not derived from any benchmark's queries.
var filler = map[string]bool{}

func init() {
	for _, w := range []string{
		"please", "pls", "plz", "kindly", "help", "helping", "need", "needs", "needed",
		"want", "wants", "wanted", "would", "could", "like", "love", "hi", "hello", "hey",
		"thanks", "thank", "appreciate", "appreciated", "also", "additionally", "moreover",
		"furthermore", "besides", "tell", "know", "let", "lets", "give", "provide",
		"able", "may", "might", "must", "shall", "sure", "really", "interested",
		"curious", "wondering", "wonder", "looking", "trying", "try", "possible",
		"assist", "assistance", "ok", "okay", "well", "one", "us", "something",
		"anything", "someone", "thing", "things", "way", "ways", "soon", "asap",
		"currently", "right", "going", "planning", "plan", "think", "make", "sure",
		"details", "detail", "information", "info", "specific", "certain", "e", "g",
		"etc", "eg", "ie",
	} {
		filler[w] = true
	}
}

// hedges are words that say how a request hedges or judges what it asks
// for, never what it asks for: indefinite places and people ("is there
// anywhere near …", "has anybody …"), degree adverbs ("clean enough",
// "pretty windy", "still open") and plain evaluative adjectives ("a
// decent coffee", "a good spot"). General English, not derived from any
// set's requests. Unlike filler, which weighs fillerWeight wherever it
// is, a hedge weighs so only in coverage (Result.Coverage) and only
// when the catalog does not know it, so rankings do not move: a
// catalog that has the word ("good first issue") matches it as any
// other.
//
// Measured (sixteenth session, h42-calib; docs/benchmarks.md, "Hedges
// weigh as filler in coverage"), main 02ce28c → after: the example pairs
// pooled with 22+24+27+29+31 answerable flagged 48 → 45 of 967 (keyword
// 44 → 41), no-answer 895 (keyword 892) of 960 unchanged; pair 31 4 → 3
// of 50 answerable in both modes, its no-answer and pair 29 unchanged;
// bfcl answerable 38 → 37 of 1,207 (keyword 37 → 36), every dev
// no-answer set unchanged; the transfer-check pairs 33+34 (aggregate)
// answerable 11 → 10 of 100 (keyword 10 → 9), no-answer 87 (86) of 100
// unchanged; nDCG@10 and first-right figures identical. Across every
// development set these words are almost only in answerable requests:
// the no-answer ones name what they want without hedging.
var hedges = wordSet("anywhere somewhere everywhere anyone anybody somebody everyone everybody " +
	"enough quite rather pretty fairly somewhat still already even almost " +
	"decent good nice great lovely awesome reasonable proper")

// queryWordWeight returns the query-side weight of a surface query word:
// fillerWeight for filler, numberWeight for a number, else 1.
func queryWordWeight(w string) float64 {
	if filler[w] {
		return fillerWeight
	}
	if isNumber(w) {
		return numberWeight
	}
	return 1
}

// numberWeight is the query-side weight of a number ("12345", "2008", "50")
// relative to other words. Numbers in a request are mostly argument values
// (IDs, dates, amounts) that say nothing about which tool to call, yet a
// number found in a few parameter descriptions gets a high IDF. They still
// count a little: some tool names do contain numbers ("top_50_startups").
//
// Worked example: in "details of game 12345", "12345" counts 0.3 of
// "game". Measured on the bench dev sets (nDCG@10, bfcl / livemcpbench /
// stabletoolbench): 0.3 gives +0.002 / +0.002 / 0.000 over 1.0; 0.1 and 0.5
// do about as well.
const numberWeight = 0.3

// isNumber reports whether w is one or more ASCII digits.
func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// formedWeight scales the query-side weight of the words of an argument
// value whose form says its kind (formKind, formedKind:
// "~/work/report-draft.docx", "dana@acme.com", "https://go.dev/doc",
// "#design", "OPS-12"): they name the thing a tool acts on, not what the
// tool does, so "rename report-draft.docx to report-final.docx" is about
// renaming, not drafts. They still count a little: a file's or a path's
// words sometimes name the object ("notes.txt"). The value's kind is
// matched at the value's full weight (kindWeight), and coverage
// (Result.Coverage) reads the words at their own weight.
//
// Worked example: in "rename report-draft.docx to report-final.docx",
// "draft" counts 0.3 of "rename". Measured (docs/benchmarks.md, "The
// words of a value rank at 0.3"): nDCG@10 of the example catalog's
// answerable sets up to +0.032 (held-out), the dev sets within −0.0006;
// 0.5 gains less on the example sets (tuning +0.001 against +0.008).
// Quoted text ranks so too (quotedTerms; docs/benchmarks.md, "Quoted
// text is a value"): bfcl .7125 → .7158, livemcpbench .3716 → .3778,
// stabletoolbench .7514 → .7508 (keyword .7506 → .7491), no flag moves.
const formedWeight = 0.3
