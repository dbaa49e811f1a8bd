package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

// The screen never rules out a vector the scans would act on: on random
// unit vectors, many placed within a hair of the thresholds, the tools and
// exact cosines the screened scans find are those of a scan of every
// vector.
func TestLearnedScreenIsExact(t *testing.T) {
	const dim, tools = 100, 300
	rng := rand.New(rand.NewPCG(25, 1))
	unit := func() []float32 {
		v := make([]float32, dim)
		for k := range v {
			v[k] = float32(rng.NormFloat64())
		}
		embed.Normalize(v)
		return v
	}
	// near returns a unit vector whose cosine with q is about c.
	near := func(q []float32, c float64) []float32 {
		r := unit()
		d := dot(q, r)
		for k := range r {
			r[k] -= float32(d) * q[k]
		}
		embed.Normalize(r)
		v := make([]float32, dim)
		s := math.Sqrt(1 - c*c)
		for k := range v {
			v[k] = float32(c)*q[k] + float32(s)*r[k]
		}
		embed.Normalize(v)
		return v
	}
	queries := make([][]float32, 11) // prime to 5 and 7: every query gets every case
	for i := range queries {
		queries[i] = unit()
	}
	vecs := make([][][]float32, tools)
	for i := range tools {
		q := queries[i%len(queries)]
		// Around each threshold, within and beyond the screen's margin.
		off := []float64{-2e-4, -1e-5, -1e-7, 0, 1e-7, 1e-5, 2e-4}[i%7]
		for k := range i % 5 { // 0 to 4 learned vectors
			switch k {
			case 0:
				vecs[i] = append(vecs[i], near(q, learnedVectorJoin+off))
			case 1:
				vecs[i] = append(vecs[i], near(q, learnedVectorJoin-off))
			default:
				vecs[i] = append(vecs[i], unit())
			}
		}
	}
	// Tools whose learned vectors are close together (a ball the screen
	// can rule out at once) around a point near the threshold.
	for j := range 200 {
		q := queries[j%len(queries)]
		p := near(q, learnedVectorJoin+0.1*rng.Float64()-0.05)
		var vs [][]float32
		for range 2 + j%3 {
			vs = append(vs, near(p, 0.97+0.03*rng.Float64()))
		}
		vecs = append(vecs, vs)
	}
	// With all of them the screen bounds the vectors through their axes;
	// with the first 100 tools it has too few rows to.
	t.Run("axes", func(t *testing.T) { checkScreen(t, queries, vecs, true) })
	t.Run("balls", func(t *testing.T) { checkScreen(t, queries, vecs[:100], false) })
	// Tools that learned the same requests as others (a use credited to
	// several tools): their rows hold the same vectors, bounded once.
	shared := slices.Clone(vecs)
	for j := range 150 {
		var vs [][]float32
		for _, from := range []int{j, (3*j + 1) % len(vecs), (7*j + 2) % len(vecs)} {
			if len(vecs[from]) > 0 {
				vs = append(vs, vecs[from][j%len(vecs[from])])
			}
		}
		shared = append(shared, vs)
	}
	t.Run("shared", func(t *testing.T) {
		if s := newLearnedScreen(shared); s.occ == nil {
			t.Fatal("no rows share a vector")
		}
		checkScreen(t, queries, shared, true)
	})
}

// A matrix with a vector that is not finite gets no axes' bound (it would
// make every bound NaN): the screen reads every vector as before.
func TestAxesBoundNotFinite(t *testing.T) {
	const dim = 100
	rng := rand.New(rand.NewPCG(25, 7))
	m := make([]float32, 300*dim)
	for i := range m {
		m[i] = float32(rng.NormFloat64())
	}
	if newAxesBound(m, dim, vectorAxes, refineAxes) == nil {
		t.Fatal("no bound for finite rows")
	}
	m[5*dim+3] = float32(math.NaN())
	if newAxesBound(m, dim, vectorAxes, refineAxes) != nil {
		t.Error("a bound for rows with a NaN")
	}
	m[5*dim+3] = float32(math.Inf(1))
	if newAxesBound(m, dim, vectorAxes, refineAxes) != nil {
		t.Error("a bound for rows with an infinity")
	}
}

// checkAxesBound checks b, the bound of the rows of m (rows of dim):
// orthonormal axes, never below a row's exact dot product with a query by
// more than rounding, through the first axes or refined through all,
// and ruling out at least half of the rows at cut, the refined bound
// more than the first.
func checkAxesBound(t *testing.T, what string, b *axesBound, m []float32, dim int, queries [][]float32, cut float64) {
	t.Helper()
	if b.e == 0 {
		t.Fatalf("%s: no axes to refine the bound", what)
	}
	for r := range b.d + b.e {
		for p := range r + 1 {
			x := 0.0
			for k := range dim {
				x += b.axes[r*dim+k] * b.axes[p*dim+k]
			}
			if want := float64(min(1, max(0, 1-r+p))); math.Abs(x-want) > 1e-12 {
				t.Fatalf("%s: axes %d and %d: dot product %v", what, r, p, x)
			}
		}
	}
	refinedOut := 0
	for qi, q := range queries {
		var pq queryAxes
		s := &learnedScreen{}
		buf := s.bounds(b, q, &pq)
		ruledOut, n := 0, len(m)/dim
		for i := range n {
			bound := 0.0
			for r := range b.d + 1 {
				bound += float64(pq[r]) * float64(b.proj[r*n+i])
			}
			exact := dot(q, m[i*dim:(i+1)*dim])
			if bound < exact-1e-5 || (*buf)[i] < float32(exact-1e-5) {
				t.Fatalf("%s: query %d, row %d: bound %v (%v) below the cosine %v", what, qi, i, bound, (*buf)[i], exact)
			}
			refined := b.refined(i, (*buf)[i], &pq)
			if float64(refined) < exact-1e-5 {
				t.Fatalf("%s: query %d, row %d: refined bound %v below the cosine %v", what, qi, i, refined, exact)
			}
			if bound < cut {
				ruledOut++
			} else if float64(refined) < cut {
				refinedOut++
			}
		}
		if ruledOut < n/2 {
			t.Errorf("%s: query %d: the axes rule out %d of %d rows", what, qi, ruledOut, n)
		}
	}
	if refinedOut == 0 {
		t.Errorf("%s: the refined bound rules out no row the first lets through", what)
	}
}

// checkScreen checks that the screen of vecs finds what the exact scan
// finds, for every query, with (axes) or without the axes' bound.
func checkScreen(t *testing.T, queries [][]float32, vecs [][][]float32, axes bool) {
	const dim = 100
	rng := rand.New(rand.NewPCG(25, 2))
	s := newLearnedScreen(vecs)
	if (s.vbound != nil) != axes {
		t.Fatalf("bound through axes: %v; want %v", s.vbound != nil, axes)
	}
	if axes {
		distinct := s.vecs // the vectors vbound bounds: one row per distinct vector
		if s.occ != nil {
			distinct = nil
			for u := range len(s.occStart) - 1 {
				r := int(s.occ[s.occStart[u]])
				distinct = append(distinct, s.vecs[r*dim:(r+1)*dim]...)
			}
		}
		checkAxesBound(t, "vectors", s.vbound, distinct, dim, queries, float64(joinCut))
	}
	for qi, q := range queries {
		var wantV, gotV []float64
		for i, vs := range vecs {
			best := -1.0
			for _, v := range vs {
				best = max(best, float64(dot32(q, v)))
			}
			if best >= learnedVectorJoin {
				wantV = append(wantV, float64(i), best)
			}
		}
		s.vectorsAbove(q, func(i int, ks []int) {
			best := -1.0
			for _, k := range ks {
				best = max(best, float64(dot32(q, vecs[i][k])))
			}
			if best >= learnedVectorJoin {
				gotV = append(gotV, float64(i), best)
			}
		})
		ruledOut := 0
		for i := range vecs {
			if len(vecs[i]) > 1 && s.outside(i, float32(dot(q, s.reps[i*dim:(i+1)*dim]))) {
				ruledOut++
			}
		}
		if ruledOut == 0 {
			t.Fatalf("query %d: no ball ruled out; the test does not test them", qi)
		}
		// rowsAbove, tool by tool, finds what vectorsAbove finds.
		var gotR []float64
		for i := range vecs {
			best := -1.0
			s.rowsAbove(i, q, func(k int) {
				best = max(best, float64(dot32(q, vecs[i][k])))
			})
			if best >= learnedVectorJoin {
				gotR = append(gotR, float64(i), best)
			}
		}
		if diff := cmp.Diff(wantV, gotR); diff != "" {
			t.Errorf("query %d: rowsAbove (-scan +screen):\n%s", qi, diff)
		}
		// The vectors vectorsAbove let through for q (screenedRows) hold
		// every vector within learnedVectorJoin of q, and of a unit
		// vector that differs from q in its last bits (localEvidence's
		// pv, made from the same query vector another way).
		sr := &screenedRows{}
		s.vectorsAbove(q, func(i int, ks []int) { sr.add(i, ks) })
		pv := slices.Clone(q)
		for k := range pv {
			pv[k] *= 1 + float32(rng.NormFloat64())*1e-6
		}
		embed.Normalize(pv)
		for _, v := range [][]float32{q, pv} {
			var want, got [][2]int
			for i, vs := range vecs {
				for k, x := range vs {
					if dot32(v, x) >= learnedVectorJoin {
						want = append(want, [2]int{i, k})
					}
				}
				for _, k := range sr.of(i) {
					if dot32(v, vs[k]) >= learnedVectorJoin {
						got = append(got, [2]int{i, int(k)})
					}
				}
			}
			if len(want) == 0 {
				t.Fatalf("query %d: no learned vector within learnedVectorJoin; the test tests nothing", qi)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("query %d: learned vectors within learnedVectorJoin (-scan +screenedRows):\n%s", qi, diff)
			}
		}
		if len(wantV) == 0 {
			t.Fatalf("query %d: nothing above the threshold; the test tests nothing", qi)
		}
		if diff := cmp.Diff(wantV, gotV); diff != "" {
			t.Errorf("query %d: learned vectors above learnedVectorJoin (-scan +screen):\n%s", qi, diff)
		}
	}
}

// ballCut rules out no query that the triangle inequality of angles
// keeps: whenever a screened cosine c with a ball's centre is below it,
// c raised by screenMargin is still farther from the centre than the
// ball's radius plus the threshold's angle (cos(θq − θr) < cut, computed
// as the screen computed it before the cut was precomputed); and it
// rules out most of what that keeps out.
func TestBallCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 6))
	cut := float64(joinCut)
	agree, total := 0, 0
	for range 200_000 {
		cr := 2*rng.Float64() - 1
		c := float32(2*rng.Float64() - 1)
		x := min(1, float64(c)+screenMargin)
		sx, sr := math.Sqrt(max(0, 1-x*x)), math.Sqrt(max(0, 1-cr*cr))
		beyond := x < cr && x*cr+sx*sr < cut
		out := c < ballCut(cr, cut)
		if out && !beyond {
			t.Fatalf("cr %v, c %v: ruled out, but cos(θq − θr) = %v ≥ %v", cr, c, x*cr+sx*sr, cut)
		}
		if beyond {
			total++
			if out {
				agree++
			}
		}
	}
	if float64(agree) < 0.999*float64(total) {
		t.Errorf("ballCut rules out %d of the %d the inequality does", agree, total)
	}
}

// resortHits gives sortHits's order: on random hits (many tied scores, so
// names decide), with random ones changed or appended, and with the
// others out of order too.
func TestResortHitsIsSortHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	name := func(id int) string { return fmt.Sprintf("tool_%03d", (id*37)%1000) }
	for run := range 500 {
		n := rng.IntN(60)
		hs := make([]hit, n)
		for i := range hs {
			hs[i] = hit{id: i, score: float64(rng.IntN(8)) / 8}
		}
		if run%10 != 0 { // else: the others are out of order
			sortHits(hs, name)
		}
		var moved []int
		for i := range hs {
			if rng.IntN(5) == 0 {
				hs[i].score += rng.Float64() / 4
				moved = append(moved, i)
			}
		}
		for range rng.IntN(4) {
			moved = append(moved, len(hs))
			hs = append(hs, hit{id: len(hs), score: rng.Float64()})
		}
		rng.Shuffle(len(moved), func(i, j int) { moved[i], moved[j] = moved[j], moved[i] })
		want := slices.Clone(hs)
		sortHits(want, name)
		resortHits(hs, moved, name)
		if diff := cmp.Diff(want, hs, cmp.AllowUnexported(hit{})); diff != "" {
			t.Fatalf("run %d: resortHits (-sortHits +resortHits):\n%s", run, diff)
		}
	}
}

// cosines scores every row, across the chunks it splits a large matrix
// into, as a dot product does (within rounding).
func TestLearnedScreenCosines(t *testing.T) {
	const dim, rows = 100, 2500 // three chunks
	rng := rand.New(rand.NewPCG(25, 3))
	m := make([]float32, rows*dim)
	for i := range m {
		m[i] = float32(rng.NormFloat64()) / 10
	}
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(rng.NormFloat64()) / 10
	}
	s := &learnedScreen{dim: dim}
	buf := s.cosines(m, q)
	defer s.release(buf)
	if len(*buf) != rows {
		t.Fatalf("%d cosines for %d rows", len(*buf), rows)
	}
	for r, c := range *buf {
		if want := dot(q, m[r*dim:(r+1)*dim]); math.Abs(float64(c)-want) > 1e-5 {
			t.Fatalf("row %d: cosine %v, dot %v", r, c, want)
		}
	}
}

// Counting shared terms on learnedTerms' IDs gives sharedTerms's count on
// the strings, for random learned queries and requests (with terms no
// learned query has).
func TestLearnedTermsShared(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	words := func(n, vocab int) []string { return randomTerms(rng, n, vocab) }
	queries := make([][]learnedQuery, 40)
	for i := range queries {
		for range 1 + rng.IntN(8) {
			queries[i] = append(queries[i], learnedQuery{terms: words(rng.IntN(12), 60), weight: 1})
		}
	}
	lt := newLearnedTerms(queries, nil)
	for range 200 {
		req := words(rng.IntN(15), 90) // w60…w89: unknown to every learned query
		ids := requestSet(lt, req)
		for i, qs := range queries {
			rec := lt.tool(i) // tool i's queries, read in order as localEvidence does
			for _, q := range qs {
				_, qids, rest := nextQuery(rec)
				rec = rest
				if got, want := ids.shared(qids), sharedTerms(q.terms, req); got != want {
					t.Fatalf("request %v, query %v: %d shared by ID, %d by term", req, q.terms, got, want)
				}
			}
		}
	}
}

// localEvidence (on term IDs, stopping once the sum reaches the tool's
// evidence) gives, bit for bit, the sum over the tool's learned queries
// of weight × resemblance on the strings, at most the evidence, and with
// count the same sum and the number of queries that resemble the request
// fully (learnJoinSpread's count): random queries and requests, evidence
// above and below the sum.
func TestLocalEvidenceIsSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	words := func(n, vocab int) []string { return randomTerms(rng, n, vocab) }
	ix := &learnedIndex{queries: make([][]learnedQuery, 60), nonNegative: true}
	for i := range ix.queries {
		sum := 0.0
		for range 1 + rng.IntN(10) {
			q := learnedQuery{terms: words(rng.IntN(12), 40), weight: rng.Float64()}
			ix.queries[i] = append(ix.queries[i], q)
			sum += q.weight
		}
		ix.evidence = append(ix.evidence, sum*[]float64{0.1, 0.5, 0.9, 1, 2}[i%5])
	}
	ix.terms = newLearnedTerms(ix.queries, nil)
	var stopped int
	for range 300 {
		req := words(rng.IntN(15), 60)
		set := requestSet(ix.terms, req)
		for i, qs := range ix.queries {
			want, wantFull := 0.0, 0
			for _, q := range qs {
				r := 0.0
				if n := min(len(q.terms), len(req)); n > 0 {
					r = min(1, float64(sharedTerms(q.terms, req))/(learnResemblance*float64(n)))
					if float64(sharedTerms(q.terms, req)) >= learnResemblance*float64(n) {
						wantFull++
					}
				}
				want += q.weight * r
			}
			if want > ix.evidence[i] {
				stopped++
			}
			want = min(want, ix.evidence[i])
			if got, _ := ix.localEvidence(i, len(req), set, nil, nil, false); got != want {
				t.Fatalf("request %v, tool %d: localEvidence %v, want %v", req, i, got, want)
			}
			if got, full := ix.localEvidence(i, len(req), set, nil, nil, true); got != want || full != wantFull {
				t.Fatalf("request %v, tool %d: localEvidence with count %v and %d resembling fully, want %v and %d", req, i, got, full, want, wantFull)
			}
		}
	}
	if stopped == 0 {
		t.Error("no sum reached the evidence: the early stop went untested")
	}
}

// requestSet is the set of terms (sorted, distinct) that some learned
// query of t has, in t's numbering: the reference for requestOf.
func requestSet(t *learnedTerms, terms []string) termSet {
	set := make(termSet, (len(t.ids)+63)/64)
	for _, term := range terms {
		if id, ok := t.ids[term]; ok {
			set[id/64] |= 1 << (id % 64)
		}
	}
	return set
}

// learnedTerms.requestOf gives the set and number of fallback.Terms of the
// request's ranking text, word by word through the learned keyword index
// (as learner.build makes it, from the same queries' texts): on odd texts
// (camelCase, snake_case, CJK runs touching Latin letters, stop words,
// excluded and required terms, phrases, long ones too, invalid UTF-8) and
// on every query of the bfcl dev set, twice (the second time from the
// index's query-word cache), and the same through an index that lacks
// the learned queries' terms (learnedTerms.missing); the
// learned queries are the terms of every other text, so requests have
// terms they lack.
func TestRequestTermsAreTerms(t *testing.T) {
	check := func(t *testing.T, texts []string) {
		var learned []learnedQuery
		var learnedTexts []string
		for i, text := range texts {
			if i%2 == 0 {
				learned = append(learned, learnedQuery{terms: fallback.Terms(text), weight: 1})
				learnedTexts = append(learnedTexts, text)
			}
		}
		kw := fallback.NewIndex([]fallback.Document{{Description: strings.Join(learnedTexts, ". ")}})
		other := fallback.NewIndex([]fallback.Document{{Description: "the weather forecast"}})
		for _, c := range []struct {
			name    string
			kw      *fallback.Index
			missing bool
		}{{"learned index", kw, false}, {"another index", other, true}} {
			lt := newLearnedTerms([][]learnedQuery{learned}, c.kw)
			if lt.missing != c.missing {
				t.Fatalf("%s: missing %v, want %v", c.name, lt.missing, c.missing)
			}
			for pass := range 2 {
				for _, text := range texts {
					q, err := query.Parse(text)
					if err != nil {
						continue
					}
					want := fallback.Terms(q.RankingText())
					set, n := lt.requestOf(c.kw, q)
					if n != len(want) || !slices.Equal(set, requestSet(lt, want)) {
						t.Errorf("%s, pass %d, %q: %d terms, set %v; want %d (%q), set %v", c.name, pass, text, n, set, len(want), want, requestSet(lt, want))
					}
					lt.release(set)
				}
			}
		}
	}
	t.Run("odd texts", func(t *testing.T) {
		check(t, []string{
			"", "the a of", "getCurrentWeather for San_Francisco", `"new york" weather -rain +forecast`,
			"用Go写 天气预报 搜索关键词", "server__tool.name AbstractJarAgent.runJarAgent", "bad \xe2\x82 utf8\xff here",
			"searches searching searched search", "email:send to bob@example.com", "café naïve résumé",
			"server:github open issues", "weath* forecast", "HTTPServer JSONParser",
			"weather weather forecasts forecast", "open issues on github and close issues",
			`find "  the weather forecast for San Francisco,	California  and Los Angeles for the next weeks " now`,
			`"getTheCurrentWeatherForecastForTheCityOfSanFranciscoInCaliforniaToday please" and "open issues"`,
			`-"weather forecast" "-rain" "+snow tomorrow" "server:github issues"`,
		})
	})
	t.Run("bfcl", func(t *testing.T) { check(t, bfclQueryTexts(t)) })
}

// TestBoostWeight: the stronger lift needs more resembling evidence than
// two sessions can give (at most 1 each, learn.Store.Record), so sybils
// that can already make a tool join never reach it, and the weight never
// falls as evidence grows.
func TestBoostWeight(t *testing.T) {
	if learnStrongEvidence <= 2 {
		t.Fatalf("learnStrongEvidence %v: two sessions would reach the strong weight", learnStrongEvidence)
	}
	if got := boostWeight(2); got != learnWeight {
		t.Errorf("boostWeight(2) = %v, want learnWeight %v", got, learnWeight)
	}
	if got := boostWeight(learnStrongEvidence); got != learnStrongWeight {
		t.Errorf("boostWeight(%v) = %v, want learnStrongWeight %v", learnStrongEvidence, got, learnStrongWeight)
	}
	prev := 0.0
	for w := 0.0; w <= 10; w += 0.25 {
		if got := boostWeight(w); got < prev || got >= 1 {
			t.Errorf("boostWeight(%v) = %v after %v: want non-decreasing, below 1", w, got, prev)
		} else {
			prev = got
		}
	}
}

// sharedTerms counts the terms two sorted, deduplicated lists share: the
// plain reference termSet.shared is checked against.
func sharedTerms(a, b []string) int {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] == b[0]:
			n++
			a, b = a[1:], b[1:]
		case a[0] < b[0]:
			a = a[1:]
		default:
			b = b[1:]
		}
	}
	return n
}

// randomTerms returns up to n distinct sorted terms "w0"…"w<vocab-1>"
// drawn by rng, as fallback.Terms gives a learned query's.
func randomTerms(rng *rand.Rand, n, vocab int) []string {
	var ws []string
	for range n {
		ws = append(ws, fmt.Sprintf("w%d", rng.IntN(vocab)))
	}
	slices.Sort(ws)
	return slices.Compact(ws)
}

// below and nextNotBelow find the bounds !(c < cut) finds, one at a
// time: every length around vek32's blocks of 32, with NaNs, infinities
// and bounds equal to the cut.
func TestBelowIsComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	s := &learnedScreen{}
	const cut = float32(0.7)
	special := []float32{cut, math.Nextafter32(cut, 0), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for n := range 200 {
		bounds := make([]float32, n)
		for i := range bounds {
			if rng.IntN(4) == 0 {
				bounds[i] = special[rng.IntN(len(special))]
			} else {
				bounds[i] = rng.Float32()
			}
		}
		var want, got []int
		for i, c := range bounds {
			if !(c < cut) {
				want = append(want, i)
			}
		}
		below := s.below(bounds, cut)
		for i := nextNotBelow(*below, 0); i >= 0; i = nextNotBelow(*below, i+1) {
			got = append(got, i)
		}
		s.passes.Put(below)
		if !slices.Equal(got, want) {
			t.Fatalf("%d bounds: got %v, want %v", n, got, want)
		}
	}
}

// requestVerb reads the words of a request's ranking text a field at a
// time up to its first action verb (firstActionVerb), and a verb's term
// IDs from the learned index's memo (learnedTerms.verbIDs): both as
// agrees read them before, from every word of the whole text and the
// verb's and its synonyms' terms, on odd texts and every bfcl query.
func TestRequestVerbIsWords(t *testing.T) {
	wantVerb := func(text string) string {
		for _, w := range fallback.Words(text) {
			if fallback.PreambleWord(w) {
				continue
			}
			if base, action := actionVerb(w); action {
				return base
			}
		}
		return ""
	}
	check := func(t *testing.T, texts []string) {
		var learned []learnedQuery
		for i, text := range texts {
			if i%2 == 0 {
				learned = append(learned, learnedQuery{terms: fallback.Terms(text), weight: 1})
			}
		}
		lt := newLearnedTerms([][]learnedQuery{learned}, nil)
		verbs := 0
		for pass := range 2 { // the memo's first reading, then its own
			for _, text := range texts {
				q, err := query.Parse(text)
				if err != nil {
					continue
				}
				rt := q.RankingText()
				verb := firstActionVerb(rt)
				if want := wantVerb(rt); verb != want {
					t.Fatalf("%q: verb %q, want %q", rt, verb, want)
				}
				if verb == "" {
					continue
				}
				verbs++
				var want []int32
				for _, v := range append([]string{verb}, fallback.VerbSynonyms(verb)...) {
					for _, term := range fallback.Terms(v) {
						if id, ok := lt.ids[term]; ok && !slices.Contains(want, id) {
							want = append(want, id)
						}
					}
				}
				if got := lt.verbIDs(verb); !slices.Equal(got, want) {
					t.Errorf("pass %d, %q: verb %q IDs %v, want %v", pass, rt, verb, got, want)
				}
			}
		}
		if verbs == 0 {
			t.Error("no text has an action verb: nothing checked")
		}
	}
	t.Run("odd texts", func(t *testing.T) {
		check(t, []string{
			"", "the a of", "please  deleteEmail\tfrom\nbob", "can you sendMessage to the team",
			"I want to re-send the invite", "unassign the ticket", "用Go写 天气预报 archive it",
			"bad \xe2\x82 utf8\xff delete here", "help me", "weather in Paris", "Stopped? planning, creating.",
			`"new york" weather -rain +forecast send`, "server:github close issues",
		})
	})
	t.Run("bfcl", func(t *testing.T) { check(t, bfclQueryTexts(t)) })
}

// bfclQueryTexts returns the text of every bfcl dev query.
func bfclQueryTexts(t *testing.T) []string {
	t.Helper()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, "bfcl/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Query
	}
	return texts
}

// TestLiftByMarginDoesNotVouch: a lift raised to learnStrongWeight as the
// request's best learned match by a margin (Learned.ByMargin, marginLift)
// does not vouch for its tool to the no-match rules (learnedServes),
// however strong its evidence's own lift; the same lift without the
// margin does.
func TestLiftByMarginDoesNotVouch(t *testing.T) {
	st, p := &state{}, &plan{} // no learned stage: the learned queries agree with any request
	l := Learned{Signal: SignalLearnedQueries, Similarity: 1, Evidence: 2}
	if liftStrength(&l) < learnedServesStrength {
		t.Fatalf("liftStrength %v under learnedServesStrength: the test tests nothing", liftStrength(&l))
	}
	if !st.learnedServes(p, hit{learned: &l}) {
		t.Fatal("a strong lift does not vouch: the test tests nothing")
	}
	l.ByMargin = true
	if st.learnedServes(p, hit{learned: &l}) {
		t.Error("a lift by the margin vouches for its tool; want it not to")
	}
}

// TestMarginLiftReorders: marginLift raises the best learned match by a
// margin to its lift at learnStrongWeight and re-sorts, marking the lift;
// a first hit it leaves as it is (its confidence is not raised), and so
// it does a hit below one whose learned claim is above the bar, however
// far below the best's a claim ranked under it is.
func TestMarginLiftReorders(t *testing.T) {
	name := func(id int) string { return string(rune('a' + id)) }
	// Each hit's score is its score before learning (0.3, 0.2, 0.1) plus
	// its learned boost: marginLift adds what it raises to the boost.
	first, second := &Learned{Boost: 0.2}, &Learned{Boost: 0.2}
	hits := []hit{{id: 0, score: 0.5, learned: first}, {id: 1, score: 0.4, learned: second}, {id: 2, score: 0.1}}
	// Tool 2, below, claims nearly as much as tool 1: it is not passed.
	claims := []learnedClaim{{id: 1, sim: 0.5}, {id: 2, sim: 0.49}}
	marginLift(hits, 0, 0.3, 0.5, 0.4, claims, false, name)
	if hits[0].id != 0 || hits[0].score != 0.5 || first.ByMargin {
		t.Errorf("the first hit: %+v, marked %v; want it unchanged", hits[0], first.ByMargin)
	}
	held := append([]learnedClaim{{id: 0, sim: 0.41}}, claims...)
	marginLift(hits, 1, 0.2, 0.5, 0.4, held, false, name)
	if hits[0].id != 0 || second.ByMargin {
		t.Errorf("the second hit, under a claim above the bar: %+v, marked %v; want it where it was", hits, second.ByMargin)
	}
	marginLift(hits, 1, 0.2, 0.5, 0.4, claims, false, name) // 0.2 + 0.5 · 0.8
	if hits[0].id != 1 || math.Abs(hits[0].score-0.6) > 1e-12 || !second.ByMargin || math.Abs(second.Boost-0.4) > 1e-12 {
		t.Errorf("the second hit: %+v, %+v; want it first at 0.6, boost 0.4, marked", hits[0], *second)
	}
}
