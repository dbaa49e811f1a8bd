package main

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/servertest"
)

// benchKeys are the keys of bench --json, exactly (the contract, plus
// heap_mb, the memory-budget measurement).
var benchKeys = []string{"concurrency", "errors", "heap_mb", "hnsw_recall@10", "index_build_ms", "max_us", "p50_us", "p90_us", "p99_us", "qps", "queries", "rss_mb", "rss_peak_mb", "tools"}

// decodeObject decodes a command's JSON output and checks that its keys are
// exactly want (sorted).
func decodeObject(t *testing.T, out string, want []string) map[string]any {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	keys := slices.Sorted(maps.Keys(got))
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	return got
}

func TestBenchInProcess(t *testing.T) {
	for _, typ := range []string{"default", "keyword"} {
		t.Run(typ, func(t *testing.T) {
			code, out, stderr := runCmd(t, "bench", "--synthetic", "300", "--type", typ, "--requests", "100",
				"--concurrency", "4", "--warmup", "0", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := decodeObject(t, out, benchKeys)
			for k, want := range map[string]float64{"tools": 300, "queries": 100, "concurrency": 4, "errors": 0} {
				if got[k] != want {
					t.Errorf("%s = %v, want %v", k, got[k], want)
				}
			}
			// Counts and order only: benchmarks are numbers in docs, not
			// timed assertions.
			if !(got["p50_us"].(float64) <= got["p90_us"].(float64) && got["p90_us"].(float64) <= got["p99_us"].(float64) && got["p99_us"].(float64) <= got["max_us"].(float64)) {
				t.Errorf("percentiles out of order: %v", got)
			}
			if got["index_build_ms"] == nil || got["rss_mb"].(float64) <= 0 {
				t.Errorf("index_build_ms %v, rss_mb %v: want both measured in-process", got["index_build_ms"], got["rss_mb"])
			}
			// 300 tools are searched exactly: recall is 1 by construction.
			if got["hnsw_recall@10"] != 1.0 {
				t.Errorf("hnsw_recall@10 = %v, want 1", got["hnsw_recall@10"])
			}
		})
	}
}

func TestBenchTable(t *testing.T) {
	code, out, stderr := runCmd(t, "bench", "--catalog", exampleCatalog, "--requests", "50", "--warmup", "0", "--embedder", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"tools", "throughput", "p99", "index build", "hnsw recall@10"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestBenchRemote runs bench --addr against a real server on loopback.
func TestBenchRemote(t *testing.T) {
	tools, _ := syntheticCatalog(200, 1)
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	addr := servertest.Start(t, e)
	for _, extra := range [][]string{nil, {"--health"}} {
		args := append([]string{"bench", "--addr", addr, "--synthetic", "200", "--requests", "100",
			"--concurrency", "8", "--conns", "2", "--warmup", "0", "--json"}, extra...)
		code, out, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		got := decodeObject(t, out, benchKeys)
		if got["tools"] != 200.0 || got["queries"] != 100.0 || got["errors"] != 0.0 {
			t.Errorf("%v: tools %v, queries %v, errors %v; want 200, 100, 0", extra, got["tools"], got["queries"], got["errors"])
		}
		if got["index_build_ms"] != nil || got["hnsw_recall@10"] != nil {
			t.Errorf("%v: index_build_ms %v, recall %v: want null with --addr", extra, got["index_build_ms"], got["hnsw_recall@10"])
		}
	}
}

func TestBenchUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"bench"}, "give --catalog or --synthetic"},
		{[]string{"bench", "--synthetic", "10", "--catalog", exampleCatalog}, "not both"},
		{[]string{"bench", "--synthetic", "10", "--duration", "0"}, "bound the run"},
		{[]string{"bench", "--synthetic", "10", "--concurrency", "0"}, "at least 1"},
		{[]string{"bench", "--write-catalog", "x.jsonl"}, "needs --synthetic"},
		{[]string{"bench", "--synthetic", "10", "--type", "vector"}, "--type"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want 2 containing %q", code, stderr, tt.msg)
			}
		})
	}
}

func TestLatencyHistogram(t *testing.T) {
	var h latencyHistogram
	if h.quantile(0.5) != 0 {
		t.Error("empty histogram: quantile not 0")
	}
	for us := 1; us <= 1000; us++ {
		h.record(time.Duration(us) * time.Microsecond)
	}
	if got := h.quantile(0.5); got != 501 {
		t.Errorf("p50 of 1..1000 µs = %d, want 501 (exact below 1,024 µs)", got)
	}
	if got := h.quantile(0.99); got != 991 {
		t.Errorf("p99 = %d, want 991", got)
	}
	var big latencyHistogram
	big.record(50 * time.Millisecond)
	if got := big.quantile(0.5); got > 50000 || got < 50000*98/100 {
		t.Errorf("50 ms recorded as %d µs, want within 2%% below 50,000", got)
	}
	for _, us := range []uint64{0, 1, 1023, 1024, 1500, 65535, 1 << 30} {
		if lo := histLower(histBucket(us)); lo > us || float64(us-lo) > 0.016*float64(us)+1 {
			t.Errorf("%d µs: bucket lower bound %d", us, lo)
		}
	}
	h.merge(&big)
	if h.n != 1001 || h.max != 50*time.Millisecond {
		t.Errorf("merge: n %d, max %v", h.n, h.max)
	}
}

// TestBenchCacheDirAndQuantize: with --cache-dir the first run saves the
// embedding cache and the vector index, and a second run loads them (a warm
// restart); --quantize int8 stores the vectors as int8, and a bad value is
// a usage error.
func TestBenchCacheDirAndQuantize(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--synthetic", "300", "--type", "semantic", "--requests", "20", "--warmup", "0", "--json", "--cache-dir", dir, "--quantize", "int8", "--hnsw-exact-limit", "-1"}
	for run := range 2 {
		code, out, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, code, stderr)
		}
		got := decodeObject(t, out, benchKeys)
		if got["tools"] != 300.0 || got["errors"] != 0.0 {
			t.Errorf("run %d: %v", run, got)
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "index-*.bin")); len(files) != 1 {
			t.Fatalf("run %d: index files %v, want one", run, files)
		}
	}
	if code, _, stderr := runCmd(t, "bench", "--synthetic", "10", "--quantize", "int4"); code != 2 || !strings.Contains(stderr, "int4") {
		t.Errorf("--quantize int4: exit %d, %s", code, stderr)
	}
}

// TestBenchTypeList: --type with a list measures each type on one engine
// and prints one JSON line per type, naming it; with --addr it is a usage
// error.
func TestBenchTypeList(t *testing.T) {
	code, out, stderr := runCmd(t, "bench", "--synthetic", "300", "--type", "semantic,keyword,regex", "--requests", "20", "--warmup", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out)
	}
	keys := append(slices.Clone(benchKeys), "type")
	slices.Sort(keys)
	for i, want := range []string{"semantic", "keyword", "regex"} {
		got := decodeObject(t, lines[i], keys)
		if got["type"] != want || got["queries"] != 20.0 || got["hnsw_recall@10"] != 1.0 {
			t.Errorf("line %d: type %v, queries %v, recall %v; want %s, 20, 1", i, got["type"], got["queries"], got["hnsw_recall@10"], want)
		}
	}
	if code, _, stderr := runCmd(t, "bench", "--addr", "127.0.0.1:1", "--type", "default,keyword", "--requests", "1"); code != 2 || !strings.Contains(stderr, "one type") {
		t.Errorf("--addr with two types: exit %d, %s", code, stderr)
	}
}
