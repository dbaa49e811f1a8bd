package vectorindex

import (
	"math"
	"math/rand"
	"slices"
	"sync"
)

// Defaults of HNSWConfig, chosen by measurement (one core of an AMD EPYC,
// GOMAXPROCS=1, on a shared machine, so times are ±30%; 100-dim unit
// vectors; recall@10 against Flat; reproduce with TestHNSWRecall and the
// BenchmarkHNSW* benchmarks):
//
//   - "catalog-like" clustered vectors (1 centre per 100 vectors, noise as
//     large as the centre), M 16, EfConstruction 64: at 30k vectors, recall
//     0.9975 at EfSearch 32 and 1.0 at 64 and 128 (99 µs and 218 µs per
//     query; Flat 450 µs). At 100k: 1.0 at EfSearch 128, 485 µs per query,
//     Flat 1.6 ms; build 27 s (274 µs per vector; BenchmarkHNSWBuild100k).
//     At 10k: build 1.0 s; 0.977 at EfSearch 16, 0.9986 at 32, 1.0 at 64+.
//   - uniform random vectors (no cluster structure, the worst case), 10k:
//     0.86 at EfSearch 128, 0.964 at 256, 0.998 at 512; 100k: 0.46 at 128,
//     0.94 at 1024, 0.9915 at 2048 and 0.994 at 3072 (~9–13 ms per query,
//     Flat 1.9 ms).
//   - EfConstruction 64 builds 35% faster than 100 with the same recall
//     (±0.013) on both; 40 is 60% faster but loses 0.003–0.025.
//
// So DefaultEfSearch is 128, twice what clustered data needs, for margin on
// real embeddings, which are less tidy than synthetic clusters; above
// largeIndex vectors the default is DefaultEfSearchLarge, above hugeIndex
// DefaultEfSearchHuge.
const (
	// DefaultM is the default maximum number of links per node on layers
	// above 0 (layer 0 keeps 2·M, as in the HNSW paper).
	DefaultM = 16
	// DefaultEfConstruction is the default beam width while inserting.
	DefaultEfConstruction = 64
	// DefaultEfSearch is the default beam width while searching, up to
	// largeIndex live vectors; a Search for k results uses max(EfSearch, k).
	DefaultEfSearch = 128
	// DefaultEfSearchLarge is the default beam width above largeIndex live
	// vectors. Measured with toolsearch bench on synthetic catalogs
	// embedded by the built-in model (the engine's vectors, where hundreds
	// of tools share an action and object and the exact top 10 are
	// near-ties): recall@10 0.991 at 100k and 0.9898 at 300k with a beam of
	// 128, 0.9956 at 300k with 256.
	DefaultEfSearchLarge = 256
	// DefaultEfSearchHuge is the default beam width above hugeIndex live
	// vectors. Measured the same way at 1M tools (one graph, beams set on
	// the loaded index): recall@10 0.9852 at 256, 0.9926 at 384, 0.9948 at
	// 512, 0.9970 at 768; semantic-mode p50 6.4, 7.1, 7.7 and 9.1 ms.
	DefaultEfSearchHuge = 512
)

// largeIndex and hugeIndex are the sizes above which the default beam is
// DefaultEfSearchLarge and DefaultEfSearchHuge. Worked example: with
// EfSearch left at 0, a search of an index of 100,000 live vectors uses a
// beam of 128, one of 100,001 (or 300,000) a beam of 256, one of 1M a beam
// of 512: more time per query for recall ≥ 0.99. hugeIndex sits between
// the sizes measured (256 keeps 0.9956 at 300k and drops to 0.9852 at 1M).
const (
	largeIndex = 100_000
	hugeIndex  = 500_000
)

// maxLevel caps a node's random level. With M = 16 (level probability
// 1/16 per step) level 16 would need ~10^19 nodes, so the cap only guards
// against a pathological RNG draw.
const maxLevel = 16

// compactFraction: when more than this fraction of the graph's nodes are
// deleted (tombstoned), the graph is rebuilt from the live vectors.
// Tombstones still route searches but waste visits, and a mostly-dead graph
// loses recall. At 1/3 a rebuild happens after live/2 deletions, so its cost
// amortizes to about two inserts per deletion.
const compactFraction = 1.0 / 3

// HNSWConfig tunes an HNSW index. The zero value selects every default;
// zero or negative fields each select their default.
type HNSWConfig struct {
	// M is the maximum number of links a node keeps on each layer above 0;
	// layer 0 keeps 2·M. Larger M raises recall and memory (~8·M bytes per
	// node) and slows building. Default DefaultM.
	M int
	// EfConstruction is the beam width (candidate list size) used to find
	// a new node's neighbours. Larger builds a better graph, more slowly.
	// Default DefaultEfConstruction.
	EfConstruction int
	// EfSearch is the beam width of a query; Search(q, k) uses
	// max(EfSearch, k). Larger raises recall and latency. Zero or negative
	// (the default) chooses by size: DefaultEfSearch up to largeIndex live
	// vectors, DefaultEfSearchLarge up to hugeIndex, DefaultEfSearchHuge
	// above, and Config reports 0.
	EfSearch int
	// Seed seeds the random level generator, so the same vectors added in
	// the same batches always build the same graph and rank the same way.
	// Zero is a valid seed.
	Seed int64
	// Quantization selects how vectors are stored and scored: float32
	// (QuantizeNone, the zero value) or int8 codes with a per-vector scale
	// (QuantizeInt8: a quarter of the memory, approximate scores).
	Quantization Quantization
	// ExactLimit: while the index holds at most this many live vectors it
	// keeps no graph, and Search scores every vector exactly (recall 1);
	// the Add that takes it past the limit builds the graph from every
	// live vector in one go. Below ~15k vectors of 100 dimensions an exact
	// scan costs about what a graph search does (see the package doc), and
	// skipping the graph saves its build time and memory. 0 (the default)
	// or negative: always keep a graph.
	ExactLimit int
}

// withDefaults returns c with unset fields replaced by their defaults.
func (c HNSWConfig) withDefaults() HNSWConfig {
	if c.M <= 0 {
		c.M = DefaultM
	}
	if c.M < 2 {
		c.M = 2
	}
	if c.EfConstruction <= 0 {
		c.EfConstruction = DefaultEfConstruction
	}
	if c.EfConstruction < c.M {
		c.EfConstruction = c.M
	}
	c.EfSearch = max(c.EfSearch, 0)
	c.ExactLimit = max(c.ExactLimit, 0)
	return c
}

// HNSW is an approximate nearest-neighbour index: a Hierarchical Navigable
// Small World graph (Malkov & Yashunin, 2016, with the neighbour-selection
// heuristic of its Algorithm 4), scored by dot product.
//
// It is this package's own implementation, not a wrapper: the library the
// design first named, github.com/coder/hnsw v0.6.1, measured recall@10 of
// 0.015–0.03 on 10k random vectors (its heap's Max/PopLast return the wrong
// element and its search stops when the best candidate stops improving;
// coder/hnsw PRs #17, #18, #20), panicked when an existing key was
// re-added, and could dereference nil after deletions. The benchmark that
// measured it was removed with the dependency; docs/benchmarks.md keeps
// the numbers.
//
// Search and SearchFilter walk the graph; SearchFilter also chooses an
// exact scan where a filter keeps few vectors (see SearchFilter).
//
// Deletion marks nodes as tombstones: they keep routing searches but are
// never returned; when more than a third of the nodes are tombstones the
// graph is rebuilt (under the write lock) from the live vectors.
//
// Add links a batch's vectors into the graph in parallel (insertBatch),
// deterministically: the same batches give the same graph whatever the
// number of cores.
//
// The zero value is not usable; call NewHNSW. HNSW is safe for concurrent
// use: Searches run in parallel under a read lock, Add and Delete take the
// write lock (inserting costs ~0.1–0.3 ms per vector at 100 dimensions on
// one core).
type HNSW struct {
	mu  sync.RWMutex
	dim int
	cfg HNSWConfig
	ml  float64 // level multiplier 1/ln(M)
	rng *rand.Rand
	// draws counts the levels drawn from rng since it was seeded (one per
	// linked slot), so a loaded index (ReadHNSW) continues the sequence.
	draws uint64

	// Nodes are dense int32 slots; a re-added ID gets a new slot.
	ids      []int       // slot → ID
	vecs     []float32   // slot*dim …: the vector of slot (QuantizeNone)
	codes    []int8      // slot*dim …: the int8 codes of slot (QuantizeInt8)
	scales   []float32   // slot → the scale of its codes (QuantizeInt8)
	links    [][][]int32 // slot → layer → neighbour slots
	deleted  []bool      // slot → tombstone
	nDeleted int
	slot     map[int]int32 // live ID → slot
	entry    int32         // entry point slot, -1 when there is no graph
	top      int           // level of the entry point
	linked   int           // slots linked into the graph

	visits sync.Pool // *visitSet, one per concurrent search
	// scratch buffers for inserts, used only under the write lock.
	candBuf, selBuf, nbBuf []cand
}

// NewHNSW returns an empty HNSW index for vectors of dim dimensions, with
// cfg's zero fields set to their defaults. dim must be positive; an index
// with dim ≤ 0 rejects every vector with ErrDimension.
func NewHNSW(dim int, cfg HNSWConfig) *HNSW {
	cfg = cfg.withDefaults()
	ix := &HNSW{dim: dim, cfg: cfg, ml: 1 / math.Log(float64(cfg.M))}
	ix.reset()
	return ix
}

// reset empties the graph and reseeds the level generator.
func (ix *HNSW) reset() {
	ix.rng = rand.New(rand.NewSource(ix.cfg.Seed))
	ix.draws = 0
	ix.ids, ix.vecs, ix.codes, ix.scales, ix.links, ix.deleted = nil, nil, nil, nil, nil, nil
	ix.nDeleted = 0
	ix.slot = make(map[int]int32)
	ix.entry, ix.top, ix.linked = -1, 0, 0
}

// Config returns the configuration in effect, defaults filled in.
func (ix *HNSW) Config() HNSWConfig { return ix.cfg }

// Len returns the number of live (not deleted) vectors.
func (ix *HNSW) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.slot)
}

// Dim returns the vector length the index was created for.
func (ix *HNSW) Dim() int { return ix.dim }

// Add inserts vecs[i] under ids[i], copying the vectors; an ID that is
// already present is replaced. The whole batch is validated first: on a
// length mismatch (ErrDimension) or a NaN/Inf value (ErrInvalidVector) the
// index is left unchanged. The same vectors added in the same batches
// always build the same graph.
func (ix *HNSW) Add(ids []int, vecs [][]float32) error {
	if err := checkBatch(ids, vecs, ix.dim); err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	first := int32(len(ix.ids))
	for i, id := range ids {
		if old, ok := ix.slot[id]; ok {
			ix.tombstone(old)
		}
		ix.append(id, vecs[i])
	}
	ix.link(first)
	ix.maybeCompact()
	return nil
}

// Delete removes the given IDs; IDs that are not present are ignored.
func (ix *HNSW) Delete(ids ...int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, id := range ids {
		if s, ok := ix.slot[id]; ok {
			ix.tombstone(s)
		}
	}
	ix.maybeCompact()
}

// Search returns the (approximately) k stored vectors most similar to q:
// SearchFilter with no filter.
func (ix *HNSW) Search(q []float32, k int) ([]Result, error) {
	return ix.SearchFilter(q, k, nil)
}

func (ix *HNSW) vec(s int32) []float32 {
	return ix.vecs[int(s)*ix.dim : (int(s)+1)*ix.dim : (int(s)+1)*ix.dim]
}

// efSearch is the beam width of a search (see HNSWConfig.EfSearch).
func (ix *HNSW) efSearch() int {
	switch {
	case ix.cfg.EfSearch > 0:
		return ix.cfg.EfSearch
	case len(ix.slot) > hugeIndex:
		return DefaultEfSearchHuge
	case len(ix.slot) > largeIndex:
		return DefaultEfSearchLarge
	}
	return DefaultEfSearch
}

// maxLinks is the number of links a node keeps on layer l.
func (ix *HNSW) maxLinks(l int) int {
	if l == 0 {
		return 2 * ix.cfg.M
	}
	return ix.cfg.M
}

func (ix *HNSW) tombstone(s int32) {
	delete(ix.slot, ix.ids[s])
	ix.deleted[s] = true
	ix.nDeleted++
}

// append stores v under id in a new slot; link links it into the graph.
func (ix *HNSW) append(id int, v []float32) {
	s := int32(len(ix.ids))
	ix.ids = append(ix.ids, id)
	if ix.cfg.Quantization == QuantizeInt8 {
		n := len(ix.codes)
		ix.codes = slices.Grow(ix.codes, ix.dim)[:n+ix.dim]
		ix.scales = append(ix.scales, quantizeInt8(ix.codes[n:], v))
	} else {
		ix.vecs = append(ix.vecs, v...)
	}
	ix.deleted = append(ix.deleted, false)
	ix.links = append(ix.links, nil)
	ix.slot[id] = s
}

// appendCodes stores int8 codes and their scale (QuantizeInt8) under id in
// a new slot, copying them.
func (ix *HNSW) appendCodes(id int, c []int8, scale float32) {
	s := int32(len(ix.ids))
	ix.ids = append(ix.ids, id)
	ix.codes = append(ix.codes, c...)
	ix.scales = append(ix.scales, scale)
	ix.deleted = append(ix.deleted, false)
	ix.links = append(ix.links, nil)
	ix.slot[id] = s
}

// appendFrom stores slot s of src (an index of the same configuration)
// under id in a new slot, copying its stored form as it is (quantized
// codes are not quantized again).
func (ix *HNSW) appendFrom(src *HNSW, s int32, id int) {
	if ix.cfg.Quantization != QuantizeInt8 {
		ix.append(id, src.vec(s))
		return
	}
	ix.appendCodes(id, src.code(s), src.scales[s])
}
