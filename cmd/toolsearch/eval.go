package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/vectorindex"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// evalDepth is how many results eval asks for per query: the metrics look
// at the top 10.
const evalDepth = 10

// ranked is one query's answer as eval scores it.
type ranked struct {
	names []string
	// fellBack: the engine fell back from the requested mode.
	fellBack bool
	// unconfident: the answer carried no_confident_match, or was empty.
	unconfident bool
}

// ranker runs one query.
type ranker interface {
	rank(ctx context.Context, query string) (ranked, error)
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "", stderr)
	catalogs := stringList{}
	fs.Var(&catalogs, "catalog", "catalog file to load in-process (repeatable; format detected from content)")
	queries := fs.String("queries", "", "labelled queries, JSONL: {\"id\",\"query\",\"relevant\":[names],\"groups\"?}")
	noAnswer := fs.String("no-answer", "", "also run these queries that no tool serves, JSONL {\"id\",\"query\"} (e.g. evaluation/testdata/noanswer/NAME.jsonl), and report the share flagged no_confident_match (with --split or --learn-from: without and with learning)")
	typ := fs.String("type", "default", "search type: default, semantic, keyword or regex")
	addr := fs.String("addr", "", "evaluate a running sidecar at host:port instead of loading --catalog in-process")
	tokens := newTokenFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	embedder := fs.String("embedder", "builtin", "in-process embedder: builtin (the built-in word-vector model) or none (lexical only)")
	semanticOnly := fs.Bool("semantic-only", false, "in-process: answer default/semantic queries from the vector index alone, without fusion (to measure semantic search on its own)")
	learnFrom := fs.String("learn-from", "", "in-process replay of learning from use: search each of these labelled queries (JSONL, as --queries) in its own session and report its relevant tools as used, then evaluate --queries without and with what was learned")
	split := fs.String("split", "", "in-process replay on one file: learn from the \"even\" or \"odd\" half of --queries (by a stable hash of the id) and evaluate the other half; or F/K: evaluate fold F of K (the same hash modulo K) and learn from the other folds (run F = 0…K-1 to evaluate every query once)")
	forModel := fs.Bool("for-model", false, "in-process: search as the model-facing surfaces do (the relevance floor; search.Request.ForModel) with --max-results, and report the answers' mean size and precision")
	maxResults := fs.Int("max-results", 5, "with --for-model: max_results of each search (the Agent helpers' default is 5)")
	naive := fs.String("naive", "", "with --split or --learn-from: also score the evaluated queries on the naive stand-in, the reference for learning's gain: each learned query appended verbatim to the descriptions of the tools whose use it recorded (recorded) or of all its relevant tools (relevant), searched without learning")
	perQuery := fs.String("per-query", "", "with --split or --learn-from: write one JSON line per evaluated query to this file: its nDCG@10 and top 5 names without learning, with it, and on the naive stand-in (with --naive)")
	quantize := fs.String("quantize", "", "in-process: store and score the vectors as none (float32, the default) or int8, whatever the catalog's size (to measure quantization's cost on a small catalog)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *queries == "" {
		return usageError{"--queries is required"}
	}
	if (*addr == "") == (len(catalogs) == 0) {
		return usageError{"give --catalog (in-process) or --addr (a running sidecar), not both"}
	}
	replay := *learnFrom != "" || *split != ""
	if replay && *addr != "" {
		return usageError{"--learn-from and --split replay in-process: give --catalog, not --addr"}
	}
	switch {
	case *perQuery != "" && !replay:
		return usageError{"--per-query traces a replay: give --split or --learn-from"}
	case *naive != "" && !replay:
		return usageError{"--naive scores a replay's queries: give --split or --learn-from"}
	case *naive != "" && *naive != "recorded" && *naive != "relevant":
		return usageError{fmt.Sprintf("--naive %q: use recorded or relevant", *naive)}
	}
	st, err := parseSearchType(*typ)
	if err != nil {
		return err
	}
	q, err := vectorindex.ParseQuantization(*quantize)
	if err != nil {
		return usageError{"--" + err.Error()}
	}
	qs, err := evaluation.LoadQueries(*queries)
	if err != nil {
		return err
	}
	var na []evaluation.Query
	if *noAnswer != "" {
		if na, err = evaluation.LoadNoAnswer(*noAnswer); err != nil {
			return err
		}
	}
	if replay {
		o := replayOptions{catalogs: catalogs, queries: qs, noAnswer: na, learnFrom: *learnFrom, split: *split,
			mode: modeOf(st), embedder: *embedder, semanticOnly: *semanticOnly, asJSON: *asJSON, naive: *naive}
		if *perQuery == "" {
			return runReplay(ctx, o, stdout, stderr)
		}
		f, err := os.Create(*perQuery)
		if err != nil {
			return err
		}
		o.perQuery = f
		err = runReplay(ctx, o, stdout, stderr)
		return errors.Join(err, f.Close())
	}
	var r ranker
	if *addr != "" {
		c, err := tokens.dial(*addr)
		if err != nil {
			return err
		}
		defer c.Close()
		r = remoteRanker{c: c, typ: st, addr: *addr}
	} else {
		e, took, err := openEngine(ctx, catalogs, engineOptions{embedder: *embedder, semanticOnly: *semanticOnly, hnsw: vectorindex.HNSWConfig{Quantization: q}})
		if err != nil {
			return err
		}
		defer e.Close()
		info := e.Info()
		fmt.Fprintf(stderr, "eval: %d tools loaded and indexed in %d ms (embedder %q)\n", info.ToolCount, took.Milliseconds(), info.Embedder)
		r = localRanker{e: e.Engine, mode: modeOf(st)}
	}
	var shown *localRanker
	if *forModel {
		lr, ok := r.(localRanker)
		if !ok {
			return usageError{"--for-model runs in-process: give --catalog, not --addr"}
		}
		lr.forModel, lr.maxResults = true, *maxResults
		shown = &lr
	}
	var run evaluation.Run
	rejected := 0
	for _, q := range qs {
		start := time.Now()
		got, err := r.rank(ctx, q.Query)
		switch {
		case isInvalidArgument(err):
			// A query the engine rejects (e.g. natural language that is not
			// a valid regular expression) scores as no results.
			rejected++
		case err != nil:
			return fmt.Errorf("query %q: %w", q.ID, err)
		}
		run.Add(evaluation.Score(q, got.names), got.fellBack, got.unconfident || err != nil, time.Since(start))
		if shown != nil {
			ans, err := shown.rank(ctx, q.Query)
			if err != nil && !isInvalidArgument(err) {
				return fmt.Errorf("query %q: %w", q.ID, err)
			}
			run.AddShown(q, ans.names)
		}
	}
	for _, q := range na {
		got, err := r.rank(ctx, q.Query)
		if err != nil && !isInvalidArgument(err) {
			return fmt.Errorf("no-answer query %q: %w", q.ID, err)
		}
		run.AddNoAnswer(err != nil || got.unconfident)
		if shown != nil {
			ans, err := shown.rank(ctx, q.Query)
			if err != nil && !isInvalidArgument(err) {
				return fmt.Errorf("no-answer query %q: %w", q.ID, err)
			}
			run.AddNoAnswerShown(err == nil && !ans.unconfident)
		}
	}
	if rejected > 0 {
		fmt.Fprintf(stderr, "eval: %d of %d queries were rejected as invalid (e.g. not a valid pattern in regex mode) and scored as no results\n", rejected, len(qs))
	}
	sum := run.Summary()
	if *asJSON {
		b, err := json.Marshal(sum)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, string(b))
		return err
	}
	fmt.Fprintf(stdout, "queries          %d\nrecall@1         %.3f\nrecall@5         %.3f\nrecall@10        %.3f\nndcg@10          %.3f\nmrr              %.3f\nfallback rate    %.3f\nno-confident     %.3f\np50              %.3f ms\np99              %.3f ms\n",
		sum.Queries, sum.Recall1, sum.Recall5, sum.Recall10, sum.NDCG10, sum.MRR, sum.FallbackRate, sum.NoConfidentRate, sum.P50Ms, sum.P99Ms)
	if sum.NoAnswerQueries > 0 {
		fmt.Fprintf(stdout, "no-answer        %d queries, %.3f flagged\n", sum.NoAnswerQueries, sum.NoAnswerFlagged)
	}
	if shown != nil {
		fmt.Fprintf(stdout, "model-facing     %.2f results per answer, precision %.3f, %.3f empty\n", sum.MeanShown, sum.Precision, sum.EmptyRate)
		if sum.NoAnswerQueries > 0 {
			fmt.Fprintf(stdout, "no-answer shown  %.3f (answers a session would reveal)\n", sum.NoAnswerShown)
		}
	}
	return nil
}

// isInvalidArgument reports whether err rejects the query itself, from the
// in-process engine or from a sidecar.
func isInvalidArgument(err error) bool {
	return errors.Is(err, search.ErrInvalidArgument) || status.Code(err) == codes.InvalidArgument
}

// modeOf maps an API search type to an engine mode.
func modeOf(t toolsearchv1.SearchType) search.Mode {
	switch t {
	case toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC:
		return search.ModeSemantic
	case toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD:
		return search.ModeKeyword
	case toolsearchv1.SearchType_SEARCH_TYPE_REGEX:
		return search.ModeRegex
	}
	return search.ModeDefault
}

type localRanker struct {
	e    *search.Engine
	mode search.Mode
	// forModel searches as the model-facing surfaces do, maxResults at a
	// time (--for-model); otherwise evalDepth results, no floor.
	forModel   bool
	maxResults int
}

func (l localRanker) rank(ctx context.Context, query string) (ranked, error) {
	return l.rankIn(ctx, query, "")
}

// rankIn runs query in session (""; none).
func (l localRanker) rankIn(ctx context.Context, query, session string) (ranked, error) {
	req := search.Request{Query: query, Mode: l.mode, MaxResults: evalDepth, SessionID: session}
	if l.forModel {
		req.ForModel, req.MaxResults = true, l.maxResults
	}
	res, err := l.e.Search(ctx, req)
	if err != nil {
		return ranked{}, err
	}
	out := ranked{
		names:       make([]string, len(res.References)),
		fellBack:    res.Metadata.FallbackReason != "",
		unconfident: res.Metadata.NoConfidentMatch || len(res.References) == 0,
	}
	for i, ref := range res.References {
		out.names[i] = ref.Name
	}
	return out, nil
}

type remoteRanker struct {
	c    *toolsearch.Client
	typ  toolsearchv1.SearchType
	addr string
}

func (r remoteRanker) rank(ctx context.Context, query string) (ranked, error) {
	resp, err := r.c.Search(ctx, query, toolsearch.WithSearchType(r.typ), toolsearch.WithMaxResults(evalDepth))
	if err != nil {
		return ranked{}, rpcError(err, r.addr)
	}
	md := resp.GetSearchMetadata()
	out := ranked{
		names:       make([]string, len(resp.GetToolReferences())),
		fellBack:    md.GetFallbackReason() != "",
		unconfident: md.GetNoConfidentMatch() || len(resp.GetToolReferences()) == 0,
	}
	for i, ref := range resp.GetToolReferences() {
		out.names[i] = ref.GetToolName()
	}
	return out, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
