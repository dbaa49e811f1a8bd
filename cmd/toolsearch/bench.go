package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// benchResult is what toolsearch bench prints. Latencies are per search, in
// microseconds, measured by the caller (for --addr: the full gRPC round
// trip over the client's connection).
type benchResult struct {
	// Type is the search type measured, when --type lists several (each
	// prints its own line); absent otherwise.
	Type string `json:"type,omitempty"`
	// Tools is the catalog size searched.
	Tools int `json:"tools"`
	// Queries is the number of searches measured (after warm-up).
	Queries     int     `json:"queries"`
	Concurrency int     `json:"concurrency"`
	QPS         float64 `json:"qps"`
	P50         uint64  `json:"p50_us"`
	P90         uint64  `json:"p90_us"`
	P99         uint64  `json:"p99_us"`
	Max         uint64  `json:"max_us"`
	// Errors counts searches that returned an error.
	Errors int `json:"errors"`
	// IndexBuildMs is the time from loading the catalog to every tool
	// embedded and indexed, in-process; null with --addr.
	IndexBuildMs *int64 `json:"index_build_ms"`
	// RSSMB is the resident set size (VmRSS) at the end of the run, in MiB:
	// this process's, or --rss-pid's.
	RSSMB float64 `json:"rss_mb"`
	// RSSPeakMB is the peak resident set size (VmHWM) over the whole run,
	// index build included, in MiB: this process's, or --rss-pid's.
	RSSPeakMB float64 `json:"rss_peak_mb"`
	// HeapMB is the live Go heap (HeapAlloc right after a garbage
	// collection) at the end of the run, in MiB, in-process; 0 with --addr.
	// It is what the catalog keeps, without the garbage RSS also holds; the
	// sidecar's memory budget (search.EstimateBytes) is fitted to it.
	HeapMB float64 `json:"heap_mb"`
	// Recall is HNSW recall@10 against exact search over sampled query
	// vectors, in-process; null with --addr or without an embedder.
	Recall *float64 `json:"hnsw_recall@10"`
}

// benchSearcher runs one search.
type benchSearcher func(ctx context.Context, query string) error

// benchDefaults.
const (
	// benchQueries is how many distinct queries are drawn for a workload;
	// they are cycled through. 2,000 keeps the query-vector cache (1,024
	// entries) from answering every semantic query, as a real agent
	// population would.
	benchQueries = 2000
	// benchRecallQueries is how many of them recall@10 is measured on.
	benchRecallQueries = 500
	// benchMaxResults is the max_results of every search: the sidecar's
	// default for a model.
	benchMaxResults = 5
	// benchSeed seeds synthetic catalogs and query draws.
	benchSeed = 1
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "", stderr)
	catalogs := stringList{}
	fs.Var(&catalogs, "catalog", "catalog file to load in-process (repeatable)")
	synthetic := fs.Int("synthetic", 0, "generate a synthetic catalog of N tools (deterministic in --seed) instead of --catalog")
	seed := fs.Int64("seed", benchSeed, "seed of the synthetic catalog and of the query draw")
	queryFile := fs.String("queries", "", "queries to run: a JSONL file as eval reads, or plain text, one query a line (default: drawn from the catalog)")
	nQueries := fs.Int("query-count", benchQueries, "how many distinct queries to draw when --queries is not given")
	addr := fs.String("addr", "", "benchmark a running sidecar at host:port over gRPC instead of an in-process engine")
	tokens := newTokenFlags(fs)
	conns := fs.Int("conns", 1, "with --addr: gRPC connections the workers share")
	health := fs.Bool("health", false, "with --addr: call the gRPC health check instead of Search, to measure the transport's round trip alone")
	typ := fs.String("type", "default", "search type: default, semantic, keyword or regex; in-process, a comma-separated list measures each in turn on one engine (one JSON line each, with its type)")
	maxResults := fs.Int("max-results", benchMaxResults, "max_results of every search")
	concurrency := fs.Int("concurrency", 1, "concurrent searches (workers)")
	duration := fs.Duration("duration", 10*time.Second, "measure for at most this long (0: no time bound)")
	requests := fs.Int("requests", 0, "measure at most this many searches (0: no count bound)")
	warmup := fs.Duration("warmup", time.Second, "run the workload this long before measuring")
	reportEvery := fs.Duration("report-every", 0, "print one JSON line of progress (qps, errors, rss_mb) to stderr this often; 0: none")
	rssPID := fs.Int("rss-pid", 0, "report the RSS of this process (e.g. the sidecar) instead of this one's")
	embedder := fs.String("embedder", "builtin", "in-process embedder: builtin or none")
	cacheDir := fs.String("cache-dir", "", "in-process: keep the embedding cache and the saved vector and keyword indexes in this directory, as the sidecar's --cache-dir does; run twice to measure a warm restart (index_build_ms)")
	var hnsw vectorindex.HNSWConfig
	fs.IntVar(&hnsw.M, "hnsw-m", 0, "in-process: HNSW links per node (0: the index's default)")
	fs.IntVar(&hnsw.EfConstruction, "hnsw-ef-construction", 0, "in-process: HNSW build beam (0: the default)")
	fs.IntVar(&hnsw.EfSearch, "hnsw-ef-search", 0, "in-process: HNSW search beam (0: the default, 128 up to 100k tools and 256 above)")
	quantize := fs.String("quantize", "", "in-process: store and score the vectors as none (float32) or int8 (empty: float32)")
	fs.IntVar(&hnsw.ExactLimit, "hnsw-exact-limit", 0, "in-process: search exactly, without a graph, up to this many tools (0: the engine's default, 16384; -1: always build the graph)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	writeCatalog := fs.String("write-catalog", "", "write the --synthetic catalog to this file as JSONL and exit (to start a sidecar on it)")
	writeQueries := fs.String("write-queries", "", "write the workload's queries to this file, one a line, and exit (for other load tools)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (build and load) to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end of the run to this file")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Sprintf("unexpected arguments %q", fs.Args())}
	case *synthetic < 0:
		return usageError{"--synthetic must be positive"}
	case *synthetic > 0 && len(catalogs) > 0:
		return usageError{"give --synthetic or --catalog, not both"}
	case *writeCatalog != "":
		if *synthetic == 0 {
			return usageError{"--write-catalog needs --synthetic N"}
		}
		tools, _ := syntheticCatalog(*synthetic, *seed)
		return writeJSONL(*writeCatalog, tools)
	case *writeQueries != "":
		if *synthetic == 0 {
			return usageError{"--write-queries needs --synthetic N"}
		}
		_, parts := syntheticCatalog(*synthetic, *seed)
		return os.WriteFile(*writeQueries, []byte(strings.Join(syntheticQueries(parts, *nQueries, *seed), "\n")+"\n"), 0o644)
	case *addr == "" && *synthetic == 0 && len(catalogs) == 0:
		return usageError{"give --catalog or --synthetic N (in-process), or --addr (a running sidecar)"}
	case *addr != "" && len(catalogs) > 0:
		return usageError{"--catalog loads in-process; with --addr the sidecar has the catalog (give --queries, or --synthetic N to draw its queries)"}
	case *concurrency < 1 || *conns < 1:
		return usageError{"--concurrency and --conns must be at least 1"}
	case *duration <= 0 && *requests <= 0:
		return usageError{"bound the run: give --duration or --requests (or both)"}
	case *duration < 0 || *requests < 0 || *warmup < 0:
		return usageError{"--duration, --requests and --warmup must not be negative"}
	}
	typeNames := strings.Split(*typ, ",")
	if len(typeNames) > 1 && *addr != "" {
		return usageError{"--type takes one type with --addr"}
	}
	var err error
	types := make([]toolsearchv1.SearchType, len(typeNames))
	for i, name := range typeNames {
		if types[i], err = parseSearchType(name); err != nil {
			return err
		}
	}
	st := types[0]
	if hnsw.Quantization, err = vectorindex.ParseQuantization(*quantize); err != nil {
		return usageError{"--" + err.Error()}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	// The catalog and the queries.
	var tools []search.Tool
	var parts []synthTool
	switch {
	case *synthetic > 0:
		tools, parts = syntheticCatalog(*synthetic, *seed)
	case len(catalogs) > 0:
		// Loaded below, inside the timed build, as the sidecar loads it.
	}
	var res benchResult
	res.Concurrency = *concurrency
	var run benchSearcher
	var eng *engine // in-process
	if *addr != "" {
		// The connections close when the bench returns (remoteSearcher).
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		run, res.Tools, err = remoteSearcher(ctx, *addr, tokens, *conns, st, *maxResults, *health, stderr)
		if err != nil {
			return err
		}
	} else {
		start := time.Now()
		if len(catalogs) > 0 {
			if tools, err = catalog.Load(catalog.ParseSources(catalogs...)...); err != nil {
				return err
			}
		}
		e, err := newEngine(ctx, tools, engineOptions{embedder: *embedder, maxResultsCap: *maxResults, hnsw: hnsw, cacheDir: *cacheDir})
		if err != nil {
			return err
		}
		defer e.Close()
		eng = e
		ms := time.Since(start).Milliseconds()
		res.IndexBuildMs = &ms
		res.Tools = e.Info().ToolCount
	}
	for i, st := range types {
		if eng != nil {
			mode := modeOf(st)
			run = func(ctx context.Context, q string) error {
				_, err := eng.Search(ctx, search.Request{Query: q, Mode: mode, MaxResults: *maxResults})
				return err
			}
		}
		r := res
		if len(types) > 1 {
			r.Type = typeNames[i]
		}
		out, err := measureBench(ctx, benchRun{run: run, eng: eng, res: r, recall: i == 0, st: st, typ: typeNames[i],
			queryFile: *queryFile, tools: tools, parts: parts, nQueries: *nQueries, seed: *seed,
			concurrency: *concurrency, duration: *duration, requests: *requests, warmup: *warmup, reportEvery: *reportEvery,
			rssPID: *rssPID, memProfile: *memProfile, asJSON: *asJSON}, stdout, stderr)
		if err != nil {
			return err
		}
		res.Recall = out.Recall // a property of the index: measured once
	}
	return nil
}

// benchRun is one workload of a bench run: a search type on a built engine
// (or a remote sidecar).
type benchRun struct {
	run              benchSearcher
	eng              *engine // in-process; nil with --addr
	res              benchResult
	recall           bool // measure recall@10 (once per engine)
	st               toolsearchv1.SearchType
	typ              string
	queryFile        string
	tools            []search.Tool
	parts            []synthTool
	nQueries         int
	seed             int64
	concurrency      int
	duration, warmup time.Duration
	reportEvery      time.Duration
	requests, rssPID int
	memProfile       string
	asJSON           bool
}

// measureBench runs one workload, prints its result and returns it.
func measureBench(ctx context.Context, b benchRun, stdout, stderr io.Writer) (benchResult, error) {
	res, eng, run := b.res, b.eng, b.run
	queries, err := benchQueryList(b.queryFile, b.tools, b.parts, b.nQueries, b.seed, b.st == toolsearchv1.SearchType_SEARCH_TYPE_REGEX)
	if err != nil {
		return res, err
	}
	if len(queries) == 0 {
		return res, usageError{"no queries: give --queries, or --synthetic N so queries can be drawn"}
	}
	if b.recall && eng != nil && eng.Info().Embedder != "" {
		sample := queries[:min(len(queries), benchRecallQueries)]
		r, n, err := eng.VectorRecall(ctx, sample, 10)
		if err != nil {
			return res, err
		}
		if n > 0 {
			res.Recall = &r
		}
	}

	if b.warmup > 0 {
		drive(ctx, run, queries, b.concurrency, b.warmup, 0, 0, nil)
	}
	var progress func(done, errs uint64, elapsed time.Duration)
	if b.reportEvery > 0 {
		enc := json.NewEncoder(stderr)
		var lastDone, lastErrs uint64
		var lastAt time.Duration
		progress = func(done, errs uint64, at time.Duration) {
			line := struct {
				ElapsedS float64 `json:"elapsed_s"`
				QPS      float64 `json:"qps"`
				Done     uint64  `json:"done"`
				Errors   uint64  `json:"errors"`
				RSSMB    float64 `json:"rss_mb"`
			}{at.Seconds(), float64(done-lastDone) / (at - lastAt).Seconds(), done, errs - lastErrs, rssMB(b.rssPID)}
			lastDone, lastErrs, lastAt = done, errs, at
			enc.Encode(line)
		}
	}
	h, errs, wall := drive(ctx, run, queries, b.concurrency, b.duration, b.requests, b.reportEvery, progress)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	res.Queries = int(h.n)
	res.Errors = int(errs)
	if wall > 0 {
		res.QPS = float64(h.n) / wall.Seconds()
	}
	res.P50, res.P90, res.P99 = h.quantile(0.50), h.quantile(0.90), h.quantile(0.99)
	res.Max = uint64(h.max / time.Microsecond)
	res.RSSMB = rssMB(b.rssPID)
	res.RSSPeakMB = procStatusMB(b.rssPID, "VmHWM:")
	if eng != nil {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		res.HeapMB = float64(ms.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(eng)
	}
	if b.memProfile != "" {
		f, err := os.Create(b.memProfile)
		if err != nil {
			return res, err
		}
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		f.Close()
		if err != nil {
			return res, err
		}
	}
	if b.asJSON {
		out, err := json.Marshal(res)
		if err != nil {
			return res, err
		}
		_, err = fmt.Fprintln(stdout, string(out))
		return res, err
	}
	return res, printBench(stdout, res, b.typ)
}

// drive runs the workload: concurrency workers take queries in turn (cycling
// through them) until limit searches were started or d has passed,
// whichever is first (a zero bound does not apply). It returns the merged
// latency histogram, the error count and the wall time. When every > 0,
// progress is called that often with the searches and errors so far.
func drive(ctx context.Context, run benchSearcher, queries []string, concurrency int, d time.Duration, limit int, every time.Duration, progress func(done, errs uint64, at time.Duration)) (*latencyHistogram, uint64, time.Duration) {
	var next, done, errs atomic.Uint64
	start := time.Now()
	var deadline time.Time
	if d > 0 {
		deadline = start.Add(d)
	}
	hists := make([]*latencyHistogram, concurrency)
	var wg sync.WaitGroup
	for w := range concurrency {
		h := &latencyHistogram{}
		hists[w] = h
		wg.Go(func() {
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if limit > 0 && i >= uint64(limit) {
					return
				}
				t0 := time.Now()
				if !deadline.IsZero() && !t0.Before(deadline) {
					return
				}
				err := run(ctx, queries[i%uint64(len(queries))])
				h.record(time.Since(t0))
				if err != nil {
					errs.Add(1)
				}
				done.Add(1)
			}
		})
	}
	stop := make(chan struct{})
	var pwg sync.WaitGroup
	if every > 0 && progress != nil {
		pwg.Go(func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					progress(done.Load(), errs.Load(), time.Since(start))
				}
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	close(stop)
	pwg.Wait()
	total := &latencyHistogram{}
	for _, h := range hists {
		total.merge(h)
	}
	return total, errs.Load(), wall
}

// remoteSearcher connects to a sidecar, waits until its index is ready (or
// it has no embedder), and returns a searcher over conns connections (one
// that calls the health service instead, with health) and the sidecar's
// catalog size. The connections close when ctx ends.
func remoteSearcher(ctx context.Context, addr string, tokens tokenFlags, conns int, st toolsearchv1.SearchType, maxResults int, health bool, stderr io.Writer) (benchSearcher, int, error) {
	clients := make([]*toolsearch.Client, conns)
	for i := range clients {
		c, err := tokens.dial(addr)
		if err != nil {
			return nil, 0, err
		}
		context.AfterFunc(ctx, func() { c.Close() })
		clients[i] = c
	}
	tools, err := waitReady(ctx, clients[0], 5*time.Minute, stderr)
	if err != nil {
		return nil, 0, err
	}
	var rr atomic.Uint64
	opts := []toolsearch.SearchOption{toolsearch.WithSearchType(st), toolsearch.WithMaxResults(maxResults)}
	return func(ctx context.Context, q string) error {
		c := clients[rr.Add(1)%uint64(len(clients))]
		if health {
			_, err := c.Health(ctx)
			return err
		}
		_, err := c.Search(ctx, q, opts...)
		return err
	}, tools, nil
}

// waitReady polls the sidecar's catalog info until its semantic index is
// ready or it is lexical-only, for at most limit, and returns its tool count.
func waitReady(ctx context.Context, c *toolsearch.Client, limit time.Duration, stderr io.Writer) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	said := false
	for {
		info, err := c.CatalogInfo(ctx)
		if err == nil {
			switch info.GetIndexState() {
			case toolsearchv1.IndexState_INDEX_STATE_READY, toolsearchv1.IndexState_INDEX_STATE_LEXICAL_ONLY:
				return int(info.GetToolCount()), nil
			}
		}
		if !said {
			fmt.Fprintln(stderr, "bench: waiting for the sidecar's index to be ready")
			said = true
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = errors.New("index not ready")
			}
			return 0, fmt.Errorf("sidecar at %s not ready after %s: %w", limit, limit, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// benchQueryList returns the workload's queries: from file when given,
// else drawn from the synthetic catalog's parts (regex patterns when regex
// is set, see syntheticPatterns), else from the catalog's own words.
func benchQueryList(file string, tools []search.Tool, parts []synthTool, n int, seed int64, regex bool) ([]string, error) {
	switch {
	case file != "":
		return readQueries(file)
	case parts != nil && regex:
		return syntheticPatterns(parts, n, seed), nil
	case parts != nil:
		return syntheticQueries(parts, n, seed), nil
	default:
		return catalogQueries(tools, n, seed), nil
	}
}

// readQueries reads a query file: JSONL as eval reads it ({"query": …} per
// line), or plain text with one query a line.
func readQueries(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		qs, err := evaluation.LoadQueries(path)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(qs))
		for i, q := range qs {
			out[i] = q.Query
		}
		return out, nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if q := strings.TrimSpace(sc.Text()); q != "" {
			out = append(out, q)
		}
	}
	return out, sc.Err()
}

// catalogQueries draws n queries from a catalog's own words: a run of 3 to
// 8 words of a random tool's description, deterministic in seed.
func catalogQueries(tools []search.Tool, n int, seed int64) []string {
	if len(tools) == 0 {
		return nil
	}
	rng := rand.New(rand.NewSource(seed ^ 0x5eed))
	out := make([]string, 0, n)
	for len(out) < n {
		words := strings.Fields(tools[rng.Intn(len(tools))].Description)
		if len(words) == 0 {
			continue
		}
		k := min(len(words), 3+rng.Intn(6))
		i := rng.Intn(len(words) - k + 1)
		out = append(out, strings.Join(words[i:i+k], " "))
	}
	return out
}

// writeJSONL writes tools as a JSONL catalog that the sidecar and catalog.Load read back.
func writeJSONL(path string, tools []search.Tool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, t := range tools {
		rec := struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
			Server      string          `json:"server,omitempty"`
		}{t.Name, t.Description, t.InputSchema, t.Server}
		if err := enc.Encode(rec); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rssMB returns the VmRSS of process pid (0: this process) in MiB, from
// /proc; 0 where /proc is not available.
func rssMB(pid int) float64 { return procStatusMB(pid, "VmRSS:") }

// procStatusMB reads a size field of /proc/PID/status (this process's
// when pid is 0), in MiB; 0 when it cannot be read.
func procStatusMB(pid int, field string) float64 {
	p := "/proc/self/status"
	if pid > 0 {
		p = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest) // "123456 kB"
			if len(f) > 0 {
				kb, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}

// printBench prints the readable table.
func printBench(w io.Writer, r benchResult, typ string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	build, recall := "-", "-"
	if r.IndexBuildMs != nil {
		build = fmt.Sprintf("%d ms", *r.IndexBuildMs)
	}
	if r.Recall != nil {
		recall = fmt.Sprintf("%.4f", *r.Recall)
	}
	fmt.Fprintf(tw, "tools\t%d\n", r.Tools)
	fmt.Fprintf(tw, "search type\t%s\n", typ)
	fmt.Fprintf(tw, "searches\t%d (%d errors)\n", r.Queries, r.Errors)
	fmt.Fprintf(tw, "concurrency\t%d\n", r.Concurrency)
	fmt.Fprintf(tw, "throughput\t%.0f searches/s\n", r.QPS)
	fmt.Fprintf(tw, "latency\tp50 %d µs   p90 %d µs   p99 %d µs   max %d µs\n", r.P50, r.P90, r.P99, r.Max)
	fmt.Fprintf(tw, "index build\t%s\n", build)
	fmt.Fprintf(tw, "rss\t%.1f MB (peak %.1f MB)\n", r.RSSMB, r.RSSPeakMB)
	fmt.Fprintf(tw, "live heap\t%.1f MB\n", r.HeapMB)
	fmt.Fprintf(tw, "hnsw recall@10\t%s\n", recall)
	return tw.Flush()
}
