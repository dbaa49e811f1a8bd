package fallback

// Colloquial verbs of getting and seeing: "grab the Dockerfile from
// grafana/loki", "dig up Marta's email", "peek at the README". Like the
// plain light verbs ("get", "show", "find") they ask to see or reach
// their object, which is what the request is about; unlike them, no
// catalog's text says them, so Result.Coverage counted the verb as a word
// the catalog does not know and an answerable request whose object every
// best tool has fell under the confident line. A tool that reads serves
// such a verb whatever its words, as it does a light verb (package
// search's lightVerbs, of which only "grab" is one: search reads a
// request opened by one of these as one to see that asks for no action,
// SeeVerb), so when one opens a request
// (after a preamble, requestExpansions) Coverage counts it as known
// (SeeKey, framed), as it does a colloquial verb that a plain one the
// catalog knows says otherwise ("bin" → delete). Keyword search ranks
// nothing by it: SeeKey has no plain words, so the object's words alone
// rank the tools ("dig up" read as search lifted the search tools over
// the readers, fourteenth session).
//
// Written from general English, not from any request set: single words
// that mean get or look at only ("grab", "snag", "nab", "peek",
// "eyeball"), and phrasal verbs whose verb alone means something else
// ("track" a parcel, "pull" a branch: "track down", "hunt down", "dig
// up", "dig out", "fish out", "pull up"). "pin down" is left out: its
// sense is its object's ("pin down the position of ..." finds it, "pin
// down a time with Dana" schedules), and read as a get it let "Pin down a
// time with Dana next week for the design review" through with an
// e-mail tool first (probed).
var seeOpeners = wordSet("grab snag nab peek eyeball")

// seePhrases are the phrasal verbs of seeOpeners: a verb and the
// particle that makes it one of getting.
var seePhrases = map[string]string{
	"track": "down", "hunt": "down", "dig": "up", "fish": "out", "pull": "up",
}

// seeDigOut is the second particle of "dig": "dig out the invoice".
const seeDigOut = "out"

// SeeKey is the key of a colloquial verb of getting or seeing
// (seeOpeners) in a request's expansions: it adds no plain word to the
// ranking, and Coverage counts the verb as known.
const SeeKey = "see _"

// seeOpener reports whether ws[i], a request's opening word, is a
// colloquial verb of getting or seeing (SeeVerb).
func seeOpener(ws []planWord, i int) bool {
	next := ""
	if i+1 < len(ws) {
		next = ws[i+1].word
	}
	return SeeVerb(ws[i].word, next)
}

// SeeVerb reports whether w, a request's opening word, with next, the
// word after it ("" when none), is a colloquial verb of getting or seeing
// (seeOpeners, seePhrases): "grab", "peek", "dig up", "track down". Package
// search reads such a request as one to see (seeRequest) that asks for
// no action (openingAction). A pure function.
func SeeVerb(w, next string) bool {
	if seeOpeners[w] {
		return true
	}
	p, ok := seePhrases[w]
	return ok && next != "" && (next == p || w == "dig" && next == seeDigOut)
}
