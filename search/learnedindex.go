package search

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

// The learned stage's vector scan (learned.go) compares the query with
// every learned query's vector (learnedVectors) on every search: with
// ~1,000 tools learned, ~4,000 dot products of 100 dimensions, which made
// a search three times slower than without learning
// (BenchmarkLearnedSearch). The scan only acts on the few vectors above
// a high cosine (learnedVectorJoin), and its results must not change by
// a bit; so
// learnedScreen screens every vector with a fast dot product (vek32.Dot,
// AVX2/FMA assembly: another summation order, so its last bits differ) and
// only the vectors the screen cannot rule out are scored again with the
// scan's own arithmetic (dot32). The screen rules a vector out only
// when its fast cosine is below the threshold by more than screenMargin,
// far more than the two sums can differ, so no vector that passes the
// threshold is ever ruled out. With enough of them (minAxesRows), a bound
// read through a few axes (axesBound) rules out all but a few dozen
// vectors before the fast dot product, with the same margin.

// screenMargin is how far below a threshold a screened cosine may be and
// still be scored exactly. Two float32 sums of 100 products of unit
// vectors' components differ by at most about 100 · 2⁻²⁴ · Σ|aᵢbᵢ| ≤ 6e-6
// (and dot's float64 sum is closer to the truth than either); 1e-4 is
// more than ten times that and still rules out all but a handful.
const screenMargin = 1e-4

// learnedScreen holds one scope's learned vectors laid out for screening;
// immutable, built with the learned index (learner.vectors).
type learnedScreen struct {
	dim int
	// vecs are the learned queries' vectors (learnedIndex.vecs), tool
	// after tool; rows[i]:rows[i+1] are tool i's.
	vecs []float32
	rows []int
	// reps has one row per tool: the tool's vector when it has one, and
	// when it has more, a ball that bounds them: their unit mean, and
	// ballCut the screened cosine with it below which a query is farther
	// than learnedVectorJoin from all of them: a query farther from the
	// mean than the largest angle between it and one of them plus the
	// threshold's angle is farther than the threshold from all of them
	// (the triangle inequality of angles on the sphere), so vectorsAbove
	// skips the tool after one dot product instead of one per vector.
	reps    []float32
	ballCut []float32
	// rowCut is, for each row of vecs of a tool with more than one, the
	// same cut for the ball of its own angle to the tool's mean: a query
	// inside no ball around the mean but the widest can still be too far
	// from the vectors nearer the mean (vectorsAbove skips those without
	// a dot product).
	rowCut []float32
	// vbound bounds the cosines of the learned vectors through a few axes
	// (axesBound): vectorsAbove reads the whole of a vector only where
	// the bound lets it through. nil when there are too few rows to pay.
	vbound *axesBound
	// The rows of vecs that hold the same vector (a request whose use was
	// credited to several tools: each learned it) are bounded and
	// screened once: vbound has a row per distinct vector, whose rows of
	// vecs are occ[occStart[u]:occStart[u+1]], ascending. occ is nil when
	// no two rows are the same (then distinct vector u is row u).
	occ, occStart []int32
	// scratch holds []float32 of one cosine or bound per row, for the
	// screen (cosines, bounds); passes []bool of one flag per row, for
	// below.
	scratch, passes sync.Pool
}

// axesBound bounds the dot products of a query with the rows of a matrix
// by reading a fraction of them: axes are d orthonormal directions (rows
// of dim, float64) along which the rows lie most (their principal axes,
// roughly). A query's dot product with a row is at most that of their
// coordinates on the axes plus the product of the lengths of their rests,
// what the axes miss (Cauchy–Schwarz on the rest). proj holds, axis after
// axis, the rows' coordinates and then, as a last axis, their rests'
// lengths (row i's on axis r at r·n + i: the bounds are then d + 1
// products of a number and a vector of n, which vek32 runs at full width,
// where a product per row of d = 24 numbers ran ten times as slow). The
// query's coordinates and rest are computed in float64, the rows' too
// before they are stored in float32; summed in float32 over d + 1 terms
// of at most 1, the bound is never below the exact dot product by more
// than about 1e-5, far less than screenMargin.
type axesBound struct {
	d, n int
	axes []float64
	proj []float32
}

// vectorAxes is how many axes the bound of the learned vectors reads,
// of the built-in model's 100 dimensions. On BenchmarkLearnedSearch's
// 1,191 learned tools the bound lets through, per query, of the 3,738
// learned vectors, 38 with 32 axes and 108 with 24 (2.2 are above
// learnedVectorJoin), where the balls (reps) let 382 through to a dot
// product each. A bound costs an axis's product more than its axes (a
// pass over n float32s); each vector it lets through, a dot product of
// the whole vector. Measured with the centroids' screen beside it (the
// centroid signal, dropped in the thirteenth session): 24 axes for both
// took 8 % less CPU than 32 for both in a profile of the screens alone
// (BenchmarkLearnedSearch/screen, 40,000 searches, twice: 0.51–0.54 s
// against 0.56 s); 16 vector axes 20 % more (0.66–0.70 s), 12 and 20
// 0.56–0.61 s.
const vectorAxes = 24

// maxAxes is the most axes a bound reads (vectorAxes): project's
// buffer.
const maxAxes = vectorAxes

// minAxesRows is the fewest rows for which the screen reads them through
// their axes: below it the query's projection costs more than the bytes
// it saves.
const minAxesRows = 256

// newAxesBound returns the bound of the rows of m (rows of dim) through d
// principal axes, or nil when m has fewer than minAxesRows rows or d is
// not well below dim.
func newAxesBound(m []float32, dim, d int) *axesBound {
	n := len(m) / dim
	if n < minAxesRows || dim <= 2*d || d > maxAxes {
		return nil
	}
	b := &axesBound{d: d, n: n, axes: principalAxes(m, dim, d), proj: make([]float32, n*(d+1))}
	var p [maxAxes + 1]float64
	for i := range n {
		b.project(m[i*dim:(i+1)*dim], &p)
		for r, x := range p[:d+1] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				// A vector that is not finite would make every bound
				// NaN, ruling out what the fast dot product keeps: the
				// screen goes without the axes.
				return nil
			}
			b.proj[r*n+i] = float32(x)
		}
	}
	return b
}

// project sets p[:d] to v's coordinates on the axes (in float64) and
// p[d] to the length of the rest of v. The products are vek's float64
// dot products (AVX2 where the CPU has it; a third of the time of the
// scalar loop they replace on BenchmarkLearnedSearch's screens), of the
// float64 copy of v: the same sums in another order, off by ≈ 1e-15.
func (b *axesBound) project(v []float32, p *[maxAxes + 1]float64) {
	var buf [projectDim]float64
	v64 := buf[:0]
	if len(v) > projectDim {
		v64 = make([]float64, 0, len(v))
	}
	for _, x := range v {
		v64 = append(v64, float64(x))
	}
	n2 := vek.Dot(v64, v64)
	dim := len(v)
	var p2 float64
	for r := range b.d {
		p[r] = vek.Dot(b.axes[r*dim:(r+1)*dim], v64)
		p2 += p[r] * p[r]
	}
	p[b.d] = math.Sqrt(max(0, n2-p2))
}

// projectDim is the longest vector project converts on the stack (the
// built-in model's are 100 long).
const projectDim = 1024

// bounds returns each row's bound of its dot product with q, in a buffer
// of s to release.
func (s *learnedScreen) bounds(b *axesBound, q []float32) *[]float32 {
	var p [maxAxes + 1]float64
	b.project(q, &p)
	var p32 [maxAxes + 1]float32
	for r, x := range p[:b.d+1] {
		p32[r] = float32(x)
	}
	buf, _ := s.scratch.Get().(*[]float32)
	if buf == nil || cap(*buf) < b.n {
		v := make([]float32, b.n)
		buf = &v
	}
	*buf = (*buf)[:b.n]
	// One row (the query's coordinates) times d + 1 rows of n: vek32
	// keeps a product of fewer than 4 rows on this goroutine.
	vek32.MatMul_Into(*buf, p32[:b.d+1], b.proj, b.d+1)
	return buf
}

// newLearnedScreen lays out an index's learned vectors. Vectors of
// another length than the first are left out of the layout (and the scan
// that uses it treats them as dot32 does: cosine 0).
func newLearnedScreen(vecs [][][]float32) *learnedScreen {
	s := &learnedScreen{dim: -1, rows: make([]int, len(vecs)+1)}
	for _, vs := range vecs {
		if len(vs) > 0 {
			s.dim = len(vs[0])
			break
		}
	}
	if s.dim <= 0 {
		return nil
	}
	for i, vs := range vecs {
		for _, v := range vs {
			if len(v) == s.dim {
				s.vecs = append(s.vecs, v...)
			} else {
				s.vecs = append(s.vecs, make([]float32, s.dim)...)
			}
		}
		s.rows[i+1] = s.rows[i] + len(vs)
	}
	s.vbound = s.distinctBound()
	s.reps = make([]float32, len(vecs)*s.dim)
	s.ballCut, s.rowCut = make([]float32, len(vecs)), make([]float32, s.rows[len(vecs)])
	for i := range vecs {
		if s.rows[i+1]-s.rows[i] == 1 {
			copy(s.reps[i*s.dim:], s.vecs[s.rows[i]*s.dim:])
		}
		if s.rows[i+1]-s.rows[i] < 2 {
			continue
		}
		m := make([]float64, s.dim)
		for r := s.rows[i]; r < s.rows[i+1]; r++ {
			for k, x := range s.vecs[r*s.dim : (r+1)*s.dim] {
				m[k] += float64(x)
			}
		}
		mv := s.reps[i*s.dim : (i+1)*s.dim]
		for k, x := range m {
			mv[k] = float32(x)
		}
		embed.Normalize(mv)
		c := 1.0
		for r := s.rows[i]; r < s.rows[i+1]; r++ {
			// Widened by screenMargin for the rounding of the stored
			// vectors.
			rc := max(-1, dot(mv, s.vecs[r*s.dim:(r+1)*s.dim])-screenMargin)
			s.rowCut[r] = ballCut(rc, float64(joinCut))
			c = min(c, rc)
		}
		s.ballCut[i] = ballCut(c, float64(joinCut))
	}
	return s
}

// distinctBound returns the bound through the axes of the distinct
// vectors of s.vecs (newAxesBound), setting s.occ and s.occStart when
// some rows hold the same vector.
func (s *learnedScreen) distinctBound() *axesBound {
	n := len(s.vecs) / s.dim
	first := map[string]int32{} // a vector's bits → its distinct index
	of := make([]int32, n)      // each row's distinct index
	var distinct []float32
	key := make([]byte, 4*s.dim)
	for r := range n {
		v := s.vecs[r*s.dim : (r+1)*s.dim]
		for k, x := range v {
			binary.LittleEndian.PutUint32(key[4*k:], math.Float32bits(x))
		}
		u, ok := first[string(key)]
		if !ok {
			u = int32(len(first))
			first[string(key)] = u
			distinct = append(distinct, v...)
		}
		of[r] = u
	}
	if len(first) == n {
		return newAxesBound(s.vecs, s.dim, vectorAxes)
	}
	b := newAxesBound(distinct, s.dim, vectorAxes)
	if b == nil {
		return nil
	}
	s.occStart = make([]int32, len(first)+1)
	for _, u := range of {
		s.occStart[u+1]++
	}
	for u := range len(first) {
		s.occStart[u+1] += s.occStart[u]
	}
	s.occ = make([]int32, n)
	next := slices.Clone(s.occStart[:len(first)])
	for r, u := range of { // rows in order: each vector's ascending
		s.occ[next[u]] = int32(r)
		next[u]++
	}
	return b
}

// joinCut is the screened cosine from which a learned vector may be
// within learnedVectorJoin of the query (vectorsAbove, rowsAbove).
var joinCut = float32(learnedVectorJoin - screenMargin)

// outside reports whether every learned vector of tool i (which has more
// than one) is farther than learnedVectorJoin from q, given the screened
// cosine c of q with the tool's mean.
func (s *learnedScreen) outside(i int, c float32) bool { return c < s.ballCut[i] }

// ballCut returns the screened cosine with the centre of a ball of
// vectors (cr, the cosine of its radius) below which a query is farther
// than cut's angle θc from every vector in it: the query's angle θq to
// the centre then exceeds θr + θc, so θq − θr, the least angle it can
// have with a vector in the ball, exceeds θc. That is cos(θr + θc), less
// screenMargin (a screened cosine may be below the exact one by that
// much) and a little for this function's own rounding, rounded down to
// float32; −2 (no cosine is below it) when θr + θc reaches π.
func ballCut(cr, cut float64) float32 {
	if cr <= -cut { // θr ≥ π − θc
		return -2
	}
	x := cr*cut - math.Sqrt(max(0, 1-cr*cr))*math.Sqrt(max(0, 1-cut*cut)) - screenMargin - 1e-9
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// cosines returns q's screened cosine with each row of m (rows of s.dim),
// in a buffer to hand back with release: matrix-vector products, 1.5
// times as fast as a dot product per row at 100 dimensions on one core.
func (s *learnedScreen) cosines(m, q []float32) *[]float32 {
	dim := len(q)
	n := len(m) / dim
	buf, _ := s.scratch.Get().(*[]float32)
	if buf == nil || cap(*buf) < n {
		b := make([]float32, n)
		buf = &b
	}
	*buf = (*buf)[:n]
	// vek32 splits a product of matVecSerial or more multiplications over
	// goroutines, one per core: a search does not fan a product out (its
	// learned stage runs at most one goroutine beside it, beginLearned).
	step := max(1, (matVecSerial-1)/dim)
	for i := 0; i < n; i += step {
		end := min(n, i+step)
		vek32.MatMul_Into((*buf)[i:end], m[i*dim:end*dim], q, dim)
	}
	return buf
}

// principalAxes returns d orthonormal rows of dim (float64) spanning
// roughly the d directions along which the rows of m (rows of dim) lie
// most: a few rounds of subspace iteration on their second-moment matrix
// (from at most maxAxesSample rows), orthonormalized by Gram–Schmidt,
// twice. Any orthonormal rows give a true bound (axes); how well they
// fit the rows only decides how much the bound rules out.
func principalAxes(m []float32, dim, d int) []float64 {
	n := len(m) / dim
	step := max(1, n/maxAxesSample)
	a := make([]float64, dim*dim)
	for i := 0; i < n; i += step {
		row := m[i*dim : (i+1)*dim]
		for j, x := range row {
			if x == 0 {
				continue
			}
			aj := a[j*dim : (j+1)*dim]
			for k, y := range row {
				aj[k] += float64(x) * float64(y)
			}
		}
	}
	q := make([]float64, d*dim)
	for r := range d {
		q[r*dim+r] = 1
	}
	next := make([]float64, d*dim)
	for range axesRounds {
		for r := range d {
			qr, nr := q[r*dim:(r+1)*dim], next[r*dim:(r+1)*dim]
			for j := range dim {
				s := 0.0
				for k, x := range a[j*dim : (j+1)*dim] {
					s += x * qr[k]
				}
				nr[j] = s
			}
		}
		q, next = next, q
		orthonormalize(q, dim)
	}
	return q
}

// maxAxesSample and axesRounds bound principalAxes's work (≈ 10 ms for
// ~1,000 rows of 100 dimensions, on each rebuild of the learned index):
// 512 rows' second moments, 4 rounds (more rounds did not rule out more
// on BenchmarkLearnedSearch's centroids, whose screen the thirteenth
// session dropped with the centroid signal).
const (
	maxAxesSample = 512
	axesRounds    = 4
)

// orthonormalize makes the rows of q (rows of dim) orthonormal, in
// order, by modified Gram–Schmidt applied twice; a row that has nothing
// left once the earlier ones are taken out is replaced by the first unit
// vector that does.
func orthonormalize(q []float64, dim int) {
	d := len(q) / dim
	for r := range d {
		qr := q[r*dim : (r+1)*dim]
		for e := 0; ; e++ {
			for range 2 {
				for p := range r {
					qp := q[p*dim : (p+1)*dim]
					x := 0.0
					for k := range qr {
						x += qr[k] * qp[k]
					}
					for k := range qr {
						qr[k] -= x * qp[k]
					}
				}
			}
			norm := 0.0
			for _, x := range qr {
				norm += x * x
			}
			if norm = math.Sqrt(norm); norm > 1e-6 || e >= dim {
				for k := range qr {
					qr[k] /= norm
				}
				break
			}
			clear(qr)
			qr[e] = 1
		}
	}
}

// matVecSerial is the size (rows × columns) from which vek32.MatMul_Into
// runs in parallel (vek v0.4.2, internal/functions/matrix.go).
const matVecSerial = 100_000

// release hands a buffer of cosines back.
func (s *learnedScreen) release(buf *[]float32) { s.scratch.Put(buf) }

// below returns whether each bound of bounds is below cut, in a buffer to
// hand back with s.passes.Put; the scan reads it with nextNotBelow. A
// bound lets through about one row in a hundred, so the scans spent most
// of their time on the comparisons one bound at a time (3,372 vectors'
// bounds a search, and 1,191 centroids' while the centroids had a screen,
// BenchmarkLearnedSearch); vek32's
// comparison runs 32 at a time (AVX2) and nextNotBelow skips 32 flags at
// a time (bytes.IndexByte). The same comparison as c < cut one bound at a
// time, NaN included (vek32's vector and scalar code alike: a NaN is not
// below, so a NaN bound is let through to the fast dot product, as
// before).
func (s *learnedScreen) below(bounds []float32, cut float32) *[]bool {
	buf, _ := s.passes.Get().(*[]bool)
	if buf == nil || cap(*buf) < len(bounds) {
		v := make([]bool, len(bounds))
		buf = &v
	}
	*buf = vek32.LtNumber_Into((*buf)[:len(bounds)], bounds, cut)
	return buf
}

// nextNotBelow returns the index of the first flag of below not set from
// i on, or −1.
func nextNotBelow(below []bool, i int) int {
	// A bool is one byte, 0 when false: the gc compiler's layout (the
	// spec leaves it open), which vek32 writes and TestBelowIsComparison
	// checks through this function.
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(below))), len(below))
	if k := bytes.IndexByte(b[i:], 0); k >= 0 {
		return i + k
	}
	return -1
}

// vectorsAbove calls f with each tool that has a learned vector whose
// screened cosine with q is at least learnedVectorJoin − screenMargin
// (joinCut), in tool order, and those of its vectors (by their index in
// learnedIndex.vecs[i]; f must not keep the slice); the other vectors'
// exact cosine is below learnedVectorJoin. q must be as long as the
// vectors.
func (s *learnedScreen) vectorsAbove(q []float32, f func(i int, ks []int)) {
	if s == nil || len(q) != s.dim || len(s.reps) == 0 {
		return
	}
	cut := joinCut
	var ks []int
	if b := s.vbound; b != nil {
		// Every vector's bound through the axes, then the fast dot
		// product where it reaches the cut: no vector whose exact cosine
		// reaches learnedVectorJoin is ruled out (axesBound). It rules
		// out more than the balls, at a quarter of the bytes a row.
		buf := s.bounds(b, q)
		defer s.release(buf)
		if s.occ != nil {
			s.distinctAbove(q, *buf, f)
			return
		}
		below := s.below(*buf, cut)
		defer s.passes.Put(below)
		g := rowsByTool{rows: s.rows, f: f}
		for r := nextNotBelow(*below, 0); r >= 0; r = nextNotBelow(*below, r+1) {
			if vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= cut {
				g.add(r)
			}
		}
		g.flush()
		return
	}
	buf := s.cosines(s.reps, q)
	defer s.release(buf)
	for i, c := range *buf {
		switch n := s.rows[i+1] - s.rows[i]; {
		case n == 0:
		case n == 1:
			if c >= cut {
				f(i, append(ks[:0], 0))
			}
		default:
			if c < s.ballCut[i] {
				continue
			}
			ks = ks[:0]
			for r := s.rows[i]; r < s.rows[i+1]; r++ {
				if c < s.rowCut[r] {
					continue
				}
				if vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= cut {
					ks = append(ks, r-s.rows[i])
				}
			}
			if len(ks) > 0 {
				f(i, ks)
			}
		}
	}
}

// distinctAbove is vectorsAbove through the bounds of the distinct
// vectors (s.occ): each distinct vector the bound lets through gets one
// fast dot product, and the rows that hold it are passed on, tool by
// tool, as vectorsAbove passes them.
func (s *learnedScreen) distinctAbove(q, bounds []float32, f func(i int, ks []int)) {
	var rowBuf [64]int32
	rows := rowBuf[:0]
	below := s.below(bounds, joinCut)
	for u := nextNotBelow(*below, 0); u >= 0; u = nextNotBelow(*below, u+1) {
		occ := s.occ[s.occStart[u]:s.occStart[u+1]]
		if r := int(occ[0]); vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= joinCut {
			rows = append(rows, occ...)
		}
	}
	s.passes.Put(below)
	slices.Sort(rows)
	g := rowsByTool{rows: s.rows, f: f}
	for _, r := range rows {
		g.add(int(r))
	}
	g.flush()
}

// rowsByTool passes rows given in increasing order on to f tool by tool,
// as vectorsAbove passes them: each tool with rows once, in tool order,
// with its rows as indexes among its own vectors. rows is the screen's
// row offsets (learnedScreen.rows). It belongs to one scan.
type rowsByTool struct {
	rows []int
	f    func(i int, ks []int)
	i    int   // the tool of the rows in ks
	ks   []int // its rows so far
}

// add takes row r, which follows every row added before it.
func (g *rowsByTool) add(r int) {
	if r >= g.rows[g.i+1] {
		g.flush()
		g.ks = g.ks[:0]
		for r >= g.rows[g.i+1] {
			g.i++
		}
	}
	g.ks = append(g.ks, r-g.rows[g.i])
}

// flush passes the current tool's rows on, if it has any.
func (g *rowsByTool) flush() {
	if len(g.ks) > 0 {
		g.f(g.i, g.ks)
	}
}

// lookupIDs returns the catalog IDs of names in snap, -1 for a name it
// does not hold.
func lookupIDs(snap *catalog.Snapshot, names []string) []int {
	ids := make([]int, len(names))
	for i, name := range names {
		if id, ok := snap.Lookup(name); ok {
			ids[i] = id
		} else {
			ids[i] = -1
		}
	}
	return ids
}

// id returns the catalog ID of learned tool i in st's snapshot, and
// whether it holds the tool: the ID resolved when the index was built if
// the tool there still has the name (names are unique in a snapshot, so
// it is what Lookup would return), else Lookup's answer; in the snapshot
// the IDs were resolved in, the resolved ID without a check. Both scans ask
// for every tool they lift, and a Lookup is a binary search over names.
func (ix *learnedIndex) id(st *state, i int) (int, bool) {
	if st.snap == ix.idSnap && i < len(ix.ids) {
		return ix.ids[i], ix.ids[i] >= 0
	}
	if i < len(ix.ids) {
		if id := ix.ids[i]; id >= 0 && id < st.snap.Len() && st.name(id) == ix.names[i] {
			return id, true
		}
	}
	return st.snap.Lookup(ix.names[i])
}

// rowsAbove calls f with each of tool i's learned vectors (by index in
// learnedIndex.vecs[i]) whose screened cosine with q is at least
// learnedVectorJoin − screenMargin, in order: the others' exact cosine is
// below learnedVectorJoin (the ball, then each vector's own bound, then
// the fast dot product, as in vectorsAbove). q must be as long as the
// vectors.
func (s *learnedScreen) rowsAbove(i int, q []float32, f func(k int)) {
	if s == nil || len(q) != s.dim || i+1 >= len(s.rows) {
		return
	}
	cut := joinCut
	n := s.rows[i+1] - s.rows[i]
	if n == 0 {
		return
	}
	if n > 1 {
		c := vek32.Dot(q, s.reps[i*s.dim:(i+1)*s.dim])
		if c < s.ballCut[i] {
			return
		}
		for r := s.rows[i]; r < s.rows[i+1]; r++ {
			if c >= s.rowCut[r] && vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= cut {
				f(r - s.rows[i])
			}
		}
		return
	}
	if vek32.Dot(q, s.vecs[s.rows[i]*s.dim:(s.rows[i]+1)*s.dim]) >= cut {
		f(0)
	}
}

// learnedTerms numbers the terms of one scope's learned queries, so that
// localEvidence counts the terms a learned query shares with a request on
// integers instead of strings (it does so for every learned query of
// every tool it weighs, on every search); immutable.
type learnedTerms struct {
	ids map[string]int32
	// rec holds every tool's learned queries, tool after tool and query
	// after query, so that weighing a tool reads one run of memory
	// (tool) instead of an offset, a weight and the terms in three
	// arrays (a search weighs ≈ 40 tools, scattered over the index): each
	// query as its number of terms n, its weight (learnedQuery.weight,
	// the low and high halves of its float64 bits) and the n IDs of its
	// terms, sorted (nextQuery). Tool i's are rec[start[i]:start[i+1]].
	rec   []int32
	start []int32
	// chunks memoizes the terms of request chunks in this numbering
	// (requestOf); the only state that changes, with sets.
	chunksMu sync.RWMutex
	chunks   map[string]chunkTerms
	// sets holds *termSet of one bit per term, all zero, for requestOf
	// (release hands them back).
	sets sync.Pool
	// verbs memoizes verbIDs by verb (a verb base of actionVerb: a few
	// hundred at most).
	verbsMu sync.RWMutex
	verbs   map[string][]int32
}

// verbIDs returns the IDs of the terms of verb (an action verb's base,
// actionVerb) and of its synonyms (fallback.VerbSynonyms) that some
// learned query has, each once, the verb's first: what agrees looks for
// in a tool's learned queries. Memoized (the caller must not modify the
// slice); safe for concurrent use.
func (t *learnedTerms) verbIDs(verb string) []int32 {
	t.verbsMu.RLock()
	ids, ok := t.verbs[verb]
	t.verbsMu.RUnlock()
	if ok {
		return ids
	}
	for _, v := range append([]string{verb}, fallback.VerbSynonyms(verb)...) {
		for _, term := range fallback.Terms(v) {
			if id, ok := t.ids[term]; ok && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	t.verbsMu.Lock()
	if t.verbs == nil {
		t.verbs = map[string][]int32{}
	}
	t.verbs[verb] = ids
	t.verbsMu.Unlock()
	return ids
}

// chunkTerms are the ranking terms of one request chunk in a learnedTerms'
// numbering: the IDs of those some learned query has, and the others.
type chunkTerms struct {
	known []int32
	other []string
}

// newLearnedTerms numbers the terms of queries (learnedIndex.queries).
func newLearnedTerms(queries [][]learnedQuery) *learnedTerms {
	t := &learnedTerms{ids: map[string]int32{}, start: make([]int32, len(queries)+1)}
	for i, qs := range queries {
		for _, q := range qs {
			bits := math.Float64bits(q.weight)
			t.rec = append(t.rec, int32(len(q.terms)), int32(uint32(bits)), int32(uint32(bits>>32)))
			from := len(t.rec)
			for _, term := range q.terms {
				id, ok := t.ids[term]
				if !ok {
					id = int32(len(t.ids))
					t.ids[term] = id
				}
				t.rec = append(t.rec, id)
			}
			slices.Sort(t.rec[from:])
		}
		t.start[i+1] = int32(len(t.rec))
	}
	return t
}

// tool returns tool i's learned queries in rec, to read with nextQuery.
func (t *learnedTerms) tool(i int) []int32 { return t.rec[t.start[i]:t.start[i+1]] }

// nextQuery returns the weight and term IDs of the first learned query
// of rec (a tool's, from tool or a previous nextQuery), and the queries
// after it.
func nextQuery(rec []int32) (weight float64, ids, rest []int32) {
	n := int(rec[0])
	weight = math.Float64frombits(uint64(uint32(rec[1])) | uint64(uint32(rec[2]))<<32)
	return weight, rec[3 : 3+n], rec[3+n:]
}

// requestOf returns the set of a request's terms that some learned query
// has (a term no learned query has is shared with none), for shared, and
// the number of its terms: of fallback.Terms(q.RankingText()), without
// collecting and sorting them: each chunk's terms (from c, which caches
// them across rebuilds of the learned index) are kept here already
// numbered, so a search sets the bits of its chunks' known terms (the
// distinct ones are the bits it sets) and counts the distinct others (few:
// the words no learned query has). The analysis is word-local, so the
// chunks' terms together are the text's (requestTerms); the cache only
// memoizes and is bounded as requestTerms is.
func (t *learnedTerms) requestOf(c *requestTerms, q query.Query) (set termSet, n int) {
	if p, _ := t.sets.Get().(*termSet); p != nil {
		set = *p
	} else {
		set = make(termSet, (len(t.ids)+63)/64)
	}
	var otherBuf [16]string
	other := otherBuf[:0]
	type chunk struct {
		text  string
		terms chunkTerms
	}
	var fresh []chunk // to cache
	t.chunksMu.RLock()
	for _, term := range q.Terms {
		if term.Excluded {
			continue
		}
		rest, long := term.Text, len(term.Text) > maxCachedTermChunkLen
		for rest != "" {
			text := rest
			rest = ""
			if long {
				// A chunk too long to cache (a quoted phrase) is
				// taken a word at a time: spaces separate tokens and
				// the analysis is word-local, so its words' terms
				// together are its terms, and its words are cached.
				text, rest, _ = strings.Cut(text, " ")
				if text == "" {
					continue
				}
			}
			ct, ok := t.chunks[text]
			if !ok {
				for _, s := range c.chunk(text) {
					if id, ok := t.ids[s]; ok {
						ct.known = append(ct.known, id)
					} else {
						ct.other = append(ct.other, s)
					}
				}
				if len(text) <= maxCachedTermChunkLen {
					fresh = append(fresh, chunk{text, ct})
				}
			}
			for _, id := range ct.known {
				if w, b := &set[id/64], uint64(1)<<(id%64); *w&b == 0 {
					*w |= b
					n++
				}
			}
			other = append(other, ct.other...)
		}
	}
	t.chunksMu.RUnlock()
	if len(fresh) > 0 {
		t.chunksMu.Lock()
		if t.chunks == nil {
			t.chunks = map[string]chunkTerms{}
		}
		for _, f := range fresh {
			if len(t.chunks) >= maxCachedTermChunks {
				clear(t.chunks)
			}
			t.chunks[f.text] = f.terms
		}
		t.chunksMu.Unlock()
	}
	if len(other) > 1 {
		slices.Sort(other)
		other = slices.Compact(other)
	}
	return set, n + len(other)
}

// release hands back a set requestOf returned, which its caller no
// longer reads: the learned stage's, when it ends (learnedStage.end).
// Safe for concurrent use.
func (t *learnedTerms) release(set termSet) {
	clear(set)
	t.sets.Put(&set)
}

// termSet is a set of term IDs of a learnedTerms, one bit each.
type termSet []uint64

// shared counts the IDs of a (distinct) that are in set: the number of
// terms a learned query shares with the request (the test checks it
// against counting shared terms on the strings).
func (set termSet) shared(a []int32) int {
	n := 0
	for _, id := range a {
		if set[id/64]&(1<<(id%64)) != 0 {
			n++
		}
	}
	return n
}

// requestTerms memoizes the ranking terms of query chunks for the learned
// stage (applyLearned): fallback.Terms of a request's ranking text, which
// it needs on every search to weigh its learned queries (localEvidence),
// re-analysed and stemmed the whole request each time (≈ 15–20 µs of a
// search with ~1,000 tools learned, BenchmarkLearnedSearch). The analysis
// is word-local (analysis package doc) and RankingText joins the chunks
// with spaces, so the terms of the text are those of its chunks together;
// requests repeat their words, so the chunks' terms are cached (bounded
// as fallback bounds its own query-word cache). Each learned index keeps
// them numbered (learnedTerms.requestOf) and asks this cache, which
// outlives its rebuilds, for the chunks it has not seen. Safe for
// concurrent use; the cache only memoizes, so results never depend on it.
type requestTerms struct {
	mu sync.RWMutex
	m  map[string][]string // chunk text → its sorted, distinct terms
}

// maxCachedTermChunks bounds requestTerms: at most this many chunks are
// kept; when it is full it is emptied and fills again with the chunks in
// use. An entry takes about 100 bytes, so the cache stays under about
// 1 MB. maxCachedTermChunkLen is the longest chunk (in bytes) cached;
// learnedTerms.requestOf takes a longer one (a quoted phrase: bfcl has
// 70, up to ≈ 470 bytes) a word at a time, so that its words are cached:
// requestOf over bfcl's odd half 4.6–4.9 → 1.2–1.3 µs a search.
const (
	maxCachedTermChunks   = 8192
	maxCachedTermChunkLen = 64
)

// chunk returns fallback.Terms(text) for one chunk of a request (shared:
// the caller must not modify it), cached.
func (c *requestTerms) chunk(text string) []string {
	c.mu.RLock()
	ts, ok := c.m[text]
	c.mu.RUnlock()
	if ok {
		return ts
	}
	ts = fallback.Terms(text)
	if len(text) <= maxCachedTermChunkLen {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string][]string{}
		}
		if len(c.m) >= maxCachedTermChunks {
			clear(c.m)
		}
		c.m[text] = ts
		c.mu.Unlock()
	}
	return ts
}

// hitPositions hands out, for the learned stage (applyLearned,
// learnedVectors), a table
// of each hit's position in its list by catalog ID: one slot per tool of
// the snapshot, pooled, and zero again once put back (put clears only the
// hits' slots). It stood in for a map built on every search. Safe for
// concurrent use.
type hitPositions struct{ pool sync.Pool }

// positions is a table from hitPositions: slot id holds the position of
// tool id's hit plus one, or 0.
type positions []int32

// get returns a table for a snapshot of n tools holding hits' positions.
func (hp *hitPositions) get(n int, hits []hit) positions {
	p, _ := hp.pool.Get().(*positions)
	if p == nil || len(*p) != n {
		t := make(positions, n)
		p = &t
	}
	for i, h := range hits {
		(*p)[h.id] = int32(i + 1)
	}
	return *p
}

// put hands pos back, hits being the hits it holds.
func (hp *hitPositions) put(pos positions, hits []hit) {
	for _, h := range hits {
		pos[h.id] = 0
	}
	hp.pool.Put(&pos)
}

// at returns the position of tool id's hit, and whether it has one.
func (pos positions) at(id int) (int, bool) {
	j := pos[id]
	return int(j) - 1, j > 0
}

// set records that tool id's hit is at position j.
func (pos positions) set(id, j int) { pos[id] = int32(j + 1) }
