package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

func TestEstimateBytes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tools int
		size  int64
		dims  int
		want  int64
	}{
		{"empty", 0, 0, 768, 0},
		// 2,560 fixed + 4 × 600 text.
		{"typical tool, no embedder", 1, 600, 0, 4960},
		// 2,560 + 4 × 100 dims + 4 × 600.
		{"typical tool, built-in model", 1, 600, 100, 5360},
		// 2,560 + 4 × 768 + 4 × 600.
		{"typical tool, nomic-embed-text", 1, 600, 768, 8032},
		// 1,000 × (2,560 + 400) + 4 × 368,000: the synthetic bench catalog.
		{"1,000 synthetic tools, built-in model", 1000, 368_000, 100, 4_432_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := search.EstimateBytes(tc.tools, tc.size, tc.dims); got != tc.want {
				t.Errorf("EstimateBytes(%d, %d, %d) = %d, want %d", tc.tools, tc.size, tc.dims, got, tc.want)
			}
		})
	}
}

func TestToolSize(t *testing.T) {
	tool := search.Tool{Name: "a__b", Server: "a", Category: "c", Title: "T", Description: "hello",
		InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: json.RawMessage(`{}`)}
	// 4 + 1 + 1 + 1 + 5 + 17 + 2.
	if got := search.ToolSize(tool); got != 31 {
		t.Errorf("ToolSize = %d, want 31", got)
	}
}

// sizedTool is a tool named server__tool whose ToolSize is exactly size (at
// least 40): its name, its server (the catalog sets it from the name), its
// schema {"type":"object"} (17 bytes), and a description of the rest.
func sizedTool(name string, size int) search.Tool {
	server, _, _ := strings.Cut(name, "__")
	return search.Tool{Name: name, Server: server, InputSchema: json.RawMessage(`{"type":"object"}`),
		Description: strings.Repeat("x", size-len(name)-len(server)-17)}
}

func TestMemoryBudget(t *testing.T) {
	// Without an embedder a tool of ToolSize 1,000 is estimated at
	// 2,560 + 4 × 1,000 = 6,560 bytes.
	const perTool = 6560
	start := func(t *testing.T, n int) []search.Tool {
		tools := make([]search.Tool, n)
		for i := range tools {
			tools[i] = sizedTool(fmt.Sprintf("t__%03d", i), 1000)
		}
		return tools
	}
	for _, tc := range []struct {
		name    string
		budget  int64
		initial int
		upsert  []search.Tool
		del     []string
		wantErr string // "" means the change is applied
		// wantTools is the catalog size after the change (or the
		// initial size when it is refused).
		wantTools int
	}{
		{name: "no budget", budget: 0, initial: 10,
			upsert: start(t, 20), wantTools: 20},
		{name: "fits exactly", budget: 12 * perTool, initial: 10,
			upsert: []search.Tool{sizedTool("n__a", 1000), sizedTool("n__b", 1000)}, wantTools: 12},
		{name: "one tool over", budget: 12*perTool - 1, initial: 10,
			upsert:  []search.Tool{sizedTool("n__a", 1000), sizedTool("n__b", 1000)},
			wantErr: "about 1 more tools of this batch's average size (6.4 KiB) fit", wantTools: 10},
		// Room for 2 tools of 6,560 bytes is room for one of
		// 2,560 + 4 × 2,000 = 10,560: a batch of big tools fits fewer.
		{name: "big tools fit fewer", budget: 12 * perTool, initial: 10,
			upsert:  []search.Tool{sizedTool("n__a", 2000), sizedTool("n__b", 2000)},
			wantErr: "about 1 more tools of this batch's average size (10.3 KiB) fit", wantTools: 10},
		{name: "replacing tools counts the difference", budget: 10*perTool + 4*500, initial: 10,
			upsert: []search.Tool{sizedTool("t__000", 1500)}, wantTools: 10},
		{name: "replacing tools past the budget", budget: 10*perTool + 4*500, initial: 10,
			upsert:  []search.Tool{sizedTool("t__000", 1501)},
			wantErr: "about 0 more tools", wantTools: 10},
		{name: "a delete makes room in the same change", budget: 10 * perTool, initial: 10,
			upsert: []search.Tool{sizedTool("n__a", 1000)}, del: []string{"t__001"}, wantTools: 10},
		{name: "full: a new tool is refused", budget: 10 * perTool, initial: 10,
			upsert:  []search.Tool{sizedTool("n__a", 1000)},
			wantErr: "over the budget of 64.1 KiB", wantTools: 10},
		{name: "full: a smaller replacement is allowed", budget: 5 * perTool, initial: 5,
			upsert: []search.Tool{sizedTool("t__000", 900)}, wantTools: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap, err := catalog.NewSnapshot(start(t, tc.initial))
			if err != nil {
				t.Fatal(err)
			}
			e := newEngine(t, snap, search.Config{MemoryBudget: tc.budget})
			if got, want := e.Memory().Estimate, int64(tc.initial*perTool); got != want {
				t.Fatalf("initial estimate = %d, want %d", got, want)
			}
			v0 := e.Info().CatalogVersion
			_, err = e.Apply(context.Background(), tc.upsert, tc.del)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Apply = %v, want success", err)
			case tc.wantErr != "" && !errors.Is(err, search.ErrCatalogFull):
				t.Fatalf("Apply = %v, want ErrCatalogFull", err)
			case tc.wantErr != "":
				for _, want := range []string{tc.wantErr, "--memory-limit", "delete tools"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not say %q", err, want)
					}
				}
				if v := e.Info().CatalogVersion; v != v0 {
					t.Errorf("a refused change moved the version from %d to %d", v0, v)
				}
			}
			if got := e.Info().ToolCount; got != tc.wantTools {
				t.Errorf("tools after the change = %d, want %d", got, tc.wantTools)
			}
			// The running estimate matches one computed afresh.
			var size int64
			for _, tool := range e.Snapshot().Tools() {
				size += int64(search.ToolSize(tool))
			}
			if got, want := e.Memory().Estimate, search.EstimateBytes(e.Snapshot().Len(), size, 0); got != want {
				t.Errorf("estimate after the change = %d, recomputed %d", got, want)
			}
		})
	}
}

func TestMemoryBudgetAtStart(t *testing.T) {
	tools := make([]search.Tool, 10)
	for i := range tools {
		tools[i] = sizedTool(fmt.Sprintf("t__%03d", i), 1000)
	}
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	// 10 tools of 6,560 bytes in a budget of 9 × 6,560.
	_, err = search.New(snap, search.Config{MemoryBudget: 9 * 6560})
	if !errors.Is(err, search.ErrCatalogFull) {
		t.Fatalf("New over the budget = %v, want ErrCatalogFull", err)
	}
	for _, want := range []string{"the catalog of 10 tools", "64.1 KiB", "about 9 tools", "--memory-limit"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	e := newEngine(t, snap, search.Config{MemoryBudget: 10 * 6560})
	want := search.MemoryInfo{Budget: 10 * 6560, Estimate: 10 * 6560, Tools: 10, Fit: 10}
	if diff := cmp.Diff(want, e.Memory()); diff != "" {
		t.Errorf("Memory() (-want +got):\n%s", diff)
	}
}

func TestMemoryCountsVectors(t *testing.T) {
	snap, err := catalog.NewSnapshot([]search.Tool{sizedTool("t__a", 1000)})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, snap, search.Config{Embedder: builtin(t)})
	// 2,560 + 4 × 100 dims + 4 × 1,000.
	if got := e.Memory(); got.Estimate != 6960 || got.Dimensions != 100 {
		t.Errorf("Memory() = %+v, want an estimate of 6960 at 100 dimensions", got)
	}
}
