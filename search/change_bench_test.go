package search_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// BenchmarkUpsertOne measures what a 1-tool UpsertTools costs on a large
// catalog (issue 17's incremental-writes target: p50 ≤ 50 ms at 100k
// tools), with the built-in model, after the catalog is indexed:
//
//	go test -run '^$' -bench UpsertOne -benchtime 5x ./search
func BenchmarkUpsertOne(b *testing.B) {
	for _, n := range upsertSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			tools := make([]catalog.Tool, n)
			for i := range tools {
				tools[i] = catalog.Tool{
					Name:        fmt.Sprintf("svc%d__do_thing_%d", i%500, i),
					Server:      fmt.Sprintf("svc%d", i%500),
					Description: fmt.Sprintf("Do thing number %d for service %d with a few ordinary words about records, files and messages.", i, i%500),
					InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string","description":"The record id."}}}`),
				}
			}
			snap, err := catalog.NewSnapshot(tools)
			if err != nil {
				b.Fatal(err)
			}
			e := newSemanticEngine(b, snap)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				t := catalog.Tool{Name: "bench__upserted", Description: fmt.Sprintf("An upserted tool, version %d.", i), InputSchema: []byte(`{"type":"object"}`)}
				if _, err := e.Upsert(ctx, []search.Tool{t}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// upsertSizes are the catalog sizes BenchmarkUpsertOne measures.
var upsertSizes = []int{10_000, 100_000}
