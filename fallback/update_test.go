package fallback

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsearch/toolsearch/query"
)

// synthVocab is the vocabulary of synthDoc: verbs and nouns that tool
// names share, plus words that come and go.
var (
	synthVerbs   = []string{"get", "list", "create", "delete", "update", "search", "send", "fetch", "download", "translate"}
	synthNouns   = []string{"weather", "forecast", "issue", "user", "users", "message", "email", "invoice", "order", "video", "photo", "photograph", "statistic", "statistics", "stock", "price", "channel", "ticket", "document", "player"}
	synthServers = []string{"github", "slack", "jira", "stripe", "youtube", "weatherapi", "nba", "", ""}
)

// synthDoc returns a random tool; with fresh, some of its words are new to
// the catalog (word<k>).
func synthDoc(r *rand.Rand, fresh int) Document {
	word := func() string {
		if fresh > 0 && r.Intn(4) == 0 {
			return fmt.Sprintf("zq%dword", r.Intn(fresh))
		}
		return synthNouns[r.Intn(len(synthNouns))]
	}
	verb := synthVerbs[r.Intn(len(synthVerbs))]
	server := synthServers[r.Intn(len(synthServers))]
	local := verb + "_" + word()
	if r.Intn(3) == 0 {
		local = verb + strings.ToUpper(word()[:1]) + word()[1:] // camelCase
	}
	if r.Intn(5) == 0 {
		local = verb + word() // run-together (decompounding)
	}
	name := local
	if server != "" && r.Intn(2) == 0 {
		name = server + "__" + local
	}
	var desc []string
	for range 3 + r.Intn(10) {
		switch r.Intn(4) {
		case 0:
			desc = append(desc, synthVerbs[r.Intn(len(synthVerbs))])
		case 1:
			desc = append(desc, "the")
		default:
			desc = append(desc, word())
		}
	}
	d := Document{
		Name:        name,
		Server:      map[bool]string{true: server}[r.Intn(2) == 0],
		Category:    []string{"", "Finance", "Sports", "Dev"}[r.Intn(4)],
		Description: strings.Join(desc, " ") + ".",
	}
	for range r.Intn(3) {
		d.ParamNames = append(d.ParamNames, word()+"_id")
		d.ParamDescs = append(d.ParamDescs, "The "+word()+" to use.")
	}
	return d
}

// applyOp is one random change to docs: it returns the new length and the
// edits, and applies them to docs.
func applyOp(r *rand.Rand, docs *[]Document, fresh int) (int, []Edit) {
	n := len(*docs)
	var edits []Edit
	edit := func(id int, d Document) {
		edits = append(edits, Edit{ID: id, Doc: d})
		for len(*docs) <= id {
			*docs = append(*docs, Document{})
		}
		(*docs)[id] = d
	}
	switch op := r.Intn(10); {
	case op < 3 && n > 0: // update in place
		edit(r.Intn(n), synthDoc(r, fresh))
	case op < 4 && n > 0: // a duplicate of another tool's name (or all of it)
		d := synthDoc(r, fresh)
		d.Name = (*docs)[r.Intn(n)].Name
		if r.Intn(2) == 0 {
			d = (*docs)[r.Intn(n)]
		}
		edit(r.Intn(n), d)
	case op < 6: // insert
		edit(n, synthDoc(r, fresh))
		n++
	case op < 8 && n > 1: // swap-remove
		i := r.Intn(n)
		if i != n-1 {
			edit(i, (*docs)[n-1])
		}
		n--
		*docs = (*docs)[:n]
	default: // a batch: updates, inserts and removals
		for range 1 + r.Intn(6) {
			switch r.Intn(3) {
			case 0:
				if n > 0 {
					edit(r.Intn(n), synthDoc(r, fresh))
				}
			case 1:
				edit(n, synthDoc(r, fresh))
				n++
			case 2:
				if n > 1 {
					i := r.Intn(n)
					edit(i, (*docs)[n-1])
					n--
					*docs = (*docs)[:n]
					// Edits of the removed ID are dropped.
					edits = slices.DeleteFunc(edits, func(e Edit) bool { return e.ID >= n })
				}
			}
		}
	}
	return n, edits
}

// freshEquivalent builds ix's documents from scratch with ix's frozen
// statistics and term numbering.
func freshEquivalent(ix *Index) *Index {
	docs := make([]Document, ix.Len())
	for id := range docs {
		docs[id] = ix.docs.At(id).doc
	}
	order := make([]string, ix.termData.Len())
	for t := range order {
		if ti := ix.termData.At(t); len(ti.postings) > 0 {
			order[t] = ti.text
		}
	}
	return build(docs, buildOptions{stats: ix.st, termOrder: order})
}

// probeQueries returns queries over docs' vocabulary: words, typos,
// prefixes, phrases, syntax.
func probeQueries(r *rand.Rand, docs []Document) []string {
	qs := []string{"", "the", "get weather forecast", "+issue -github", "server:slack send", "category:finance", "search sta",
		"photo", "photographs of users", "wether forcast", "getwether", "github__get_issue", "zq1word zq2word", "statistics of the players 12345"}
	var words []string
	for _, d := range docs {
		words = append(words, strings.FieldsFunc(d.Name+" "+d.Description, func(c rune) bool { return c == ' ' || c == '.' || c == '_' })...)
	}
	if len(words) == 0 {
		return qs
	}
	w := func() string { return words[r.Intn(len(words))] }
	for range 30 {
		switch r.Intn(6) {
		case 0:
			qs = append(qs, w())
		case 1:
			qs = append(qs, w()+" "+w()+" "+w())
		case 2:
			x := w()
			if len(x) > 4 {
				x = x[:len(x)-1] + "x" // a typo
			}
			qs = append(qs, x)
		case 3:
			x := w()
			qs = append(qs, "find "+x[:min(len(x), 3+r.Intn(3))]) // a prefix
		case 4:
			qs = append(qs, "+"+w()+" "+w()+" -"+w())
		case 5:
			qs = append(qs, docs[r.Intn(len(docs))].Name)
		}
	}
	return qs
}

// snapshot runs every public query method of ix and returns the results,
// as text.
func snapshot(t *testing.T, ix *Index, qs []string) []string {
	t.Helper()
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("len %d", ix.Len())
	for id := -1; id <= ix.Len(); id++ {
		add("name %d %q", id, ix.Name(id))
	}
	allow := func(id int) bool { return id%3 != 1 }
	opts := []Options{{}, {Limit: 3}, {Limit: 5, Explain: true}, {Allow: allow}, {Limit: 2, Allow: allow, Explain: true}}
	// regexes runs a pattern with the trigram index and with a full scan.
	regexes := func(p string) {
		for i, o := range opts[:3] {
			for _, useIndex := range []bool{true, false} {
				res, err := ix.regex(p, o, useIndex)
				add("regex %q %d %v %+v %v", p, i, useIndex, res, err)
			}
		}
	}
	for _, s := range qs {
		q, err := query.Parse(s)
		if err != nil {
			add("parse %q: %v", s, err)
			continue
		}
		for i, o := range opts {
			add("keyword %q %d %+v", s, i, ix.Keyword(q, o))
			res, sug := ix.Fuzzy(q, o)
			add("fuzzy %q %d %+v %q", s, i, res, sug)
		}
		id, ok := ix.ExactName(s)
		add("exact %q %d %v", s, id, ok)
		id, ok = ix.Lookup(s)
		add("lookup %q %d %v", s, id, ok)
		add("lookup-lower %q %v", s, fmt.Sprint(ix.Lookup(strings.ToUpper(s))))
		add("select %q %+v", s, ix.Select(strings.Fields(s), Options{Explain: true}))
		add("select-allow %q %+v", s, ix.Select(strings.Fields(s), Options{Allow: allow}))
		if f := ix.Filter(q); f != nil {
			var pass []int
			for id := range ix.Len() {
				if f(id) {
					pass = append(pass, id)
				}
			}
			add("filter %q %v", s, pass)
		} else {
			add("filter %q nil", s)
		}
		for _, w := range strings.Fields(s) {
			add("toolswith %q %v", w, ix.ToolsWith(w))
		}
		for _, p := range []string{s, regexpQuote(s), "^" + regexpQuote(s), "(?i)" + regexpQuote(s) + "|issue"} {
			regexes(p)
		}
	}
	for _, p := range slices.Concat(suiteRegexes, []string{"get_*", "*_weather", "zq.*word", "the .* forecast", "(users?|tickets?)_id"}) {
		regexes(p)
	}
	return out
}

// TestApplyMatchesFreshBuild applies random edits (updates, duplicates,
// inserts, swap-removes, batches; shared, new and vanishing vocabulary and
// servers) and checks after each that every query method answers exactly
// as a fresh build of the same documents with the same frozen statistics
// (regex both with the trigram index and with a full scan).
func TestApplyMatchesFreshBuild(t *testing.T) {
	for seed := range int64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			var docs []Document
			for range 40 + r.Intn(40) {
				docs = append(docs, synthDoc(r, 5))
			}
			ix := NewIndex(docs)
			steps := 60
			if testing.Short() || raceEnabled {
				steps = 15
			}
			for step := range steps {
				n, edits := applyOp(r, &docs, 20+step)
				ix = ix.apply(n, edits, false)
				if got := docsOf(ix); !cmp.Equal(got, docs) {
					t.Fatalf("step %d: documents differ (-want +got):\n%s", step, cmp.Diff(docs, got))
				}
				if step%3 != 2 && step != steps-1 {
					continue
				}
				fresh := freshEquivalent(ix)
				qs := probeQueries(rand.New(rand.NewSource(int64(step))), docs)
				want := snapshot(t, fresh, qs)
				got := snapshot(t, ix, qs)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("step %d (n=%d, %d edits): results differ from a fresh build (-want +got):\n%s", step, n, len(edits), diff)
				}
			}
		})
	}
}

func docsOf(ix *Index) []Document {
	var docs []Document
	for id := range ix.Len() {
		docs = append(docs, ix.docs.At(id).doc)
	}
	return docs
}

// TestApplyRebuilds checks the rebuild policy: past 1/rebuildShare of the
// tools written, Apply builds afresh (new statistics), and the result
// equals NewIndex over the same documents.
func TestApplyRebuilds(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var docs []Document
	for range 40 {
		docs = append(docs, synthDoc(r, 3))
	}
	ix := NewIndex(docs)
	rebuilt := false
	for range 30 {
		n, edits := applyOp(r, &docs, 10)
		st := ix.st
		ix = ix.Apply(n, edits)
		if ix.st != st {
			rebuilt = true
			if ix.changed != 0 {
				t.Fatalf("changed = %d after a rebuild", ix.changed)
			}
			qs := probeQueries(r, docs)
			if diff := cmp.Diff(snapshot(t, NewIndex(docs), qs), snapshot(t, ix, qs)); diff != "" {
				t.Fatalf("a rebuilt index differs from NewIndex (-want +got):\n%s", diff)
			}
		} else if ix.changed > ix.Len()/rebuildShare {
			t.Fatalf("changed = %d > %d/%d without a rebuild", ix.changed, ix.Len(), rebuildShare)
		}
	}
	if !rebuilt {
		t.Error("30 edits of 40 tools never rebuilt")
	}
	// The zero Index and an empty one grow by Apply.
	var zero Index
	one := zero.Apply(1, []Edit{{ID: 0, Doc: Document{Name: "get_weather", Description: "Weather forecast."}}})
	if got := names(one, one.Keyword(mustParse(t, "weather"), Options{})); !slices.Equal(got, []string{"get_weather"}) {
		t.Errorf("Keyword on an Index grown from the zero value = %v", got)
	}
	if empty := one.Apply(0, nil); empty.Len() != 0 || empty.Keyword(mustParse(t, "weather"), Options{}).Total != 0 {
		t.Errorf("Apply(0, nil) left %d tools", empty.Len())
	}
}

// TestApplyPanics checks the documented programmer errors.
func TestApplyPanics(t *testing.T) {
	ix := NewIndex([]Document{{Name: "a"}, {Name: "b"}})
	for name, f := range map[string]func(){
		"ID at n":         func() { ix.Apply(2, []Edit{{ID: 2}}) },
		"negative ID":     func() { ix.Apply(2, []Edit{{ID: -1}}) },
		"new ID unedited": func() { ix.Apply(4, []Edit{{ID: 2}}) },
		"negative n":      func() { ix.Apply(-1, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

// TestApplyLeavesOldIndex checks that Apply never changes the Index it
// starts from, while readers search it and two writers apply changes to it
// concurrently (run with -race).
func TestApplyLeavesOldIndex(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var docs []Document
	for range 60 {
		docs = append(docs, synthDoc(r, 5))
	}
	base := NewIndex(docs)
	base = base.apply(len(docs), []Edit{{ID: 3, Doc: synthDoc(r, 5)}}, false) // an index with overlays
	qs := probeQueries(r, docs)[:12]
	want := snapshot(t, base, qs)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, s := range qs {
					q, _ := query.Parse(s)
					base.Keyword(q, Options{Limit: 5, Explain: true})
					base.Regex(s, Options{})
					base.Fuzzy(q, Options{})
				}
			}
		}()
	}
	var writers sync.WaitGroup // two writers derive from base at once
	for w := range 2 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := rand.New(rand.NewSource(int64(w)))
			for i := range 10 {
				d := slices.Clone(docs)
				n, edits := applyOp(r, &d, 30+i)
				base.apply(n, edits, i%2 == 0)
			}
		}()
	}
	writers.Wait()
	close(stop)
	wg.Wait()
	if diff := cmp.Diff(want, snapshot(t, base, qs)); diff != "" {
		t.Fatalf("Apply changed the old index (-before +after):\n%s", diff)
	}
}
