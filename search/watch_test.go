package search_test

import (
	"context"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// CatalogChanged's channel stays open until a change swaps in a new
// snapshot, is closed then, and the next call returns an open one.
func TestCatalogChanged(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	changed := e.CatalogChanged()
	before := e.Snapshot()
	if _, err := e.Search(context.Background(), search.Request{Query: "weather"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
		t.Fatal("the channel is closed before any change")
	default:
	}
	if _, err := e.Upsert(context.Background(), []search.Tool{{Name: "pager__page_oncall", Description: "Page the on-call engineer."}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	default:
		t.Fatal("the channel is open after a change")
	}
	if e.Snapshot() == before {
		t.Error("the channel was closed but Snapshot is the old one")
	}
	select {
	case <-e.CatalogChanged():
		t.Error("CatalogChanged after the change returned a closed channel")
	default:
	}
}
