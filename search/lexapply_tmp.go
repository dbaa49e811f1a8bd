package search

// TEMPORARY until fallback.Index.Apply lands: a full rebuild.

import (
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

type lexEdit struct {
	ID  int
	Doc fallback.Document
}

func applyLex(_ *fallback.Index, snap *catalog.Snapshot, _ int, _ []lexEdit) *fallback.Index {
	docs := make([]fallback.Document, snap.Len())
	for i, t := range snap.All() {
		docs[i] = lexicalDocument(t)
	}
	return fallback.NewIndex(docs)
}
