package search_test

import (
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
)

// newEngine builds an engine over snap and closes it when the test ends.
func newEngine(t testing.TB, snap *catalog.Snapshot, cfg search.Config) *search.Engine {
	t.Helper()
	e, err := search.New(snap, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// newSemanticEngine builds an engine with the built-in model, waiting until
// the catalog is indexed.
func newSemanticEngine(t testing.TB, snap *catalog.Snapshot) *search.Engine {
	t.Helper()
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, snap, search.Config{Embedder: emb})
	if err := e.WaitIndexed(testenv.Context(t)); err != nil {
		t.Fatalf("indexing: %v", err)
	}
	return e
}

// loadSnapshot loads catalog files into a snapshot.
func loadSnapshot(t testing.TB, paths ...string) *catalog.Snapshot {
	t.Helper()
	sources := make([]catalog.Source, len(paths))
	for i, p := range paths {
		sources[i] = catalog.Source{Path: p}
	}
	snap, err := catalog.LoadSnapshot(sources...)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}
