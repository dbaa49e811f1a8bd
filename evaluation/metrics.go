package evaluation

import (
	"math"
	"sort"
	"time"
)

// Scores are one query's metrics.
type Scores struct {
	Recall1, Recall5, Recall10 float64
	NDCG10                     float64
	MRR                        float64
}

// Score computes a query's metrics for a ranked list of tool names, best
// first.
func Score(q Query, ranked []string) Scores {
	steps := q.Steps()
	satisfied := make([]bool, len(steps))
	gains := make([]float64, len(ranked))
	for i, name := range ranked {
		for s, step := range steps {
			if !satisfied[s] && contains(step, name) {
				satisfied[s] = true
				gains[i] = 1
				break
			}
		}
	}
	var sc Scores
	n := float64(len(steps))
	sc.Recall1 = sum(gains, 1) / n
	sc.Recall5 = sum(gains, 5) / n
	sc.Recall10 = sum(gains, 10) / n
	var dcg, ideal float64
	for i := 0; i < 10 && i < len(gains); i++ {
		dcg += gains[i] / math.Log2(float64(i)+2)
	}
	for i := 0; i < 10 && i < len(steps); i++ {
		ideal += 1 / math.Log2(float64(i)+2)
	}
	sc.NDCG10 = dcg / ideal
	for i, g := range gains {
		if g > 0 {
			sc.MRR = 1 / float64(i+1)
			break
		}
	}
	return sc
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func sum(gains []float64, k int) float64 {
	var s float64
	for i := 0; i < k && i < len(gains); i++ {
		s += gains[i]
	}
	return s
}

// Summary aggregates a run over many queries.
type Summary struct {
	Queries      int     `json:"queries"`
	Recall1      float64 `json:"recall@1"`
	Recall5      float64 `json:"recall@5"`
	Recall10     float64 `json:"recall@10"`
	NDCG10       float64 `json:"ndcg@10"`
	MRR          float64 `json:"mrr"`
	FallbackRate float64 `json:"fallback_rate"`
	P50Ms        float64 `json:"p50_ms"`
	P99Ms        float64 `json:"p99_ms"`
	// NoConfidentRate is the share of queries answered with
	// no_confident_match (or with no result at all).
	NoConfidentRate float64 `json:"no_confident_rate"`
	// NoAnswerQueries and NoAnswerFlagged describe a set of queries that no
	// tool of the catalog serves, when one was evaluated: how many, and the
	// share answered with no_confident_match or with nothing. 0 without one.
	NoAnswerQueries int     `json:"no_answer_queries"`
	NoAnswerFlagged float64 `json:"no_answer_flagged"`
	// MeanShown, Precision and EmptyRate describe the answers as a model
	// sees them, when they were recorded (Run.AddShown; 0 otherwise): the
	// mean number of results, the share of returned results that are
	// relevant (over the answers with results), and the share of answers
	// with none.
	MeanShown float64 `json:"mean_shown,omitempty"`
	Precision float64 `json:"precision,omitempty"`
	EmptyRate float64 `json:"empty_rate,omitempty"`
	// ShownRecall is the recall of the answers as shown (their steps
	// satisfied by the results shown, however many), when recorded.
	ShownRecall float64 `json:"shown_recall,omitempty"`
	// NoAnswerShown is the share of no-answer queries whose model-facing
	// answer showed results without no_confident_match (results a session
	// would reveal), when recorded (Run.AddNoAnswerShown).
	NoAnswerShown float64 `json:"no_answer_shown,omitempty"`
}

// Run accumulates per-query results into a Summary. The zero value is ready
// to use; it is not safe for concurrent use.
type Run struct {
	sum       Scores
	n         int
	fallbacks int
	// unconfident counts the labelled queries answered with
	// no_confident_match; noAnswer and noAnswerFlagged the no-answer
	// queries and how many of them were flagged.
	unconfident, noAnswer, noAnswerFlagged int
	latencies                              []time.Duration
	// shown, answered and precision accumulate AddShown: answers recorded,
	// answers with results, and their precision.
	shown, shownResults, answered, empty int
	precision, shownRecall               float64
	noAnswerShown                        int
}

// AddNoAnswerShown records whether a no-answer query's model-facing answer
// showed results without flagging them (what a session would reveal).
func (r *Run) AddNoAnswerShown(revealed bool) {
	if revealed {
		r.noAnswerShown++
	}
}

// AddShown records the results one labelled query's answer showed: how
// many, and how many of them are relevant to q (any of its steps).
func (r *Run) AddShown(q Query, names []string) {
	r.shown++
	r.shownResults += len(names)
	r.shownRecall += Score(q, names).Recall10
	if len(names) == 0 {
		r.empty++
		return
	}
	relevant := map[string]bool{}
	for _, step := range q.Steps() {
		for _, n := range step {
			relevant[n] = true
		}
	}
	hit := 0
	for _, n := range names {
		if relevant[n] {
			hit++
		}
	}
	r.answered++
	r.precision += float64(hit) / float64(len(names))
}

// Add records one query's scores, whether the engine fell back, whether it
// answered without a confident match (no_confident_match or no results),
// and its latency.
func (r *Run) Add(s Scores, fellBack, unconfident bool, latency time.Duration) {
	r.n++
	if unconfident {
		r.unconfident++
	}
	r.sum.Recall1 += s.Recall1
	r.sum.Recall5 += s.Recall5
	r.sum.Recall10 += s.Recall10
	r.sum.NDCG10 += s.NDCG10
	r.sum.MRR += s.MRR
	if fellBack {
		r.fallbacks++
	}
	r.latencies = append(r.latencies, latency)
}

// AddNoAnswer records one query that no tool serves, and whether the
// engine flagged it (no_confident_match or no results).
func (r *Run) AddNoAnswer(flagged bool) {
	r.noAnswer++
	if flagged {
		r.noAnswerFlagged++
	}
}

// Summary returns the averages and latency percentiles so far.
func (r *Run) Summary() Summary {
	var out Summary
	if r.noAnswer > 0 {
		out.NoAnswerQueries = r.noAnswer
		out.NoAnswerFlagged = float64(r.noAnswerFlagged) / float64(r.noAnswer)
		out.NoAnswerShown = float64(r.noAnswerShown) / float64(r.noAnswer)
	}
	if r.shown > 0 {
		out.MeanShown = float64(r.shownResults) / float64(r.shown)
		out.EmptyRate = float64(r.empty) / float64(r.shown)
		out.ShownRecall = r.shownRecall / float64(r.shown)
		if r.answered > 0 {
			out.Precision = r.precision / float64(r.answered)
		}
	}
	if r.n == 0 {
		return out
	}
	n := float64(r.n)
	lat := append([]time.Duration(nil), r.latencies...)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	out.Queries = r.n
	out.Recall1 = r.sum.Recall1 / n
	out.Recall5 = r.sum.Recall5 / n
	out.Recall10 = r.sum.Recall10 / n
	out.NDCG10 = r.sum.NDCG10 / n
	out.MRR = r.sum.MRR / n
	out.FallbackRate = float64(r.fallbacks) / n
	out.NoConfidentRate = float64(r.unconfident) / n
	out.P50Ms = ms(Percentile(lat, 0.50))
	out.P99Ms = ms(Percentile(lat, 0.99))
	return out
}

// Percentile returns the p-th percentile (0 < p ≤ 1, nearest rank) of
// sorted durations, 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
