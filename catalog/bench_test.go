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
