package fallback

import (
	"strings"
	"testing"
)

// shortFormDocs are tools whose text says in full what requests shorten.
var shortFormDocs = []Document{
	{Name: "github__list_pull_requests", Server: "github", Description: "List pull requests in a repository."},
	{Name: "github__get_file", Server: "github", Description: "Get a file from a repository."},
	{Name: "slack__send_message", Server: "slack", Description: "Send a message to a channel or a direct message to a user."},
	{Name: "maps__get_directions", Server: "maps", Description: "Get directions between two places."},
	{Name: "maps__geocode", Server: "maps", Description: "Convert an address into geographic coordinates (latitude and longitude)."},
	{Name: "maps__reverse_geocode", Server: "maps", Description: "Convert geographic coordinates into a human-readable address.", ParamNames: []string{"latitude", "longitude"}, ParamDescs: []string{"Latitude in degrees.", "Longitude in degrees."}},
	{Name: "fetch__fetch_url", Server: "fetch", Description: "Fetch a URL, however long the page."},
	{Name: "postgres__query", Server: "postgres", Description: "Run a read-only SQL query against the database."},
	{Name: "notes__create_note", Server: "notes", Description: "Create a note with a title and a body."},
	{Name: "email__send_email", Server: "email", Description: "Send an email to recipients."},
	{Name: "post__send_letter", Server: "post", Description: "Send a letter by mail."},
}

// TestKeywordShortForms: with Options.Expand a request's short form
// matches its full words and counts as known in the coverage; an
// acronym's plural reads as one word, and so does a word with a one-letter
// prefix that the catalog knows solid ("e-mail"); a path's words are no
// short forms.
func TestKeywordShortForms(t *testing.T) {
	ix := NewIndex(shortFormDocs)
	for _, c := range []struct {
		query string
		want  string // the top hit with Options.Expand
		value bool   // the short form is in an argument value (by its form), which the coverage leaves out
	}{
		{"list PRs targeting develop", "github__list_pull_requests", false}, // an acronym's plural, a full form of two words
		{"lat/long of the Eiffel Tower", "maps__geocode", true},             // "long" after "lat" is longitude
		{"check my DMs", "slack__send_message", false},
		{"query the prod db", "postgres__query", false},
		{"grab a file from the repo", "github__get_file", false},
		{"e-mail the report to bob", "email__send_email", false}, // a one-letter prefix written solid, as the catalog has it
	} {
		t.Run(c.query, func(t *testing.T) { checkExpandedForm(t, ix, c.query, c.want, c.value) })
	}
	// Coordinates match the tools that take them, as a value of a kind;
	// a price does not.
	for _, c := range []struct {
		raw  string
		maps bool
	}{{"what street is at 48.8584, 2.2945", true}, {"what street is at 40.7484,-73.9857", true}, {"what street is at 12.50", false}} {
		got := names(ix, ix.Keyword(mustParse(t, c.raw), Options{Limit: 3}))
		if maps := len(got) > 0 && strings.HasPrefix(got[0], "maps__") && strings.HasSuffix(got[0], "geocode"); maps != c.maps {
			t.Errorf("Keyword(%q) = %v, want a geocoder first: %v", c.raw, got, c.maps)
		}
	}
	// A path's words name it: "~/docs" is no documentation.
	q := mustParse(t, "create a note in ~/docs")
	if a, b := ix.Keyword(q, Options{Expand: true}), ix.Keyword(q, Options{}); a.Coverage != b.Coverage || names(ix, a)[0] != names(ix, b)[0] {
		t.Errorf("Keyword(%q): Expand changed coverage %v → %v or the top hit %v → %v", q.Raw, b.Coverage, a.Coverage, names(ix, b), names(ix, a))
	}
}

// checkExpandedForm checks that with Options.Expand query finds want
// first, its scores as ever, and, unless its form is in an argument value
// (value), with a higher coverage than without: a short form
// (shortForms) or an everyday word (everydayWords) read as its full form.
func checkExpandedForm(t *testing.T, ix *Index, query, want string, value bool) {
	t.Helper()
	q := mustParse(t, query)
	plain := ix.Keyword(q, Options{Limit: 3})
	res := ix.Keyword(q, Options{Limit: 3, Expand: true})
	if got := names(ix, res); len(got) == 0 || got[0] != want {
		t.Errorf("Keyword(%q, Expand) = %v, want %s first", query, got, want)
	}
	checkScores(t, ix, res)
	if !value && res.Coverage <= plain.Coverage {
		t.Errorf("Keyword(%q): coverage %v with Expand, %v without: the form must count as known", query, res.Coverage, plain.Coverage)
	}
}

// TestShortFormsTable: every full form is one or more plain words, no key
// is its own full form, and a key of two words is a pair within a token.
func TestShortFormsTable(t *testing.T) {
	for k, forms := range shortForms {
		if len(forms) == 0 {
			t.Errorf("shortForms[%q] is empty", k)
		}
		for _, f := range forms {
			if f == k || strings.TrimSpace(f) != f || f != strings.ToLower(f) {
				t.Errorf("shortForms[%q] has %q", k, f)
			}
		}
		if n := len(strings.Fields(k)); n > 2 {
			t.Errorf("shortForms key %q has %d words", k, n)
		}
	}
	for _, c := range []struct {
		text string
		want bool
	}{{"PRs", true}, {"URLs,", true}, {"Ps", false}, {"PR", false}, {"runs", false}, {"ÉTs", false}} {
		if got := acronymPlural(c.text); got != c.want {
			t.Errorf("acronymPlural(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"e-mail", "email"}, {"E-Books,", "ebooks"}, {"re-send", ""}, {"e-", ""}, {"x-2", ""}, {"e-mail-it", ""},
	} {
		if got := letterPrefixed(c.text); got != c.want {
			t.Errorf("letterPrefixed(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestKeywordSolidWordUnknown: an acronym's plural or a prefixed word
// whose one-word reading the catalog does not know reads as its parts,
// so Options.Expand lowers neither coverage (FuzzKeyword found "AAs":
// "a" and "as" are stop words, "aas" an unknown word).
func TestKeywordSolidWordUnknown(t *testing.T) {
	ix := NewIndex(shortFormDocs)
	for _, raw := range []string{"AAs", "send the AAs", "list the OKRs", "x-rays of the repository"} {
		q := mustParse(t, raw)
		plain := ix.Keyword(q, Options{Limit: 3})
		ex := ix.Keyword(q, Options{Limit: 3, Expand: true})
		if ex.Coverage < plain.Coverage || ex.WordCoverage != plain.WordCoverage {
			t.Errorf("Keyword(%q): coverage %v/%v with Expand, %v/%v without", raw, ex.Coverage, ex.WordCoverage, plain.Coverage, plain.WordCoverage)
		}
	}
}

// TestShortFormInTool: WordMatches reads a short form as in a tool that
// has every word of one of its full forms ("PR": pull request, "dm":
// direct message), and not in one that has only some of them or none.
func TestShortFormInTool(t *testing.T) {
	ix := NewIndex(shortFormDocs)
	for _, c := range []struct {
		query, tool, word string
		in                bool
	}{
		{"comment on the PR", "github__list_pull_requests", "pr", true},
		{"comment on the PR", "github__get_file", "pr", false},
		{"send bob a dm", "slack__send_message", "dm", true},
		{"send bob a dm", "email__send_email", "dm", false},
		{"query the db", "postgres__query", "db", true},
	} {
		id, ok := ix.Lookup(c.tool)
		if !ok {
			t.Fatalf("no tool %s in shortFormDocs", c.tool)
		}
		found := false
		for _, w := range ix.WordMatches(mustParse(t, c.query), id) {
			if w.Word != c.word {
				continue
			}
			found = true
			if w.InTool != c.in || !w.Plain {
				t.Errorf("WordMatches(%q, %s) %q: InTool %v, Plain %v; want InTool %v, Plain", c.query, c.tool, w.Word, w.InTool, w.Plain, c.in)
			}
		}
		if !found {
			t.Errorf("WordMatches(%q, %s) has no %q: the case tests nothing", c.query, c.tool, c.word)
		}
	}
}
