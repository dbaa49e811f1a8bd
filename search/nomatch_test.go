package search

import (
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

func TestActionVerb(t *testing.T) {
	for _, c := range []struct {
		word, base string
		action     bool
	}{
		{"forward", "forward", true},
		{"deleted", "delete", true},
		{"archiving", "archive", true},
		{"pins", "pin", true},
		{"show", "show", false},  // light
		{"finds", "find", false}, // light
		{"opened", "open", false},
		{"weather", "", false},
		{"ed", "", false},
		{"stopped", "stop", true},
		{"planning", "plan", true},
		{"set", "set", true},
		{"unassign", "unassign", true},
		{"unassigned", "unassign", true},
		{"resend", "resend", true},
		{"research", "", false}, // re- + a light verb
		{"return", "return", false},
		{"unit", "", false},
		{"walking", "walk", true}, // the rules read only a base form that opens a request
		{"fund", "", false},       // opens more requests as a noun ("fund performance of VTSAX")
		{"scale", "scale", true},  // the seventh session's verbs of operating services
		{"terminated", "terminate", true},
		{"heat", "", false}, // opens more requests as a noun ("heat advisory for Las Vegas")
	} {
		base, action := actionVerb(c.word)
		if base != c.base || action != c.action {
			t.Errorf("actionVerb(%q) = %q, %v; want %q, %v", c.word, base, action, c.base, c.action)
		}
	}
	for w := range lightVerbs {
		if !actionVerbs[w] && !lightVerbs[w] {
			t.Errorf("light verb %q is not a verb", w)
		}
	}
	phrasal := map[string]bool{}
	for p, v := range phrasalVerbs {
		phrasal[v] = true
		if _, ok := actionVerb(strings.Fields(p)[0]); !ok {
			t.Errorf("phrasalVerbs has %q, whose verb is not an action verb", p)
		}
	}
	for v := range phrasal {
		if len(fallback.VerbSynonyms(v)) == 0 {
			t.Errorf("phrasalVerbs gives %q, which has no synonyms", v)
		}
	}
	fallback.EachVerbSynonyms(func(v string, syns []string) {
		if len(syns) == 0 {
			t.Errorf("verbSynonyms[%q] is empty", v)
		}
	})
}

// TestRequest: the no-match rules read the query without its filters and
// -terms, quoted values with spaces included.
func TestRequest(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"archive the #old channel", "archive the #old channel"},
		{"server:slack archive the #old channel", "archive the #old channel"},
		{`server:"Bing CN" translate this page`, "translate this page"},
		{"category:`web search` -\"two words\" find news", "find news"},
		{`-"unterminated archive it`, ""},
		{`server:"a" category:b pin it`, "pin it"},
	} {
		q, err := query.Parse(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := request(q).Raw; got != c.want {
			t.Errorf("request(%q).Raw = %q, want %q", c.raw, got, c.want)
		}
	}
}

// TestSeveralSentences: a dot between two digits (a version, a decimal,
// an identifier) ends no sentence; any other inner dot, "?", "!" or ";"
// does.
func TestSeveralSentences(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Publish release v3.2.0 of acme/cli with the changelog as its notes", false},
		{"Add arXiv paper 2307.13854 to my Zotero library", false},
		{"buy 0.05 BTC", false},
		{"Delete /tmp/build/output.log", true}, // a name's inner dot
		{"Order from JD.com", true},
		{"Done. Now send it", true},
		{"send it; then archive it", true},
		{"version 2.", true}, // no digit after the dot
		{".5 grams", true},
		{"", false},
	} {
		if got := severalSentences(c.text); got != c.want {
			t.Errorf("severalSentences(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
