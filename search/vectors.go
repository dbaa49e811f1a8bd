package search

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/internal/pvec"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// vectorStore is the engine's semantic index, shared by every state
// generation: one HNSW graph whose entries have stable vector IDs. A catalog
// change adds the vectors of new or changed tools under new IDs, swaps in a
// state that maps its tools to IDs, and only then deletes the old IDs, so a
// search in flight on an older state still finds its vectors (it skips IDs
// it does not know). Only the engine's writers (under Engine.mu) touch the
// fields; the index itself is safe for concurrent readers.
type vectorStore struct {
	index *vectorindex.HNSW
	// pc is the catalog's common component, removed from every document and
	// query vector; nil when the first batch indexed had too few documents
	// to estimate it. States copy it, so readers never read this field.
	pc   []float32
	next int32
}

// minDocsForComponent is the fewest documents from which the common
// component is estimated. With fewer, the first principal direction is
// mostly one document's own topic, and removing it would hurt.
const minDocsForComponent = 20

// exactIndexLimit is the engine's default HNSWConfig.ExactLimit: catalogs
// of up to this many embedded tools are searched exactly, without a graph.
// Measured with toolsearch bench (built-in model, 100 dimensions, one
// query on a 2-core machine): an exact scan of 10k vectors takes about as
// long as a graph search at the default beam, is exact (recall 1), and
// saves the graph's build time and memory; past ~16k the graph is faster.
// On the three bench catalogs (≤ 2,479 tools) exact and graph search give
// the same nDCG@10 to four decimals.
const exactIndexLimit = 16384

func newVectorStore(dims int, cfg vectorindex.HNSWConfig) *vectorStore {
	if cfg.ExactLimit == 0 {
		cfg.ExactLimit = exactIndexLimit
	}
	return &vectorStore{index: vectorindex.NewHNSW(dims, cfg)}
}

// add post-processes raw document vectors, indexes them, and returns their
// new IDs. The index holds the only copy of the vectors.
func (vs *vectorStore) add(raw [][]float32) ([]int32, error) {
	if vs.next == 0 && len(raw) >= minDocsForComponent {
		// The component is estimated once, from the first batch (the whole
		// catalog at start-up, up to indexChunk tools), so that every
		// vector in the index is projected the same way.
		vs.pc = embed.FirstComponent(raw)
	}
	ids := make([]int32, len(raw))
	intIDs := make([]int, len(raw))
	vecs := make([][]float32, len(raw))
	for i, v := range raw {
		ids[i] = vs.next
		intIDs[i] = int(vs.next)
		vs.next++
		vecs[i] = project(v, vs.pc)
	}
	if err := vs.index.Add(intIDs, vecs); err != nil {
		return nil, err
	}
	return ids, nil
}

// remove deletes IDs that no current state uses any more.
func (vs *vectorStore) remove(ids []int32) {
	if len(ids) == 0 {
		return
	}
	del := make([]int, len(ids))
	for i, id := range ids {
		del[i] = int(id)
	}
	vs.index.Delete(del...)
}

// project removes the common component pc from v and re-normalizes it; a
// nil pc or a zero vector is returned as is.
func project(v, pc []float32) []float32 {
	if pc == nil || isZeroVector(v) {
		return v
	}
	return embed.RemoveComponent(v, pc)
}

func isZeroVector(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// semState is one state generation's view of the vector store: which tools
// have vectors, under which IDs. Immutable once built; semEdit makes
// changed copies.
type semState struct {
	// index is the engine's shared vector index (safe for concurrent
	// readers); results carry vector IDs that this view may not know.
	index *vectorindex.HNSW
	// embedder made the vectors and embeds queries; gate is its calibrated
	// confidence gate.
	embedder embed.Embedder
	gate     Gate
	pc       []float32
	// vid is each tool's vector ID, -1 when the tool has no vector yet.
	vid []int32
	// tool maps a vector ID back to the tool's ID, -1 (or past its end)
	// when no tool of this view has that vector.
	tool pvec.Vec[int32]
	// embedded counts the tools with vectors.
	embedded int
	// text is each tool's document text, to tell a changed tool from an
	// unchanged one when the catalog changes.
	text pvec.Vec[string]
}

// newSemState returns a view with no vectors for tools with the given
// document texts.
func newSemState(index *vectorindex.HNSW, emb embed.Embedder, gate Gate, texts pvec.Vec[string], pc []float32) *semState {
	s := &semState{
		index:    index,
		embedder: emb,
		gate:     gate,
		pc:       pc,
		vid:      make([]int32, texts.Len()),
		text:     texts,
	}
	for i := range s.vid {
		s.vid[i] = -1
	}
	return s
}

// toolOf returns the ID of the tool whose vector has ID v, if this view
// has one.
func (s *semState) toolOf(v int32) (int, bool) {
	if int(v) >= s.tool.Len() {
		return 0, false
	}
	i := s.tool.Get(int(v))
	return int(i), i >= 0
}

// semEdit makes a changed copy of a semState, copying only what changes
// (vid is copied whole: 4 bytes a tool; s.tool is a copy from Edit). It is
// used by one writer.
type semEdit struct {
	s semState
}

func (s *semState) edit() *semEdit {
	e := &semEdit{s: *s}
	e.s.vid = slices.Clone(s.vid)
	e.s.tool = s.tool.Edit()
	return e
}

// set records that tool i's vector has ID v.
func (e *semEdit) set(i int, v int32) {
	e.clear(i)
	e.s.vid[i] = v
	e.s.embedded++
	for e.s.tool.Len() <= int(v) {
		e.s.tool.Append(-1)
	}
	*e.s.tool.Mut(int(v)) = int32(i)
}

// clear forgets tool i's vector, if it has one, and returns its ID (-1 if
// none).
func (e *semEdit) clear(i int) int32 {
	v := e.s.vid[i]
	if v >= 0 {
		e.s.vid[i] = -1
		e.s.embedded--
		if e.s.tool.Get(int(v)) == int32(i) {
			*e.s.tool.Mut(int(v)) = -1
		}
	}
	return v
}

// done returns the changed view.
func (e *semEdit) done() *semState {
	s := e.s
	s.tool.Done()
	return &s
}

// next returns the view of snap, a change of prev that edited the IDs in
// edited, and the vector IDs s uses that the new view does not. An edited
// tool keeps the vector it had under any ID in prev when its document text
// is unchanged (a delete moves the last tool into the freed ID); otherwise
// it has none until embedded.
//
// lex is the new state's keyword index, which holds each tool's document.
func (s *semState) next(prev, snap *catalog.Snapshot, lex *fallback.Index, edited []int) (*semState, []int32) {
	n := snap.Len()
	e := s.edit()
	old := map[int32]bool{}
	drop := func(i int) {
		if v := e.clear(i); v >= 0 {
			old[v] = true
		}
	}
	for i := n; i < len(e.s.vid); i++ {
		drop(i)
	}
	for _, i := range edited {
		if i < len(e.s.vid) {
			drop(i)
		}
	}
	if n < len(e.s.vid) {
		e.s.vid = e.s.vid[:n:n]
	}
	for len(e.s.vid) < n {
		e.s.vid = append(e.s.vid, -1)
	}
	text := s.text.Edit()
	resize(&text, n, "")
	for _, i := range edited {
		t := snap.Tool(i)
		doc := documentText(lex.Document(i))
		*text.Mut(i) = doc
		if j, ok := prev.Lookup(t.Name); ok && s.vid[j] >= 0 && old[s.vid[j]] && s.text.Get(j) == doc {
			e.set(i, s.vid[j])
			delete(old, s.vid[j])
		}
	}
	text.Done()
	e.s.text = text
	stale := make([]int32, 0, len(old))
	for v := range old {
		stale = append(stale, v)
	}
	slices.Sort(stale)
	return e.done(), stale
}

// unembeddedTolerance is the share of a catalog's tools that may lack a
// vector while semantic search still answers: a catalog change whose tools
// the embedder could not embed yet (or one tool it rejects) leaves those
// tools to the keyword half of fusion instead of turning every search into
// keyword search. At least one tool is always tolerated; at start-up, with
// most of the catalog still to embed, searches answer with keyword results
// and fallback_reason index_warming.
const unembeddedTolerance = 0.01

// searchable reports whether semantic search answers over a catalog of n
// tools: all but unembeddedTolerance of them have vectors.
func (s *semState) searchable(n int) bool {
	return n-s.embedded <= max(1, int(unembeddedTolerance*float64(n)))
}

// missing lists the tools without vectors.
func (s *semState) missing() []int {
	var out []int
	for i, id := range s.vid {
		if id < 0 {
			out = append(out, i)
		}
	}
	return out
}

// documentText is the text of a tool that the embedder sees: its full name
// twice (the analysis pipeline splits it into words; the server prefix
// helps), its description, and each parameter's name and description. The
// name carries the tool's verb and object ("github__create_issue") and is
// short, so it is repeated to weigh as much as a description. Measured with
// the built-in model over the three ../shared/bench catalogs (semantic-only
// nDCG@10, averaged): name only 0.250, description only 0.324, name and
// description 0.357, with parameter names 0.368, with parameter
// descriptions 0.377, with the name twice 0.395; three times is worse.
//
// It is made from the tool's lexical document (lexicalDocument), which
// holds its parsed parameters, so that a schema is parsed once per change.
func documentText(d fallback.Document) string {
	var b strings.Builder
	b.WriteString(d.Name)
	b.WriteString(". ")
	b.WriteString(d.Name)
	b.WriteString(". ")
	b.WriteString(d.Description)
	for i, name := range d.ParamNames {
		b.WriteString(" ")
		b.WriteString(name)
		if desc := d.ParamDescs[i]; desc != "" {
			b.WriteString(" ")
			b.WriteString(desc)
		}
	}
	return b.String()
}
