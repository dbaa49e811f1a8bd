package fallback

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
)

// evalFlag turns on TestBenchEval, which scores keyword search on the bench
// dev sets (../../shared/bench) with the metrics of its README:
//
//	go test ./fallback -run TestBenchEval -eval -v
var (
	evalFlag = flag.Bool("eval", false, "run TestBenchEval on ../../shared/bench")
	evalDump = flag.String("eval.dump", "", "TestBenchEval writes per-query nDCG@10 and top hits to files with this prefix")
)

// benchDatasets are the bench dev sets TestBenchEval scores.
var benchDatasets = []string{"bfcl", "livemcpbench", "stabletoolbench"}

type benchQuery struct {
	ID       string     `json:"id"`
	Query    string     `json:"query"`
	Relevant []string   `json:"relevant"`
	Groups   [][]string `json:"groups"`
}

func loadBenchQueries(tb testing.TB, path string) []benchQuery {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("bench data not available: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var qs []benchQuery
	for sc.Scan() {
		var q benchQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		qs = append(qs, q)
	}
	return qs
}

// benchMetrics are the README's metrics averaged over queries.
type benchMetrics struct {
	R1, R5, R10, NDCG, MRR float64
}

// scoreRanking scores one ranked list of names against a query's steps.
func scoreRanking(q benchQuery, ranked []string) benchMetrics {
	steps := q.Groups
	if len(steps) == 0 {
		for _, r := range q.Relevant {
			steps = append(steps, []string{r})
		}
	}
	done := make([]bool, len(steps))
	var m benchMetrics
	gains := 0
	for i, name := range ranked {
		if i >= 10 {
			break
		}
		gain := false
		for s, st := range steps {
			if done[s] {
				continue
			}
			for _, n := range st {
				if n == name {
					done[s], gain = true, true
					break
				}
			}
			if gain {
				break
			}
		}
		if !gain {
			continue
		}
		gains++
		m.NDCG += 1 / math.Log2(float64(i+2))
		if m.MRR == 0 {
			m.MRR = 1 / float64(i+1)
		}
		if i < 1 {
			m.R1++
		}
		if i < 5 {
			m.R5++
		}
		m.R10++
	}
	ideal := 0.0
	for i := 0; i < min(len(steps), 10); i++ {
		ideal += 1 / math.Log2(float64(i+2))
	}
	n := float64(len(steps))
	m.R1, m.R5, m.R10 = m.R1/n, m.R5/n, m.R10/n
	if ideal > 0 {
		m.NDCG /= ideal
	}
	return m
}

// TestBenchEval prints keyword nDCG@10, recall and MRR per bench dataset.
func TestBenchEval(t *testing.T) {
	if !*evalFlag {
		t.Skip("needs -eval")
	}
	perQuery := *evalDump
	for _, ds := range benchDatasets {
		dir := "../../shared/bench/" + ds + "/"
		ix := NewIndex(loadBenchDocs(t, dir+"tools.jsonl"))
		qs := loadBenchQueries(t, dir+"queries.jsonl")
		var sum benchMetrics
		var dump *os.File
		if perQuery != "" {
			dump, _ = os.Create(perQuery + "." + ds)
		}
		for _, bq := range qs {
			q, err := ParseQuery(bq.Query)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Limit: 10, Explain: dump != nil}
			r := ix.Keyword(q, opts)
			if len(r.Hits) == 0 {
				r, _ = ix.Fuzzy(q, opts)
			}
			var ranked []string
			for _, h := range r.Hits {
				ranked = append(ranked, ix.Name(h.ID))
			}
			m := scoreRanking(bq, ranked)
			if dump != nil {
				fmt.Fprintf(dump, "%s\t%.3f\t%q\n", bq.ID, m.NDCG, bq.Query)
				for i, h := range r.Hits[:min(5, len(r.Hits))] {
					mark := " "
					if slices.Contains(bq.Relevant, ranked[i]) {
						mark = "*"
					}
					fmt.Fprintf(dump, "   %s %-50s %.3f %s\n", mark, ranked[i], h.Score, h.Explain)
				}
				fmt.Fprintf(dump, "   want %v\n", bq.Relevant)
			}
			sum.R1 += m.R1
			sum.R5 += m.R5
			sum.R10 += m.R10
			sum.NDCG += m.NDCG
			sum.MRR += m.MRR
		}
		if dump != nil {
			dump.Close()
		}
		n := float64(len(qs))
		t.Logf("%-16s ndcg@10=%.4f r@1=%.4f r@5=%.4f r@10=%.4f mrr=%.4f", ds, sum.NDCG/n, sum.R1/n, sum.R5/n, sum.R10/n, sum.MRR/n)
	}
}
