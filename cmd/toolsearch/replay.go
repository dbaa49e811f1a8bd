package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// replayOptions configures eval's replay of learning from use.
type replayOptions struct {
	catalogs []string
	queries  []evaluation.Query
	// noAnswer are queries no tool serves (--no-answer): searched with
	// the evaluated queries, without and with learning, to measure how
	// many stay flagged no_confident_match once learning lifts tools.
	noAnswer     []evaluation.Query
	learnFrom    string
	split        string
	mode         search.Mode
	embedder     string
	semanticOnly bool
	asJSON       bool
	// naive, when set, also evaluates the naive stand-in (naiveStandIn):
	// "recorded" appends each learned query to the tools whose use it
	// recorded (what learning itself is given), "relevant" to every
	// relevant tool of it, revealed or not (more than an agent can report).
	naive string
	// perQuery, when set, is written with one JSON line per evaluated
	// query (queryTrace): its score and top results without learning,
	// with it, and on the naive stand-in.
	perQuery io.Writer
}

// queryTrace is one evaluated query of a replay (--per-query): which
// queries learning lifts or sinks, and where the naive stand-in does
// better.
type queryTrace struct {
	ID       string        `json:"id"`
	Query    string        `json:"query"`
	Relevant []string      `json:"relevant"`
	Without  queryOutcome  `json:"without"`
	With     queryOutcome  `json:"with"`
	Naive    *queryOutcome `json:"naive,omitempty"`
}

// queryOutcome is one query's nDCG@10 and top results (at most
// traceDepth) in one run of a replay.
type queryOutcome struct {
	NDCG10 float64  `json:"ndcg@10"`
	Top    []string `json:"top"`
}

// traceDepth is how many results of each run a queryTrace lists.
const traceDepth = 5

// replayReport is eval's replay answer: the evaluated queries without and
// with learning, and the same for their paraphrase subset (the evaluated
// queries sharing a relevant tool with a learned one).
type replayReport struct {
	Learned           int                `json:"learned_queries"`
	LearnedTools      int                `json:"learned_tools"`
	Reported          int                `json:"reported_uses"`
	Recorded          int                `json:"recorded_uses"`
	Without           evaluation.Summary `json:"without_learning"`
	With              evaluation.Summary `json:"with_learning"`
	ParaphraseWithout evaluation.Summary `json:"paraphrase_without_learning"`
	ParaphraseWith    evaluation.Summary `json:"paraphrase_with_learning"`
	// Naive is the naive stand-in's score of the evaluated queries (with
	// --naive): each learned query appended verbatim to the description of
	// the tools whose use it recorded (or of all its relevant tools), then
	// searched without learning.
	Naive *evaluation.Summary `json:"naive_stand_in,omitempty"`
}

// runReplay learns from one set of labelled queries and evaluates another:
// each learned query is searched in its own session, as an agent would,
// and each of its relevant tools reported as a successful use (which
// counts half, as a miss, if the search did not reveal it). The evaluated queries are scored
// before learning and after.
func runReplay(ctx context.Context, o replayOptions, stdout, stderr io.Writer) error {
	var learnQs []evaluation.Query
	evalQs := o.queries
	switch o.split {
	case "":
		qs, err := evaluation.LoadQueries(o.learnFrom)
		if err != nil {
			return err
		}
		learnQs = qs
	case "even", "odd":
		if o.learnFrom != "" {
			return usageError{"give --split or --learn-from, not both"}
		}
		even, odd := evaluation.Split(o.queries)
		learnQs, evalQs = even, odd
		if o.split == "odd" {
			learnQs, evalQs = odd, even
		}
	default:
		k, f, ok := parseFold(o.split)
		if !ok {
			return usageError{fmt.Sprintf("--split %q: use even, odd or F/K (evaluate fold F of K, learn from the others)", o.split)}
		}
		if o.learnFrom != "" {
			return usageError{"give --split or --learn-from, not both"}
		}
		evalQs, learnQs = evaluation.Fold(o.queries, k, f)
	}
	store := learn.NewStore(learn.Config{})
	tools, err := catalog.Load(catalog.ParseSources(o.catalogs...)...)
	if err != nil {
		return err
	}
	e, err := newEngine(ctx, tools, engineOptions{embedder: o.embedder, semanticOnly: o.semanticOnly,
		learn: search.LearnConfig{Store: store, Sync: true}})
	if err != nil {
		return err
	}
	defer e.Close()
	r := localRanker{e: e.Engine, mode: o.mode}
	para := evaluation.Paraphrases(evalQs, learnQs)
	rep := replayReport{Learned: len(learnQs)}
	without, with, naive := o.outcomes(len(evalQs)), o.outcomes(len(evalQs)), []queryOutcome(nil)
	if rep.Without, err = scoreQueries(ctx, r, evalQs, o.noAnswer, without); err != nil {
		return err
	}
	if rep.ParaphraseWithout, err = scoreQueries(ctx, r, para, nil, nil); err != nil {
		return err
	}
	// appended[tool] are the learned queries that recorded a use of tool,
	// in order (the naive stand-in's extra description text).
	appended := map[string][]string{}
	for _, q := range learnQs {
		session := "replay-" + q.ID
		if _, err := r.rankIn(ctx, q.Query, session); err != nil && !isInvalidArgument(err) {
			return fmt.Errorf("learn query %q: %w", q.ID, err)
		}
		for _, tool := range q.Relevant {
			if _, ok := e.Snapshot().Lookup(tool); !ok {
				continue
			}
			rep.Reported++
			u, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: session, Tool: tool, Outcome: search.OutcomeSuccess})
			if err != nil {
				return fmt.Errorf("report %q for query %q: %w", tool, q.ID, err)
			}
			if u.Recorded {
				rep.Recorded++
			}
			if u.Recorded || o.naive == "relevant" {
				appended[tool] = append(appended[tool], q.Query)
			}
		}
	}
	if err := e.RefreshLearned(ctx); err != nil {
		return err
	}
	rep.LearnedTools = store.View().Len()
	if rep.With, err = scoreQueries(ctx, r, evalQs, o.noAnswer, with); err != nil {
		return err
	}
	if rep.ParaphraseWith, err = scoreQueries(ctx, r, para, nil, nil); err != nil {
		return err
	}
	if o.naive != "" {
		naive = o.outcomes(len(evalQs))
		s, err := naiveStandIn(ctx, o, tools, appended, evalQs, naive)
		if err != nil {
			return err
		}
		rep.Naive = &s
	}
	if o.perQuery != nil {
		if err := writeTraces(o.perQuery, evalQs, without, with, naive); err != nil {
			return fmt.Errorf("--per-query: %w", err)
		}
	}
	if o.asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, string(b))
		return err
	}
	fmt.Fprintf(stdout, "learned from     %d queries: %d of %d reported uses recorded, %d tools learned\n",
		rep.Learned, rep.Recorded, rep.Reported, rep.LearnedTools)
	fmt.Fprintf(stdout, "evaluated        %d queries (paraphrases of learned ones: %d)\n", rep.Without.Queries, rep.ParaphraseWithout.Queries)
	fmt.Fprintf(stdout, "                 without   with learning\n")
	row := func(name string, a, b float64) { fmt.Fprintf(stdout, "%-16s %.3f     %.3f\n", name, a, b) }
	row("recall@1", rep.Without.Recall1, rep.With.Recall1)
	row("recall@5", rep.Without.Recall5, rep.With.Recall5)
	row("recall@10", rep.Without.Recall10, rep.With.Recall10)
	row("ndcg@10", rep.Without.NDCG10, rep.With.NDCG10)
	row("mrr", rep.Without.MRR, rep.With.MRR)
	row("paraphr ndcg@10", rep.ParaphraseWithout.NDCG10, rep.ParaphraseWith.NDCG10)
	if rep.Naive != nil {
		fmt.Fprintf(stdout, "%-16s %.3f (naive stand-in: learned queries appended to descriptions)\n", "ndcg@10", rep.Naive.NDCG10)
	}
	row("no-confident", rep.Without.NoConfidentRate, rep.With.NoConfidentRate)
	if rep.Without.NoAnswerQueries > 0 {
		row("no-answer flagd", rep.Without.NoAnswerFlagged, rep.With.NoAnswerFlagged)
	}
	fmt.Fprintf(stdout, "%-16s %.3f ms  %.3f ms\n", "p50", rep.Without.P50Ms, rep.With.P50Ms)
	fmt.Fprintf(stdout, "%-16s %.3f ms  %.3f ms\n", "p99", rep.Without.P99Ms, rep.With.P99Ms)
	return nil
}

// scoreQueries runs qs without sessions and summarizes their scores, and
// the no-answer queries na, whose share flagged no_confident_match it
// reports; with out non-nil, it also sets out[i] to query i's outcome.
func scoreQueries(ctx context.Context, r localRanker, qs, na []evaluation.Query, out []queryOutcome) (evaluation.Summary, error) {
	var run evaluation.Run
	for i, q := range qs {
		start := time.Now()
		got, err := r.rank(ctx, q.Query)
		if err != nil && !isInvalidArgument(err) {
			return evaluation.Summary{}, fmt.Errorf("query %q: %w", q.ID, err)
		}
		s := evaluation.Score(q, got.names)
		run.Add(s, got.fellBack, got.unconfident || err != nil, time.Since(start))
		if out != nil {
			out[i] = queryOutcome{NDCG10: s.NDCG10, Top: slices.Clone(got.names[:min(len(got.names), traceDepth)])}
		}
	}
	for _, q := range na {
		got, err := r.rank(ctx, q.Query)
		if err != nil && !isInvalidArgument(err) {
			return evaluation.Summary{}, fmt.Errorf("no-answer query %q: %w", q.ID, err)
		}
		run.AddNoAnswer(err != nil || got.unconfident)
	}
	return run.Summary(), nil
}

// outcomes returns a slice for scoreQueries' outcomes of n queries when
// they are traced (--per-query), else nil.
func (o replayOptions) outcomes(n int) []queryOutcome {
	if o.perQuery == nil {
		return nil
	}
	return make([]queryOutcome, n)
}

// writeTraces writes one queryTrace per evaluated query (naive nil when
// the stand-in was not run).
func writeTraces(w io.Writer, qs []evaluation.Query, without, with, naive []queryOutcome) error {
	enc := json.NewEncoder(w)
	for i, q := range qs {
		t := queryTrace{ID: q.ID, Query: q.Query, Relevant: q.Relevant, Without: without[i], With: with[i]}
		if naive != nil {
			t.Naive = &naive[i]
		}
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	return nil
}

// naiveStandIn scores evalQs on a catalog where each tool's description
// has the learned queries that recorded a use of it appended verbatim, in
// an engine without learning: the reference that learning from use is
// measured against (issue 25: what the signal is worth when nothing is
// careful about it).
func naiveStandIn(ctx context.Context, o replayOptions, tools []search.Tool, appended map[string][]string, evalQs []evaluation.Query, out []queryOutcome) (evaluation.Summary, error) {
	changed := make([]search.Tool, len(tools))
	for i, t := range tools {
		if qs := appended[t.Name]; len(qs) > 0 {
			t.Description = strings.TrimSpace(t.Description + "\n" + strings.Join(qs, "\n"))
		}
		changed[i] = t
	}
	e, err := newEngine(ctx, changed, engineOptions{embedder: o.embedder, semanticOnly: o.semanticOnly})
	if err != nil {
		return evaluation.Summary{}, err
	}
	defer e.Close()
	return scoreQueries(ctx, localRanker{e: e.Engine, mode: o.mode}, evalQs, nil, out)
}

// parseFold parses --split F/K: fold F (0 ≤ F < K) of K ≥ 2.
func parseFold(s string) (k, f int, ok bool) {
	a, b, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, false
	}
	f, errF := strconv.Atoi(a)
	k, errK := strconv.Atoi(b)
	if errF != nil || errK != nil || k < 2 || f < 0 || f >= k {
		return 0, 0, false
	}
	return k, f, true
}
