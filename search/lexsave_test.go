package search

import (
	"fmt"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// TestCatalogDigest: the digest changes with any searched field of any
// tool, in any block, and with text moved across a field boundary, and not
// with what the keyword index does not read.
func TestCatalogDigest(t *testing.T) {
	tools := make([]catalog.Tool, 3*digestBlock/2)
	for i := range tools {
		tools[i] = catalog.Tool{Name: fmt.Sprintf("srv__tool_%05d", i), Server: "srv", Description: "Does thing " + fmt.Sprint(i),
			InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
	}
	digest := func(edit func(*catalog.Tool)) string {
		t.Helper()
		ts := append([]catalog.Tool(nil), tools...)
		if edit != nil {
			edit(&ts[len(ts)-1]) // in the second block
		}
		snap, err := catalog.NewSnapshot(ts)
		if err != nil {
			t.Fatal(err)
		}
		return catalogDigest(snap, nil)
	}
	base := digest(nil)
	if again := digest(nil); again != base {
		t.Fatalf("the same catalog gave two digests")
	}
	for name, edit := range map[string]func(*catalog.Tool){
		"description": func(t *catalog.Tool) { t.Description += "." },
		"category":    func(t *catalog.Tool) { t.Category = "x" },
		"schema": func(t *catalog.Tool) {
			t.InputSchema = []byte(`{"type":"object","properties":{"r":{"type":"string"}}}`)
		},
		"boundary": func(t *catalog.Tool) { t.Category, t.Description = "D", t.Description[1:] },
	} {
		if digest(edit) == base {
			t.Errorf("%s changed, the digest did not", name)
		}
	}
	if digest(func(t *catalog.Tool) { t.Title = "A title" }) != base {
		t.Errorf("a title (not searched) changed the digest")
	}
}
