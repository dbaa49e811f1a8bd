package fallback

// Keyword search's verb expansion (Options.Expand): a request's
// colloquial verb also matches the plain verbs that tools' text uses for
// it (verbSynonyms): "bin the note called 'old wifi passwords'" also as
// delete and remove, "let everyone in #releases know v2.8 is live" also
// as send, message, notify, "hop over to the develop branch" also as
// switch and checkout. Only where the colloquial reading is clear: the
// verb that opens the request (after a preamble such as "please" or "can
// you") when it is one of expandVerbs, a phrasal verb of the table
// ("look up", "call off", "cycle to"), "let ... know" and "tell ..." with
// another object than "me" or "us" ("let me know ...", "tell me ..." ask
// a question).
//
// The plain verbs join the slot of the word they expand (accumulate: a
// word counts once per tool, by its best match), at expansionWeight: a
// tool that has the request's own word keeps its score, and one that has
// only a synonym gets a part of it. They count neither in coverage (a
// synonym the catalog knows says nothing of whether the request's own
// words are served) nor in the phrase bonus (addPairScores).

// expansionWeight is the query-side weight of a plain verb that keyword
// search adds for a request's colloquial one (Options.Expand), relative
// to a content word of the request itself (1).
//
// Worked example: in "bin the note called 'old wifi passwords'", "delete"
// and "remove" count 0.5 each against "note"'s 1, in the slot of "bin":
// notes__delete_note ("Move a note to the trash") gets half of what a
// tool named bin_note would. Measured (docs/benchmarks.md, "Everyday
// verbs"), nDCG@10 of the example catalog's answerable sets, default
// mode: 0.2 gains about half of what 0.5 does, 0.7 and 1.0 add a little
// on the held-out sets and cost the fixture 0.014 (0.929 → 0.915); the
// dev sets do not move at any of them.
const expansionWeight = 0.5

// maxExpansions is the most verbs of one request that keyword search
// expands: the opening one and one phrase after it.
const maxExpansions = 2

// letWindow is how many words may come between "let" and "know" in "let
// the whole team in #design know ...".
const letWindow = 6

// verbExpansion is a verb of the request that keyword search expands: the
// position of the word whose slot its synonyms join (among the words plan
// visits, in order) and its key in verbSynonyms.
type verbExpansion struct {
	at  int
	key string
}

// phrases maps the first word of every phrasal key of verbSynonyms to its
// second word and the key ("look" → "up" → "look up"), so that a
// request's word pairs cost a map lookup each and no string.
var phrases = func() map[string]map[string]string {
	m := map[string]map[string]string{}
	for k := range verbSynonyms {
		first, second, ok := cutSpace(k)
		if !ok || first == "let" || first == "tell" {
			continue // the frames "let _ know", "tell _" (requestExpansions)
		}
		if m[first] == nil {
			m[first] = map[string]string{}
		}
		m[first][second] = k
	}
	return m
}()

func cutSpace(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// planWord is what requestExpansions reads of a query word.
type planWord struct {
	word     string
	hasTerms bool
}

// requestExpansions appends to dst the verbs of the request to expand
// (see above); ws are its ranking words in the order plan visits them.
func requestExpansions(ws []planWord, dst []verbExpansion) []verbExpansion {
	n := len(ws)
	opened := false // the opening verb is read
	for i := 0; i < n && len(dst) < maxExpansions; i++ {
		w := ws[i].word
		if opened {
			if k, at, ok := phraseAt(ws, i); ok {
				dst = append(dst, verbExpansion{at: at, key: k})
				i++
			}
			continue
		}
		if w == "let" && i+1 < n && !openingPreamble[ws[i+1].word] { // not "let me know", "let's"
			opened = true
			for j := i + 2; j < n && j <= i+1+letWindow; j++ {
				if ws[j].word == "know" {
					dst = append(dst, verbExpansion{at: j, key: "let _ know"})
					i = j
					break
				}
			}
			continue
		}
		if openingPreamble[w] {
			continue
		}
		opened = true
		switch k, at, ok := phraseAt(ws, i); {
		case w == "tell" && i+1 < n && !openingPreamble[ws[i+1].word]: // not "tell me"
			dst = append(dst, verbExpansion{at: i, key: "tell _"})
		case ok:
			dst = append(dst, verbExpansion{at: at, key: k})
			i++
		case expandVerbs[w] && ws[i].hasTerms:
			dst = append(dst, verbExpansion{at: i, key: w})
		}
	}
	return dst
}

// phraseAt returns the phrasal key of verbSynonyms that ws[i] opens, with
// at most one object pronoun between its words ("call it off"), and the
// position of the word whose slot it joins: its first word with index
// terms ("cycle" of "cycle to", "bike" of "by bike").
func phraseAt(ws []planWord, i int) (string, int, bool) {
	seconds := phrases[ws[i].word]
	if seconds == nil || i+1 >= len(ws) {
		return "", 0, false
	}
	j := i + 1
	k, ok := seconds[ws[j].word]
	if !ok && objectPronouns[ws[j].word] && j+1 < len(ws) {
		j++
		k, ok = seconds[ws[j].word]
	}
	if !ok {
		return "", 0, false
	}
	for _, at := range [2]int{i, j} {
		if ws[at].hasTerms {
			return k, at, true
		}
	}
	return "", 0, false
}

// synonymTerms returns the index terms of syn, a word of verbSynonyms,
// through the query-word cache (termWords).
func (ix *Index) synonymTerms(s *scratch, syn string) []int32 {
	s.synTerm[0].Text = syn
	s.synWords = ix.termWords(s.synWords[:0], s.synTerm[:])
	if len(s.synWords[0]) == 0 {
		return nil
	}
	return s.synWords[0][0].ids
}
