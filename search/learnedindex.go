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
//
// A row the bound lets through is bounded again through e more axes
// (refined) before its whole vector is read: the principal axes of what
// the first d miss, after them in axes. refine holds, row after row, the
// row's rest through the first d axes, its e coordinates on the axes
// after them and its rest through all d + e: one run of e + 2 numbers
// for a row, where the row's vector is dim.
type axesBound struct {
	d, e, n int
	axes    []float64
	proj    []float32
	refine  []float32
}

// queryAxes is a query's projection on an axesBound's axes, in float32
// (bounds): its d coordinates and rest through them, then its e
// coordinates on the axes after them and its rest through all d + e.
type queryAxes [maxAxes + 2]float32

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

// refineAxes is how many axes after the first vectorAxes the bound of the
// learned vectors reads for a vector the first let through
// (axesBound.refined), before the fast dot product reads the whole
// vector. On BenchmarkLearnedSearch's learned vectors (3,372 distinct),
// of the ≈ 92 a query's first bound lets through, 51.6 pass a bound
// through 4 more axes, 31.5 through 8, 13.4 through 16, 8.0 through 24
// and 3.7 through 40 (1.9 reach the fast dot product's cut): a row's
// refined bound reads e + 2 numbers in one run, its dot product the 100
// of its vector, each a cold read on the search's path. The median time
// of learnedVectors on that engine (blocks of 32 searches alternated
// with the bound unrefined, load 14–20): 25.0 → 21.8 and 27.2 → 23.6 µs
// with 16 axes, 27.3 → 24.9 and 29.4 → 26.1 µs with 24.
const refineAxes = 16

// maxAxes is the most axes a bound reads (vectorAxes and refineAxes):
// project's buffer.
const maxAxes = vectorAxes + refineAxes

// minAxesRows is the fewest rows for which the screen reads them through
// their axes: below it the query's projection costs more than the bytes
// it saves.
const minAxesRows = 256

// newAxesBound returns the bound of the rows of m (rows of dim) through d
// principal axes, refined through e more (axesBound), or nil when m has
// fewer than minAxesRows rows or d + e is not well below dim.
func newAxesBound(m []float32, dim, d, e int) *axesBound {
	n := len(m) / dim
	if n < minAxesRows || dim <= 2*(d+e) || d+e > maxAxes {
		return nil
	}
	b := &axesBound{d: d, e: e, n: n, axes: refinedAxes(m, dim, d, e), proj: make([]float32, n*(d+1)), refine: make([]float32, n*(e+2))}
	var p [maxAxes + 2]float64
	for i := range n {
		b.project(m[i*dim:(i+1)*dim], &p)
		for _, x := range p[:d+e+2] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				// A vector that is not finite would make every bound
				// NaN, ruling out what the fast dot product keeps: the
				// screen goes without the axes.
				return nil
			}
		}
		for r, x := range p[:d+1] {
			b.proj[r*n+i] = float32(x)
		}
		for k, x := range p[d : d+e+2] {
			b.refine[i*(e+2)+k] = float32(x)
		}
	}
	return b
}

// refinedAxes returns d principal axes of the rows of m (rows of dim)
// and after them e principal axes of what the first d miss of the rows,
// orthonormal (d + e rows of dim, float64).
func refinedAxes(m []float32, dim, d, e int) []float64 {
	axes := principalAxes(m, dim, d)
	if e == 0 {
		return axes
	}
	// The rows principalAxes samples, less their projection on the
	// first axes.
	n := len(m) / dim
	step := max(1, n/maxAxesSample)
	var rest []float32
	for i := 0; i < n; i += step {
		row := m[i*dim : (i+1)*dim]
		r := make([]float64, dim)
		for k, x := range row {
			r[k] = float64(x)
		}
		for a := range d {
			ax := axes[a*dim : (a+1)*dim]
			c := 0.0
			for k, x := range row {
				c += float64(x) * ax[k]
			}
			for k := range r {
				r[k] -= c * ax[k]
			}
		}
		for _, x := range r {
			rest = append(rest, float32(x))
		}
	}
	axes = append(axes, principalAxes(rest, dim, e)...)
	orthonormalize(axes, dim)
	return axes
}

// project sets p[:d] to v's coordinates on the first d axes (in float64)
// and p[d] to the length of the rest of v through them, then
// p[d+1:d+1+e] to its coordinates on the e axes after them and
// p[d+1+e] to the length of its rest through all d + e. The products are
// vek's float64 dot products (AVX2 where the CPU has it; a third of the
// time of the scalar loop they replace on BenchmarkLearnedSearch's
// screens), of the float64 copy of v: the same sums in another order,
// off by ≈ 1e-15.
func (b *axesBound) project(v []float32, p *[maxAxes + 2]float64) {
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
	for r := range b.d + b.e {
		c := vek.Dot(b.axes[r*dim:(r+1)*dim], v64)
		p2 += c * c
		if r < b.d {
			p[r] = c
		} else {
			p[r+1] = c
		}
		if r == b.d-1 {
			p[b.d] = math.Sqrt(max(0, n2-p2))
		}
	}
	p[b.d+b.e+1] = math.Sqrt(max(0, n2-p2))
}

// refined returns row i's bound of its dot product with the query of
// projection pq through all d + e axes, given its bound through the first
// d, first (bounds): first less the product of the rests through the
// first d is the first d coordinates' sum, to which it adds the e
// coordinates' products and the product of the rests through all d + e
// (Cauchy–Schwarz, as for the first bound). In float32 over e + 3 terms
// of at most 1 beside first's, it stays within ≈ 1e-5 of the exact sums.
func (b *axesBound) refined(i int, first float32, pq *queryAxes) float32 {
	r := b.refine[i*(b.e+2) : (i+1)*(b.e+2)]
	s := first - pq[b.d]*r[0]
	for k := 1; k <= b.e; k++ {
		s += pq[b.d+k] * r[k]
	}
	return s + pq[b.d+b.e+1]*r[b.e+1]
}

// projectDim is the longest vector project converts on the stack (the
// built-in model's are 100 long).
const projectDim = 1024

// bounds returns each row's bound of its dot product with q through the
// first axes, in a buffer of s to release, and sets pq to q's projection
// (for refined).
func (s *learnedScreen) bounds(b *axesBound, q []float32, pq *queryAxes) *[]float32 {
	var p [maxAxes + 2]float64
	b.project(q, &p)
	for r, x := range p[:b.d+b.e+2] {
		pq[r] = float32(x)
	}
	p32 := pq[:b.d+1]
	buf, _ := s.scratch.Get().(*[]float32)
	if buf == nil || cap(*buf) < b.n {
		v := make([]float32, b.n)
		buf = &v
	}
	*buf = (*buf)[:b.n]
	// One row (the query's coordinates) times d + 1 rows of n: vek32
	// keeps a product of fewer than 4 rows on this goroutine.
	vek32.MatMul_Into(*buf, p32, b.proj, b.d+1)
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
		return newAxesBound(s.vecs, s.dim, vectorAxes, refineAxes)
	}
	b := newAxesBound(distinct, s.dim, vectorAxes, refineAxes)
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
		// Every vector's bound through the axes, then, where it reaches
		// the cut, its bound through more (refined), then the fast dot
		// product: no vector whose exact cosine reaches
		// learnedVectorJoin is ruled out (axesBound). It rules out more
		// than the balls, at a quarter of the bytes a row.
		var pq queryAxes
		buf := s.bounds(b, q, &pq)
		defer s.release(buf)
		if s.occ != nil {
			s.distinctAbove(q, *buf, &pq, f)
			return
		}
		below := s.below(*buf, cut)
		defer s.passes.Put(below)
		g := rowsByTool{rows: s.rows, f: f}
		for r := nextNotBelow(*below, 0); r >= 0; r = nextNotBelow(*below, r+1) {
			if b.refined(r, (*buf)[r], &pq) >= cut && vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= cut {
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
// vectors (s.occ; q's projection pq): each distinct vector the bounds let
// through gets one fast dot product, and the rows that hold it are passed
// on, tool by tool, as vectorsAbove passes them.
func (s *learnedScreen) distinctAbove(q, bounds []float32, pq *queryAxes, f func(i int, ks []int)) {
	var rowBuf [64]int32
	rows := rowBuf[:0]
	below := s.below(bounds, joinCut)
	for u := nextNotBelow(*below, 0); u >= 0; u = nextNotBelow(*below, u+1) {
		if s.vbound.refined(u, bounds[u], pq) < joinCut {
			continue
		}
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
	// fromIndex maps the term IDs of the scope's learned keyword index
	// (learnedIndex.kw, fallback.Index.TermID) to these, −1 for a term
	// no learned query has: requestOf reads a request's terms through
	// the index (fallback.Index.QueryTerms). missing: some learned
	// query's term is not in that index (none should be: the index's
	// words are the same queries', analysed the same way); requestOf then
	// looks the request's other terms up in ids.
	fromIndex []int32
	missing   bool
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

// newLearnedTerms numbers the terms of queries (learnedIndex.queries),
// and maps the terms of kw, the learned keyword index of the same
// queries, to them (fromIndex).
func newLearnedTerms(queries [][]learnedQuery, kw *fallback.Index) *learnedTerms {
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
	t.fromIndex = make([]int32, kw.TermCount())
	for k := range t.fromIndex {
		t.fromIndex[k] = -1
	}
	for term, id := range t.ids {
		if k, ok := kw.TermID(term); ok {
			t.fromIndex[k] = id
		} else {
			t.missing = true
		}
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
// collecting and sorting them. The terms come word by word from kw, the
// scope's learned keyword index (fallback.Index.QueryTerms), whose query
// word cache the learned keyword search (wordsOf) has just read for the
// same words: one lookup of each chunk where a cache of its own (before)
// took a second, cold one (the median requestOf of
// BenchmarkLearnedSearch's learned engine 7.7–9.7 → 2.4–3.2 µs). A search
// sets the bits of its words' terms the learned queries have (the distinct
// ones are the bits it sets) and counts the distinct others (few: the
// words no learned query has). The chunks are read a word at a time where
// they hold spaces (a quoted phrase: RankingQuery splits it, so the
// learned keyword search's words are those words, and a phrase longer than
// the cache's chunks would not be cached): the analysis is word-local and
// splits at every space, so the chunks' words' terms together are the
// text's.
func (t *learnedTerms) requestOf(kw *fallback.Index, q query.Query) (set termSet, n int) {
	if p, _ := t.sets.Get().(*termSet); p != nil {
		set = *p
	} else {
		set = make(termSet, (len(t.ids)+63)/64)
	}
	terms := q.Terms
	if slices.ContainsFunc(terms, func(term query.Term) bool { return term.Excluded || strings.Contains(term.Text, " ") }) {
		terms = make([]query.Term, 0, len(q.Terms))
		for _, term := range q.Terms {
			if term.Excluded {
				continue
			}
			for w := range strings.SplitSeq(term.Text, " ") {
				if w != "" {
					terms = append(terms, query.Term{Text: w})
				}
			}
		}
	}
	var otherBuf [16]string
	other := otherBuf[:0] // the terms kw does not have
	var unknownBuf [16]int32
	unknown := unknownBuf[:0] // kw's terms no learned query has
	kw.QueryTerms(terms, func(ids []int32, others []string) {
		for _, k := range ids {
			id := t.fromIndex[k]
			if id < 0 {
				unknown = append(unknown, k)
				continue
			}
			if w, b := &set[id/64], uint64(1)<<(id%64); *w&b == 0 {
				*w |= b
				n++
			}
		}
		for _, term := range others {
			if t.missing {
				if id, ok := t.ids[term]; ok {
					if w, b := &set[id/64], uint64(1)<<(id%64); *w&b == 0 {
						*w |= b
						n++
					}
					continue
				}
			}
			other = append(other, term)
		}
	})
	if len(unknown) > 1 {
		slices.Sort(unknown)
		unknown = slices.Compact(unknown)
	}
	if len(other) > 1 {
		slices.Sort(other)
		other = slices.Compact(other)
	}
	return set, n + len(unknown) + len(other)
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
