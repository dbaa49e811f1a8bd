package catalog

import (
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"os"

	"testing"
	"time"
)

// TestLoadBenchCatalogs loads the real public catalogs the project is
// measured on: long names, dots and dashes in names, Chinese text and empty
// descriptions are all valid.
func TestLoadBenchCatalogs(t *testing.T) {
	tests := []struct {
		dataset string
		want    int
	}{
		{"bfcl", 2015},
		{"livemcpbench", 527},
		{"stabletoolbench", 2479},
	}
	for _, tt := range tests {
		t.Run(tt.dataset, func(t *testing.T) {
			path := evaltest.Bench(t, tt.dataset+"/tools.jsonl")
			start := time.Now()
			tools, err := Load(Source{Path: path})
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(tools) != tt.want {
				t.Errorf("Load returned %d tools, want %d", len(tools), tt.want)
			}
			if _, err := NewSnapshot(tools); err != nil {
				t.Errorf("NewSnapshot: %v", err)
			}
			t.Logf("loaded %d tools in %v", len(tools), elapsed)
		})
	}
}

func BenchmarkLoadStableToolBench(b *testing.B) {
	data, err := os.ReadFile(evaltest.Bench(b, "stabletoolbench/tools.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, "stabletoolbench/tools.jsonl", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpsertOversizeDescription measures the rejection of an upsert
// whose one tool has a 50 MB description (the limit is 64 KiB): the
// description is not scanned for control characters before Validate
// rejects it (docs/benchmarks.md).
func BenchmarkUpsertOversizeDescription(b *testing.B) {
	snap, err := NewSnapshot([]Tool{{Name: "small", Description: "a small tool"}})
	if err != nil {
		b.Fatal(err)
	}
	big := make([]byte, 50<<20)
	for i := range big {
		big[i] = "lorem ipsum "[i%12]
	}
	tools := []Tool{{Name: "big", Description: string(big)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := snap.Upsert(tools); err == nil {
			b.Fatal("Upsert accepted a 50 MB description")
		}
	}
}
