package search

import "testing"

// BenchmarkRequestRead measures what requestRead (question.go) costs one
// search, alone: each dev set's labelled queries searched once in keyword
// mode over its catalog, then the read run on a copy of each query's hits
// and its ranking words (which result reads anyway), one query per op
// (the tools' facts are derived on first use and kept, as in a running
// engine):
//
//	go test -run '^$' -bench RequestRead -benchmem -count 3 ./search
func BenchmarkRequestRead(b *testing.B) {
	for _, set := range []string{"bfcl", "stabletoolbench"} {
		b.Run(set, func(b *testing.B) {
			st, searches := keywordSearches(b, set)
			type input struct {
				p  *plan
				hs []hit
				ws []string
			}
			var in []input
			for _, x := range searches {
				if len(x.m.hits) > 0 {
					in = append(in, input{x.p, x.m.hits, st.lex.RankingWords(x.p.query)})
				}
			}
			b.ReportAllocs()
			hs := make([]hit, 0, 1024)
			read := func(x input) *reading { // a search's reading, with the ranking words result reads anyway
				r := st.newReading(x.p)
				r.ws, r.wsRead = x.ws, true
				return r
			}
			for _, x := range in { // derive the tools' facts first
				st.requestRead(read(x), append(hs[:0], x.hs...))
			}
			for i := 0; b.Loop(); i++ {
				x := in[i%len(in)]
				hs = append(hs[:0], x.hs...)
				st.requestRead(read(x), hs)
			}
		})
	}
}
