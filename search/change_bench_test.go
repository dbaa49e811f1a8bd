package search_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// BenchmarkUpsertOne measures what a 1-tool change costs on a large,
// indexed catalog, with the built-in model (issue 17's incremental-writes
// target: p50 ≤ 50 ms at 100k tools): updating a tool's description (so it
// is embedded again), inserting a new tool, and deleting one (which moves
// the last tool into its ID). Each reports its median as p50-ms beside the
// mean:
//
//	go test -run '^$' -bench UpsertOne -benchtime 50x ./search
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
			b.Run("update", func(b *testing.B) {
				measureChanges(b, func(i int) error {
					t := tools[(i*7919)%n]
					t.Description = fmt.Sprintf("Updated %d times: %s", i, t.Description)
					_, err := e.Upsert(ctx, []search.Tool{t})
					return err
				})
			})
			b.Run("insert", func(b *testing.B) {
				measureChanges(b, func(i int) error {
					t := catalog.Tool{Name: fmt.Sprintf("bench__new_%d", i), Description: fmt.Sprintf("A new tool, number %d, that files reports.", i)}
					_, err := e.Upsert(ctx, []search.Tool{t})
					return err
				})
			})
			b.Run("delete", func(b *testing.B) {
				measureChanges(b, func(i int) error {
					_, err := e.Delete(ctx, []string{tools[(i*104729)%n].Name})
					return err
				})
			})
		})
	}
}

// measureChanges runs change once per iteration, i counting from the
// sub-benchmark's first run, and reports the median time as p50-ms.
func measureChanges(b *testing.B, change func(i int) error) {
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if err := change(i + changeOffset); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	changeOffset += len(took)
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// changeOffset keeps the tools that measureChanges's runs insert and delete
// distinct across the runs testing makes of one sub-benchmark.
var changeOffset int

// upsertSizes are the catalog sizes BenchmarkUpsertOne measures.
var upsertSizes = []int{10_000, 100_000}
