package fallback

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestKeywordUnordered checks that Options.Unordered gives the same hits
// as the ordered search, as a set, on indexes like the learned stage's
// (documents without names, several of them identical, so that scores tie
// at the cut) and on named ones, for limits below and above the number of
// matches; and that both of topSet's ways (the linear one, and falling back
// to top's heap at a tie on the cut) are taken.
func TestKeywordUnordered(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	vocab := strings.Fields("weather forecast city send message channel slack issue repo create close order pet user list file read write search query report data stock price")
	text := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	var linear, heap int
	for _, named := range []bool{false, true} {
		var docs []Document
		for i := range 300 {
			d := Document{Description: text(3 + rng.IntN(12))}
			if i%4 == 1 { // the same text as the document before: a tie
				d.Description = docs[i-1].Description
			}
			if named {
				d.Name = fmt.Sprintf("tool_%03d", i)
			}
			docs = append(docs, d)
		}
		ix := NewIndex(docs)
		for range 300 {
			q := mustParse(t, text(1+rng.IntN(6)))
			for _, limit := range []int{1, 5, 10, 50, 400} {
				want := ix.Keyword(q, Options{Limit: limit})
				got := ix.Keyword(q, Options{Limit: limit, Unordered: true})
				sortHits := func(hs []Hit) []Hit {
					hs = slices.Clone(hs)
					slices.SortFunc(hs, func(a, b Hit) int { return cmp.Compare(a.ID, b.ID) })
					return hs
				}
				if !slices.Equal(sortHits(got.Hits), sortHits(want.Hits)) || got.Total != want.Total || got.Coverage != want.Coverage {
					t.Fatalf("%q limit %d: unordered %v, ordered %v", q.Raw, limit, got, want)
				}
				var cs []candidate
				for _, h := range ix.Keyword(q, Options{}).Hits {
					cs = append(cs, candidate{id: h.ID, raw: h.Score})
				}
				if limit < len(cs) {
					if _, _, ok := topSet(cs, limit, nil); ok {
						linear++
					} else {
						heap++
					}
				}
			}
		}
	}
	t.Logf("topSet: linear %d, heap %d", linear, heap)
	if linear == 0 || heap == 0 {
		t.Errorf("topSet took the linear way %d times and fell back %d times; want both", linear, heap)
	}
}

// TestNthLargest checks nthLargest against sorting, with repeated values.
func TestNthLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	for n := 1; n < 200; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(1 + n/3))
		}
		sorted := slices.Clone(xs)
		slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
		for k := range n {
			if got := nthLargest(slices.Clone(xs), k); got != sorted[k] {
				t.Fatalf("nthLargest(%v, %d) = %v, want %v", xs, k, got, sorted[k])
			}
		}
	}
}

// TestTopUnnamedIsBest checks that topUnnamed builds the heap best
// builds for an unnamed ranker, element for element: on random scores
// with many ties (and a NaN now and then), for limits below and above the
// number of candidates.
func TestTopUnnamedIsBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	r := ranker{unnamed: true}
	for n := range 300 {
		cs := make([]candidate, n)
		for i := range cs {
			cs[i] = candidate{id: i, raw: float64(rng.IntN(1+n/4)) / 8}
			if rng.IntN(50) == 0 {
				cs[i].raw = math.NaN()
			}
		}
		for _, limit := range []int{1, 3, 10, 50, n, n + 1} {
			want := r.best(cs, limit, nil).cs
			if limit >= len(cs) {
				want = cs
			}
			got, _ := r.topUnnamed(cs, limit, nil)
			if !slices.EqualFunc(got, want, func(a, b candidate) bool {
				return a.id == b.id && math.Float64bits(a.raw) == math.Float64bits(b.raw)
			}) {
				t.Fatalf("%d candidates, limit %d: topUnnamed %v, best %v", n, limit, got, want)
			}
		}
	}
}

// TestExpansionListsAreFeedback checks that an index without names, whose
// feedback reads the best tool's feedback terms made at build
// (expansionLists), scores every hit bit for bit as feedback weighing the
// tool's terms at search time does.
func TestExpansionListsAreFeedback(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	vocab := strings.Fields("weather forecast city send message channel slack issue repo create close order pet user list file read write search query report data stock price today tomorrow week email calendar event meeting")
	text := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	var docs []Document
	for range 300 {
		var qs []string
		for range 1 + rng.IntN(6) { // a tool's learned requests
			qs = append(qs, text(3+rng.IntN(10)))
		}
		docs = append(docs, Document{Description: strings.Join(qs, ". ")})
	}
	ix := NewIndex(docs)
	if ix.prfStart == nil {
		t.Fatal("an index without names has no expansion lists")
	}
	if named := NewIndex([]Document{{Name: "a", Description: "x"}}); named.prfStart != nil {
		t.Fatal("an index with names has expansion lists")
	}
	var queries []string
	for range 300 {
		queries = append(queries, text(1+rng.IntN(12)))
	}
	search := func() [][]Hit {
		var out [][]Hit
		for _, q := range queries {
			for _, o := range []Options{{Limit: 50, Unordered: true}, {}} {
				out = append(out, ix.Keyword(mustParse(t, q), o).Hits)
			}
		}
		return out
	}
	with := search()
	ix.prfList, ix.prfStart = nil, nil
	without := search()
	for i := range with {
		if !slices.EqualFunc(with[i], without[i], func(a, b Hit) bool {
			return a.ID == b.ID && math.Float64bits(a.Score) == math.Float64bits(b.Score)
		}) {
			t.Fatalf("query %q: with the lists %v, without %v", queries[i/2], with[i], without[i])
		}
	}
}

// TestNoCoverageIsKeyword checks that Options.NoCoverage changes nothing
// but Result.Coverage, WhenCoverage (left 0) and Tally (none), on requests whose unknown names after
// "in", "from", "to" Coverage leaves out, with and without names in the
// index.
func TestNoCoverageIsKeyword(t *testing.T) {
	docs := []Document{
		{Name: "weather__forecast", Description: "Get the weather forecast for a city"},
		{Name: "flights__search", Description: "Search flights between two airports"},
		{Name: "slack__post", Description: "Post a message to a Slack channel"},
		{Description: "weather in paris tomorrow. forecast for the week"},
	}
	for _, d := range [][]Document{docs, {{Description: "weather in paris tomorrow"}, {Description: "flights from boston"}}} {
		ix := NewIndex(d)
		for _, raw := range []string{
			"what is the weather in Delhi tomorrow", "flights from Boston to Providence next week",
			"post to #general that the build is green", "forecast near Union Square", "Weather In Delhi",
		} {
			q := mustParse(t, raw)
			for _, o := range []Options{{Limit: 2}, {Limit: 10, Unordered: true}, {}} {
				want := ix.Keyword(q, o)
				o.NoCoverage = true
				got := ix.Keyword(q, o)
				if got.Coverage != 0 || got.WhenCoverage != 0 || len(got.Tally.Unknown) > 0 || got.Tally.Weight != 0 {
					t.Errorf("%q: Coverage %v, WhenCoverage %v, Tally %+v with NoCoverage, want none", raw, got.Coverage, got.WhenCoverage, got.Tally)
				}
				got.Coverage, got.WhenCoverage, got.Tally = want.Coverage, want.WhenCoverage, want.Tally
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%q %+v: NoCoverage %+v, want %+v", raw, o, got, want)
				}
			}
		}
	}
}

// TestHitsBufferIsKeyword: Keyword with a buffer (Options.Hits) returns
// the hits it returns without one, in the buffer when it is long enough.
func TestHitsBufferIsKeyword(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "weather__forecast", Description: "Get the weather forecast for a city"},
		{Name: "flights__search", Description: "Search flights between two airports"},
		{Name: "slack__post", Description: "Post a message to a Slack channel"},
		{Description: "weather in paris tomorrow. forecast for the week"},
	})
	buf := make([]Hit, 1, 8)
	buf[0] = Hit{ID: 99, Score: 7, Explain: "stale"}
	for _, raw := range []string{"weather forecast for paris", "post to slack", "nothing matches zzz", "server:slack"} {
		q := mustParse(t, raw)
		for _, o := range []Options{{Limit: 2}, {Limit: 10, Unordered: true, Explain: true}, {}} {
			want := ix.Keyword(q, o)
			for _, b := range [][]Hit{buf, buf[:0:0]} {
				o.Hits = b
				got := ix.Keyword(q, o)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%q %+v: with a buffer %+v, want %+v", raw, o, got, want)
				}
				if len(got.Hits) > 0 && len(got.Hits) <= cap(b) && &got.Hits[0] != &b[:1][0] {
					t.Errorf("%q %+v: hits not in the buffer", raw, o)
				}
			}
		}
	}
}
