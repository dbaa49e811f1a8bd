package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/fallback"
)

// TestIncrementalStateMatchesCatalog changes an indexed catalog at random
// (updates that change the text or only the schema bytes, inserts,
// deletes that move the last tool, batches of each) and checks after every
// change that the state built incrementally is the state of the new
// catalog: per-tool arrays, the semantic view (every tool has its own
// vector, the map back from vector IDs agrees, vectors no tool uses are
// gone from the index, unchanged tools were not re-embedded), regex results
// equal to a fresh build's, and every tool found by its exact name while a
// deleted one never is, and each tool's own actions (toolActions) are its
// tool's, never a tool's that held its ID before.
func TestIncrementalStateMatchesCatalog(t *testing.T) {
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	counting := &embedtest.Counting{Inner: emb}
	rng := rand.New(rand.NewPCG(5, 6))
	var tools []catalog.Tool
	names := map[string]bool{}
	for i := range 120 {
		if tl := incrementalTool(rng, i, 0); !names[tl.Name] {
			names[tl.Name] = true
			tools = append(tools, tl)
		}
	}
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(snap, Config{Embedder: counting})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for step := range 60 {
		cur := e.Snapshot()
		var upsert []Tool
		var del []string
		named := map[string]bool{}
		wantEmbeds := 0
		for range 1 + rng.IntN(5) {
			id := rng.IntN(cur.Len())
			t0 := cur.Tool(id)
			if named[t0.Name] {
				continue
			}
			switch rng.IntN(4) {
			case 0:
				named[t0.Name] = true
				del = append(del, t0.Name)
			case 1: // new text: embedded again
				named[t0.Name] = true
				t0.Description = fmt.Sprintf("Changed at step %d: %s", step, t0.Description)
				upsert = append(upsert, t0)
				wantEmbeds++
			case 2: // same text, other schema bytes: keeps its vector
				named[t0.Name] = true
				t0.InputSchema = []byte(strings.Replace(string(t0.InputSchema), `{"type":"object"`, fmt.Sprintf(`{"type":"object","x-step":%d`, step), 1))
				upsert = append(upsert, t0)
			default:
				nt := incrementalTool(rng, 1000+step*10+len(upsert), step)
				if _, ok := cur.Lookup(nt.Name); !ok && !named[nt.Name] {
					named[nt.Name] = true
					upsert = append(upsert, nt)
					wantEmbeds++
				}
			}
		}
		counting.Seen() // drop the previous checks' queries
		if _, err := e.Apply(ctx, upsert, del); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		deleted = append(deleted, del...)
		if seen := counting.Seen(); len(seen) != wantEmbeds {
			t.Errorf("step %d: embedded %d texts %q, want %d (only new text)", step, len(seen), seen, wantEmbeds)
		}
		checkIncrementalState(t, step, e, deleted)
	}
}

func checkIncrementalState(t *testing.T, step int, e *Engine, deleted []string) {
	t.Helper()
	st := e.state.Load()
	snap := st.snap
	n := snap.Len()
	if st.lex.Len() != n || len(st.sem.vid) != n || st.sem.text.Len() != n {
		t.Fatalf("step %d: lengths lex %d, vid %d, text %d; want %d", step,
			st.lex.Len(), len(st.sem.vid), st.sem.text.Len(), n)
	}
	used := 0
	for id, tl := range snap.All() {
		if st.lex.Name(id) != tl.Name || st.serverOf(id) != strings.ToLower(tl.Server) || st.categoryOf(id) != strings.ToLower(tl.Category) {
			t.Fatalf("step %d: ID %d is %q in the catalog but %q/%q/%q in the indexes", step, id, tl.Name,
				st.lex.Name(id), st.serverOf(id), st.categoryOf(id))
		}
		// The tool's own actions, derived once per state: this call fills
		// the state's memo, which the next step's state must not reuse.
		if got, want := st.toolActions(id), toolActions(tl); !slices.Equal(got, want) {
			t.Fatalf("step %d: ID %d (%s) has actions %q, want %q", step, id, tl.Name, got, want)
		}
		if st.sem.text.Get(id) != documentText(lexicalDocument(tl, nil)) {
			t.Fatalf("step %d: ID %d (%s) has a stale document text", step, id, tl.Name)
		}
		v := st.sem.vid[id]
		if v < 0 {
			t.Fatalf("step %d: %s has no vector", step, tl.Name)
		}
		if back, ok := st.sem.toolOf(v); !ok || back != id {
			t.Fatalf("step %d: vector %d of %s maps back to %d, %v", step, v, tl.Name, back, ok)
		}
		used++
	}
	if st.sem.embedded != used || st.sem.index.Len() != used {
		t.Fatalf("step %d: embedded %d, index holds %d vectors; want %d", step, st.sem.embedded, st.sem.index.Len(), used)
	}
	fresh := newState(snap, nil)
	for _, pattern := range []string{"file", "send|message", "^t0", "step [0-9]+", "data.*report"} {
		got, err := st.lex.Regex(pattern, fallback.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.lex.Regex(pattern, fallback.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := regexNames(st, got), regexNames(fresh, want); !slices.Equal(g, w) {
			t.Fatalf("step %d: regex %q finds %v incrementally, %v in a fresh build", step, pattern, g, w)
		}
	}
	ctx := context.Background()
	for _, name := range []string{snap.Tool(0).Name, snap.Tool(n - 1).Name} {
		res, err := e.Search(ctx, Request{Query: name, Mode: ModeKeyword})
		if err != nil || len(res.References) == 0 || res.References[0].Name != name {
			t.Fatalf("step %d: keyword search for the name %q: %v, %+v", step, name, err, res.References)
		}
	}
	for _, name := range deleted {
		for _, mode := range []Mode{ModeDefault, ModeKeyword, ModeRegex} {
			res, err := e.Search(ctx, Request{Query: name, Mode: mode, MaxResults: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.References {
				if r.Name == name {
					t.Fatalf("step %d: deleted tool %s returned by %s search", step, name, mode)
				}
			}
		}
	}
}

// regexNames returns the names of a regex result's hits with their scores.
func regexNames(st *state, r fallback.Result) []string {
	out := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		out[i] = fmt.Sprintf("%s %.4f", st.lex.Name(h.ID), h.Score)
	}
	return out
}

// incrementalTool is a random tool: a few servers and categories, words
// shared between tools, names unique enough to collide only sometimes.
func incrementalTool(rng *rand.Rand, i, step int) catalog.Tool {
	server := []string{"files", "mail", "chat", "Reports"}[rng.IntN(4)]
	verb := []string{"send", "read", "list", "delete", "archive"}[rng.IntN(5)]
	noun := []string{"message", "file", "report", "data", "record"}[rng.IntN(5)]
	return catalog.Tool{
		Name:        fmt.Sprintf("%s__%s_%s_t%03d", strings.ToLower(server), verb, noun, rng.IntN(400)),
		Server:      server,
		Category:    []string{"", "Office", "dev"}[rng.IntN(3)],
		Description: fmt.Sprintf("%s the %s of tool %d, made at step %d.", verb, noun, i, step),
		InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string","description":"The ` + noun + ` id."}}}`),
	}
}
