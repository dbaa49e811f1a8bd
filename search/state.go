package search

import (
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

// state is one immutable generation of the engine: a catalog snapshot and
// the indexes built from it.
type state struct {
	snap *catalog.Snapshot
	lex  *fallback.Index
	// server and category hold each tool's server and category lowercased,
	// for category filters.
	server, category []string
	// serverKeys maps the forms a query may name a server in to the server
	// (servers.go).
	serverKeys map[string]string
	// sem is the semantic view; nil without an embedder.
	sem *semState
}

// newState builds the state of snap. When prev has a semantic view, the
// new state has one with the same embedder, and tools whose document text
// is unchanged keep prev's vectors; the others have none until embedded.
func newState(snap *catalog.Snapshot, prev *state) *state {
	tools := snap.Tools()
	docs := make([]fallback.Document, len(tools))
	st := &state{
		snap:     snap,
		server:   make([]string, len(tools)),
		category: make([]string, len(tools)),
	}
	for i, t := range tools {
		docs[i] = lexicalDocument(t)
		st.server[i] = strings.ToLower(t.Server)
		st.category[i] = strings.ToLower(t.Category)
	}
	st.lex = fallback.NewIndex(docs)
	servers := make([]string, 0, len(snap.Servers()))
	for _, s := range snap.Servers() {
		servers = append(servers, strings.ToLower(s.Name))
	}
	st.serverKeys = serverKeys(servers)
	if prev == nil || prev.sem == nil {
		return st
	}
	ps := prev.sem
	st.sem = newSemState(ps.index, ps.embedder, ps.gate, documentTexts(snap), ps.pc)
	for i, t := range tools {
		j, ok := prev.snap.Lookup(t.Name)
		if ok && ps.vid[j] >= 0 && ps.text[j] == st.sem.text[i] {
			st.sem.set(i, ps.vid[j])
		}
	}
	return st
}

// documentTexts returns the embedding text of every tool of snap.
func documentTexts(snap *catalog.Snapshot) []string {
	tools := snap.Tools()
	texts := make([]string, len(tools))
	for i, t := range tools {
		texts[i] = documentText(t)
	}
	return texts
}

// lexicalDocument is the text of a tool as the lexical scorers see it.
func lexicalDocument(t catalog.Tool) fallback.Document {
	params := t.Parameters()
	d := fallback.Document{
		Name:        t.Name,
		Server:      t.Server,
		Category:    t.Category,
		Description: t.Description,
		ParamNames:  make([]string, len(params)),
		ParamDescs:  make([]string, len(params)),
	}
	for i, p := range params {
		d.ParamNames[i] = p.Name
		d.ParamDescs[i] = p.Description
	}
	return d
}
