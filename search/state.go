package search

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/internal/par"
	"github.com/toolsearch/toolsearch/internal/pvec"
)

// state is one immutable generation of the engine: a catalog snapshot and
// the indexes built from it, all keyed by the snapshot's tool IDs.
type state struct {
	snap *catalog.Snapshot
	// keywords is Config.Keywords, the search-only text of tools by name.
	keywords map[string]string
	// lex is the keyword index; it also holds each tool's server and
	// category lowercased (serverOf, categoryOf), for filters.
	lex *fallback.Index
	// serverKeys maps the forms a query may name a server in to the server
	// (servers.go).
	serverKeys map[string]string
	// serverTools counts the tools of each server by its lowercased name,
	// and allTools those of every server (distinctive).
	serverTools map[string]int
	allTools    int
	// sem is the semantic view; nil without an embedder.
	sem *semState
	// actions holds each tool's own actions and parameters' words
	// (toolFacts) by ID, derived when the tool first reaches a no-match
	// rule: once per snapshot, not
	// once per search. A state of another snapshot starts a new one (a
	// change may give an ID another tool); a copy of the state for a new
	// semantic view shares it. Safe for concurrent use. By ID: one
	// pointer per tool, read without hashing or copying the facts (the
	// rules read them for every hit; h37-lat: a sync.Map of values
	// before).
	actions []atomic.Pointer[toolFacts]
}

// newState builds the state of snap from scratch, without a semantic view.
// The tools' documents (their JSON schemas parsed) are made on every core.
func newState(snap *catalog.Snapshot, keywords map[string]string) *state {
	docs := make([]fallback.Document, snap.Len())
	par.For(len(docs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			docs[i] = lexicalDocument(snap.Tool(i), keywords)
		}
	})
	return stateWith(snap, fallback.NewIndex(docs), keywords)
}

// stateWith returns the state of snap with lex, its keyword index (built or
// loaded), without a semantic view.
func stateWith(snap *catalog.Snapshot, lex *fallback.Index, keywords map[string]string) *state {
	st := &state{snap: snap, keywords: keywords, lex: lex, serverKeys: serverKeys(serverNames(snap)), actions: make([]atomic.Pointer[toolFacts], snap.Len())}
	st.serverTools, st.allTools = serverTools(snap)
	return st
}

// next returns the state of snap, a change of st's snapshot that edited the
// IDs in edited (catalog.Counts.Edited), and the vector IDs st uses that the
// new state does not (to delete from the index once it is published). Only
// the edited tools are analysed: the cost is proportional to the change.
// Tools whose document text is unchanged keep their vectors, even when a
// delete moved them to another ID; edited tools with new text have none
// until embedded.
func (st *state) next(snap *catalog.Snapshot, edited []int) (*state, []int32) {
	n := snap.Len()
	edits := make([]fallback.Edit, len(edited))
	for k, id := range edited {
		t := snap.Tool(id)
		edits[k] = fallback.Edit{ID: id, Doc: lexicalDocument(t, st.keywords)}
	}
	next := &state{
		snap:       snap,
		keywords:   st.keywords,
		lex:        st.lex.Apply(n, edits),
		serverKeys: st.serverKeys,
		actions:    make([]atomic.Pointer[toolFacts], n),
	}
	next.serverTools, next.allTools = serverTools(snap)
	if !slices.Equal(serverNames(snap), serverNames(st.snap)) {
		next.serverKeys = serverKeys(serverNames(snap))
	}
	var stale []int32
	if st.sem != nil {
		next.sem, stale = st.sem.next(st.snap, snap, next.lex, edited)
	}
	return next, stale
}

// serverOf returns tool id's server, lowercased ("" if none).
func (st *state) serverOf(id int) string { return st.lex.Server(id) }

// categoryOf returns tool id's category, lowercased.
func (st *state) categoryOf(id int) string { return st.lex.Category(id) }

// resize grows v, a copy from Edit, to n elements with fill, or truncates
// it to n.
func resize[T any](v *pvec.Vec[T], n int, fill T) {
	v.Truncate(n)
	for v.Len() < n {
		v.Append(fill)
	}
}

// serverNames returns the servers of snap, lowercased, in name order.
func serverNames(snap *catalog.Snapshot) []string {
	servers := make([]string, 0, len(snap.Servers()))
	for _, s := range snap.Servers() {
		servers = append(servers, strings.ToLower(s.Name))
	}
	return servers
}

// serverTools returns the tools of each server of snap by its lowercased
// name (servers whose names differ only in case count together), and of
// all of them.
func serverTools(snap *catalog.Snapshot) (map[string]int, int) {
	counts := make(map[string]int, len(snap.Servers()))
	all := 0
	for _, s := range snap.Servers() {
		counts[strings.ToLower(s.Name)] += s.Tools
		all += s.Tools
	}
	return counts, all
}

// documentTexts returns the embedding text of every tool of st, by ID,
// from the keyword index's documents (no schema is parsed again).
func (st *state) documentTexts() pvec.Vec[string] {
	var texts pvec.Vec[string]
	for id := range st.lex.Len() {
		texts.Append(documentText(st.lex.Document(id)))
	}
	texts.Done()
	return texts
}

// lexicalDocument is the text of a tool as the lexical scorers see it;
// keywords (Config.Keywords) add to its search-only text.
func lexicalDocument(t catalog.Tool, keywords map[string]string) fallback.Document {
	params := t.Parameters()
	d := fallback.Document{
		Name:        t.Name,
		Server:      t.Server,
		Category:    t.Category,
		Description: t.Description,
		ParamNames:  make([]string, len(params)),
		ParamDescs:  make([]string, len(params)),
		Keywords:    searchOnlyText(t, keywords),
	}
	for i, p := range params {
		d.ParamNames[i] = p.Name
		d.ParamDescs[i] = p.Description
	}
	return d
}

// searchOnlyText is a tool's search-only text: its KeywordsAnnotation, then
// its entry in keywords (Config.Keywords).
func searchOnlyText(t catalog.Tool, keywords map[string]string) string {
	return strings.TrimSpace(t.Keywords() + " " + strings.TrimSpace(keywords[t.Name]))
}
