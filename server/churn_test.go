package server_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
)

// Churn knobs: enough rounds for searches to land between every upsert and
// delete on a 2-core machine, few enough to finish in seconds with -race.
const (
	churnRounds   = 150
	churnSearches = 6 // concurrent searching clients
)

// TestChurnNoDeletedToolReturned: while one client upserts and deletes
// tools (each name used once), concurrent clients search for them in every
// mode; no search answered from a catalog version at or after a tool's
// delete returns that tool, and no call fails.
func TestChurnNoDeletedToolReturned(t *testing.T) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{Embedder: b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	srv := server.New(server.Config{Log: discardLogger()})
	srv.Ready(e)
	addr := servertest.Serve(t, srv)

	var deletedAt sync.Map // tool name → catalog version of its delete
	var done atomic.Bool
	var searches, violations atomic.Int64
	var wg sync.WaitGroup
	modes := []toolsearchv1.SearchType{toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC, toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD, toolsearchv1.SearchType_SEARCH_TYPE_REGEX}
	for w := range churnSearches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			for i := 0; !done.Load(); i++ {
				q := "zebracorn telemetry widget"
				mode := modes[(w+i)%len(modes)]
				if mode == toolsearchv1.SearchType_SEARCH_TYPE_REGEX {
					q = "zebracorn"
				}
				resp, err := c.Search(ctx(t), q, toolsearch.WithSearchType(mode), toolsearch.WithMaxResults(10))
				if err != nil {
					t.Errorf("search during churn: %v", err)
					return
				}
				searches.Add(1)
				v := resp.GetSearchMetadata().GetCatalogVersion()
				for _, r := range resp.GetToolReferences() {
					if at, ok := deletedAt.Load(r.GetToolName()); ok && v >= at.(uint64) {
						violations.Add(1)
						t.Errorf("%s search at catalog version %d returned %s, deleted at version %d", mode, v, r.GetToolName(), at)
					}
				}
			}
		}()
	}

	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range churnRounds {
		name := fmt.Sprintf("churn__zebracorn_%d", i)
		if _, err := c.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: name, Description: fmt.Sprintf("Zebracorn telemetry widget number %d", i)}); err != nil {
			t.Fatal(err)
		}
		del, err := c.DeleteTools(ctx(t), name)
		if err != nil {
			t.Fatal(err)
		}
		deletedAt.Store(name, del.GetCatalogVersion())
	}
	done.Store(true)
	wg.Wait()
	if searches.Load() < churnRounds {
		t.Errorf("only %d searches ran during %d upsert/delete rounds; the check saw too little", searches.Load(), churnRounds)
	}
	t.Logf("%d upsert/delete rounds, %d concurrent searches, %d deleted tools returned", churnRounds, searches.Load(), violations.Load())
}
