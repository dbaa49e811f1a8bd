package search

import (
	"fmt"

	"github.com/toolsearch/toolsearch/catalog"
)

// The memory budget: the engine estimates the memory a catalog keeps (its
// live Go heap: the tools, the keyword indexes, the vectors and the vector
// graph) and refuses a change, or a start-up catalog, whose estimate is over
// Config.MemoryBudget.
//
// The estimate of one tool is
//
//	toolFixedBytes + vectorBytesPerDim × dimensions + toolTextFactor × ToolSize(tool)
//
// fitted to the live heap (HeapAlloc after a GC) of `toolsearch bench
// --catalog` with the built-in model (100 dimensions), less the heap of a
// one-tool catalog (23.0 MiB, mostly the built-in model's word vectors), per
// tool (docs/benchmarks.md, memory):
//
//	catalog                                 ToolSize  measured  estimate
//	synthetic, 10k / 30k / 60k tools          368 B   2.9–3.1 KB  4.4 KB (+45%)
//	real (BFCL+StableToolBench+LiveMCP), 5k   482 B   4.8 KB      4.9 KB (+2%)
//	real, repeated to 30k                     483 B   3.8 KB      4.9 KB (+30%)
//	synthetic + long text, 10k              2,325 B   11.5 KB     12.3 KB (+7%)
//	synthetic + very long text, 10k         6,247 B   25.7 KB     27.9 KB (+9%)
//
// The fixed part is set so that no measured catalog is under its estimate
// (real tools, with a vocabulary of their own, cost the most per tool): the
// estimate guards against running out of memory, so it errs high. A typical
// tool (600 B) is estimated at 5.4 KB with the built-in model and 8.0 KB
// with a 768-dimension Ollama model. The process's RSS is more than the
// live heap (garbage between collections, the runtime, the binary): the
// sidecar turns a memory limit into a budget for this estimate with room
// for that (cmd/sidecar, docs/operations.md).
const (
	// toolFixedBytes is the part of a tool's estimate that does not depend
	// on its size: its slots in the snapshot, the keyword and trigram
	// indexes, the semantic view and the vector graph's links (2.5 KiB,
	// fitted above).
	toolFixedBytes = 2560
	// toolTextFactor is the estimate's bytes per byte of a tool's text and
	// schemas: the text is kept as given, tokenized into the keyword
	// indexes and the trigram index, and joined into the embedding text, so
	// each byte costs about four (fitted above).
	toolTextFactor = 4
	// vectorBytesPerDim is the memory of one vector component: a float32.
	// 768 dimensions (nomic-embed-text) cost 3 KiB a tool.
	vectorBytesPerDim = 4
	// unknownDimensions is the vector length assumed while an embedder is
	// connecting (Config.Connect) and its length is not known yet: 1,024,
	// the longest of the common local embedding models (mxbai-embed-large),
	// so the estimate errs high rather than low.
	unknownDimensions = 1024
	// TypicalToolSize is the ToolSize of a typical tool, in bytes, used to
	// say how many tools a budget holds before there is a catalog to
	// average: the tools of the public tool-retrieval benchmarks (BFCL,
	// StableToolBench, LiveMCPBench) average 482 bytes (525–835 bytes a
	// JSON line, by dataset); 600 leaves room for larger schemas.
	TypicalToolSize = 600
)

// ToolSize is the size of a tool's text and schemas in bytes: its name,
// server, category, title and description, and its input, output and
// annotation JSON as given. The memory estimate is proportional to it.
func ToolSize(t Tool) int {
	return len(t.Name) + len(t.Server) + len(t.Category) + len(t.Title) + len(t.Description) +
		len(t.InputSchema) + len(t.OutputSchema) + len(t.Annotations)
}

// EstimateBytes is the estimated live memory, in bytes, of a catalog of
// tools tools whose ToolSizes add up to size, with vectors of dims
// dimensions (0 without an embedder). See the formula above.
func EstimateBytes(tools int, size int64, dims int) int64 {
	return int64(tools)*(toolFixedBytes+vectorBytesPerDim*int64(dims)) + toolTextFactor*size
}

// MemoryInfo is the engine's memory estimate and budget at one moment: a
// plain value, safe to copy and share.
type MemoryInfo struct {
	// Budget is Config.MemoryBudget in bytes; 0 means none.
	Budget int64
	// Estimate is the estimated memory of the current catalog, in bytes.
	Estimate int64
	// Tools is the number of tools in the current catalog.
	Tools int
	// Dimensions is the vector length the estimate counts: the embedder's,
	// unknownDimensions while it connects, 0 without one.
	Dimensions int
	// Fit is how many tools the budget holds in all, at the current
	// catalog's average tool size (TypicalToolSize when it is empty); 0
	// when there is no budget.
	Fit int
}

// Memory returns the current memory estimate and budget. It does not wait
// for a change in progress; during one, the estimate may mix the catalogs
// before and after it.
func (e *Engine) Memory() MemoryInfo {
	n := e.state.Load().snap.Len()
	dims := int(e.dims.Load())
	info := MemoryInfo{Budget: e.cfg.MemoryBudget, Estimate: EstimateBytes(n, e.toolBytes.Load(), dims), Tools: n, Dimensions: dims}
	if info.Budget > 0 {
		avg := EstimateBytes(1, TypicalToolSize, dims)
		if n > 0 {
			avg = max(1, info.Estimate/int64(n))
		}
		info.Fit = int(info.Budget / avg)
	}
	return info
}

// savedFileFactor bounds a saved index file (keyword.bin, the vector
// index) by the estimate of the catalog it indexes: measured, a keyword
// file is 0.4–0.6 of the estimate without vectors (bfcl, livemcpbench) and
// a vector index about a tenth of the whole estimate, so twice the
// estimate is never a real file: a larger one is discarded unread.
const savedFileFactor = 2

// savedFileBound is the largest saved index file read at start-up for a
// catalog of n tools (of the current ToolSize total) with dims-dimension
// vectors: savedFileFactor times its estimate, and at most the memory
// budget (the file is read into memory whole).
func (e *Engine) savedFileBound(n, dims int) int64 {
	bound := savedFileFactor * EstimateBytes(n, e.toolBytes.Load(), dims)
	if b := e.cfg.MemoryBudget; b > 0 {
		bound = min(bound, b)
	}
	return max(bound, 1)
}

// snapshotSize is the sum of the ToolSizes of snap's tools.
func snapshotSize(snap *catalog.Snapshot) int64 {
	var size int64
	for _, t := range snap.All() {
		size += int64(ToolSize(t))
	}
	return size
}

// checkStartBudget returns an error wrapping ErrCatalogFull when the
// start-up catalog's estimate is over the budget.
func (e *Engine) checkStartBudget(n int) error {
	budget := e.cfg.MemoryBudget
	est := EstimateBytes(n, e.toolBytes.Load(), int(e.dims.Load()))
	if budget <= 0 || est <= budget {
		return nil
	}
	avg := est / int64(n)
	return &wrapped{kind: ErrCatalogFull, err: fmt.Errorf(
		"the catalog of %d tools needs an estimated %s of memory, over the budget of %s; about %d tools of its average size (%s) fit: raise the sidecar's --memory-limit (and the pod's memory limit), or load fewer tools (docs/operations.md, memory budget)",
		n, formatBytes(est), formatBytes(budget), budget/avg, formatBytes(avg))}
}

// changeSize returns the ToolSize total of snapshot next, made from cur by
// upserting upsert and deleting del: cur's total, less the deleted and
// replaced tools, plus the upserted ones as next holds them (normalized);
// and the total of the upserted tools alone.
func changeSize(cur, next *catalog.Snapshot, total int64, upsert []Tool, del []string) (size, added int64) {
	size = total
	for _, name := range del {
		if i, ok := cur.Lookup(name); ok {
			size -= int64(ToolSize(cur.Tool(i)))
		}
	}
	for _, t := range upsert {
		if i, ok := cur.Lookup(t.Name); ok {
			size -= int64(ToolSize(cur.Tool(i)))
		}
		if i, ok := next.Lookup(t.Name); ok {
			t = next.Tool(i)
		}
		s := int64(ToolSize(t))
		size += s
		added += s
	}
	return size, added
}

// checkChangeBudget returns an error wrapping ErrCatalogFull when a change
// taking the catalog from curN tools (of total size curSize) to nextN (of
// nextSize) would grow the estimate past the budget. A change that does not
// grow the estimate is always allowed, so a catalog over its budget (after
// the embedder turned out to have longer vectors than assumed) can shrink.
// Callers hold e.mu.
func (e *Engine) checkChangeBudget(curN int, curSize int64, nextN int, nextSize int64, upsert []Tool, addedSize int64) error {
	budget := e.cfg.MemoryBudget
	if budget <= 0 {
		return nil
	}
	dims := int(e.dims.Load())
	cur := EstimateBytes(curN, curSize, dims)
	next := EstimateBytes(nextN, nextSize, dims)
	if next <= budget || next <= cur {
		return nil
	}
	// len(upsert) > 0: a change of deletes alone does not grow.
	avg := max(1, EstimateBytes(len(upsert), addedSize, dims)/int64(len(upsert)))
	fit := max(0, budget-cur) / avg
	return &wrapped{kind: ErrCatalogFull, err: fmt.Errorf(
		"this change would take the catalog from %d to %d tools and its estimated memory to %s, over the budget of %s (now %s); about %d more tools of this batch's average size (%s) fit: upsert fewer tools, delete tools first, or raise the sidecar's --memory-limit (and the pod's memory limit; docs/operations.md, memory budget)",
		curN, nextN, formatBytes(next), formatBytes(budget), formatBytes(cur), fit, formatBytes(avg))}
}

// formatBytes renders n bytes in binary units: "512 B", "3.1 KiB",
// "224.0 MiB", "1.50 GiB".
func formatBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
}

// The memory a limit leaves the catalog (BudgetFor).
const (
	// BaseMemory is the memory of a sidecar apart from its catalog: the
	// binary, the runtime, the built-in model's word vectors and the
	// servers. Measured: 56 MB RSS with a one-tool catalog and the built-in
	// model (docs/benchmarks.md, memory); 64 MiB leaves a little over.
	BaseMemory = 64 << 20
	// budgetShare is the share of the memory above BaseMemory the catalog's
	// estimate may take: one half. The other half is the garbage collector's
	// room (Go's default GOGC=100 lets the heap grow to twice the live heap
	// between collections) and the transient memory of building indexes; a
	// 60,000-tool catalog measured 468 MB RSS for a 175 MB live heap without
	// a limit, and 398 MB under GOMEMLIMIT=400MiB.
	budgetShare = 2
)

// BudgetFor is the Config.MemoryBudget of a process whose memory is limited
// to limit bytes: (limit − BaseMemory) / 2, or 0 (meaning too little for any
// catalog) when limit is at most BaseMemory. For example 512 MiB leaves 224
// MiB, about 43,000 typical tools with the built-in model or 29,000 with a
// 768-dimension model.
func BudgetFor(limit int64) int64 {
	if limit <= BaseMemory {
		return 0
	}
	return (limit - BaseMemory) / budgetShare
}
