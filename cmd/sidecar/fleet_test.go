package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// bfclTools is the bfcl dev catalog (2,015 tools).
const bfclTools = "../../../shared/bench/bfcl/tools.jsonl"

// slowEmbedder is the built-in model made slow on purpose: every document
// text costs perText more, as a CPU Ollama model would (nomic-embed-text
// takes about 5-20 ms a text on 2 cores). It is a test stand-in for a slow
// embedder, not a fake: the vectors are the real model's. It counts the
// document texts it embedded.
type slowEmbedder struct {
	embed.Embedder
	perText time.Duration
	docs    atomic.Int64
}

func (s *slowEmbedder) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	if kind == embed.Document {
		s.docs.Add(int64(len(texts)))
		select {
		case <-time.After(time.Duration(len(texts)) * s.perText):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.Embedder.Embed(ctx, kind, texts)
}

// fleetPod is one sidecar of a fleet test.
type fleetPod struct {
	c      *toolsearch.Client
	emb    *slowEmbedder
	ready  time.Duration // from start to SERVING with --ready-when semantic
	stderr *logbuf.Buffer
	stop   func()
}

// startPod runs a sidecar with --store and --ready-when semantic over
// catalog, with its model behind a slowEmbedder.
func startPod(t *testing.T, catalog, storeURL string, perText time.Duration, args ...string) *fleetPod {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &fleetPod{emb: &slowEmbedder{perText: perText}, stderr: &logbuf.Buffer{}}
	ready := make(chan net.Addr, 1)
	h := hooks{ready: ready, wrapEmbedder: func(e embed.Embedder) embed.Embedder {
		p.emb.Embedder = e
		return p.emb
	}}
	done := make(chan int, 1)
	start := time.Now()
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", catalog,
			"--store", storeURL, "--ready-when", "semantic", "--learn", "--cache-dir", t.TempDir()}, args...),
			env(nil), p.stderr, h)
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
		p.ready = time.Since(start)
	case code := <-done:
		cancel()
		t.Fatalf("sidecar exited with %d before serving: %s", code, p.stderr.String())
	}
	c, err := toolsearch.Dial(addr.String())
	if err != nil {
		t.Fatal(err)
	}
	p.c = c
	var stopped bool
	p.stop = func() {
		if stopped {
			return
		}
		stopped = true
		c.Close()
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; log: %s", code, p.stderr.String())
		}
	}
	t.Cleanup(p.stop)
	return p
}

// eventually waits for cond (testenv.WaitFor) and fails the test if that
// took longer than bar: the bar for the fleet's delays (60 s for a
// learned use, 10 s for a catalog change), two orders of magnitude above
// the measured ~0.2 s, so a loaded machine does not decide the verdict.
func eventually(t *testing.T, bar time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	d := testenv.WaitFor(t, what, cond)
	if d > bar {
		t.Errorf("%s took %s, past the bar of %s", what, d.Round(time.Millisecond), bar)
	}
	return d
}

// The bar: one PostgreSQL, a slow embedder, two sidecars with
// --store on the bfcl dev catalog. The second (empty --cache-dir) embeds
// nothing (every vector comes from the shared cache), so it reaches
// semantic search much faster; a use reported on the first shows in the
// second's GetLearned; a tool upserted on the first is found by a search
// on the second.
func TestFleetBar(t *testing.T) {
	url := pgtest.NewDB(t)
	const perText = 2 * time.Millisecond // 2,015 tools: ≥ 4 s of embedding
	ctx := context.Background()

	a := startPod(t, bfclTools, url, perText)
	if n := a.emb.docs.Load(); n < 2015 {
		t.Fatalf("first pod embedded %d document texts, want every tool (2,015)", n)
	}
	b := startPod(t, bfclTools, url, perText)
	if n := b.emb.docs.Load(); n != 0 {
		t.Errorf("second pod embedded %d document texts, want 0: every vector from the shared cache", n)
	}
	t.Logf("semantic-ready: first pod %s, second pod %s (%.1fx faster)", a.ready.Round(time.Millisecond),
		b.ready.Round(time.Millisecond), a.ready.Seconds()/b.ready.Seconds())

	// A use reported on the first pod reaches the second's GetLearned.
	const tool = "solve_quadratic"
	if _, err := a.c.Search(ctx, "roots of a quadratic equation", toolsearch.WithSessionID("fleet-s1"), toolsearch.WithMaxResults(10)); err != nil {
		t.Fatal(err)
	}
	rep, err := a.c.ReportToolUse(ctx, "fleet-s1", tool, toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS)
	if err != nil || !rep.GetRecorded() {
		t.Fatalf("ReportToolUse on the first pod = %v, %v", rep, err)
	}
	d := eventually(t, 60*time.Second, "the use in the second pod's GetLearned", func() bool {
		got, err := b.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
		return err == nil && len(got.GetTools()) == 1 && len(got.GetTools()[0].GetQueries()) == 1
	})
	t.Logf("report on the first pod to GetLearned on the second: %s", d.Round(time.Millisecond))
	// A reset on the second pod (toolsearch learned --reset) forgets it on the first.
	if _, err := b.c.Raw().ResetLearned(ctx, &toolsearchv1.ResetLearnedRequest{ToolName: tool}); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "the reset on the first pod", func() bool {
		_, err := a.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
		return status.Code(err) == codes.NotFound
	})

	// A tool upserted on the first pod is found by a search on the second.
	up, err := a.c.UpsertTools(ctx, &toolsearchv1.Tool{Name: "pager__page_oncall", Server: "pager",
		Description: "Page the on-call engineer about a production outage."})
	if err != nil {
		t.Fatal(err)
	}
	d = eventually(t, 10*time.Second, "the upserted tool in a search on the second pod", func() bool {
		res, err := b.c.Search(ctx, "page the on-call engineer about an outage")
		return err == nil && len(res.GetToolReferences()) > 0 && res.GetToolReferences()[0].GetToolName() == "pager__page_oncall"
	})
	t.Logf("upsert on the first pod (catalog version %d) to search on the second: %s", up.GetCatalogVersion(), d.Round(time.Millisecond))
}

// storeState reads the store's part of /statusz.
func storeState(t *testing.T, metricsAddr string) storeStatus {
	t.Helper()
	resp, err := http.Get("http://" + metricsAddr + "/statusz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Store *storeStatus `json:"store"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Store == nil {
		t.Fatalf("/statusz has no store: %v", err)
	}
	return *out.Store
}

// Faults never stop the search: PostgreSQL down at start-up, killed
// mid-run and restarted. Searches keep answering throughout; reports made
// while it is down are buffered and arrive after the restart; /statusz and
// the metrics show the store's state.
func TestFleetSurvivesPostgresFaults(t *testing.T) {
	srv := pgtest.Start(t)
	srv.Kill() // down at start-up
	url := srv.URL("postgres")
	r := launch(t, "--store", url, "--learn", "--learn-report-rate", "6000")
	c, err := toolsearch.Dial(r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if st := storeState(t, r.metricsAddr); st.State == "ready" {
		t.Fatalf("store ready while PostgreSQL is down: %+v", st)
	}
	// report searches (revealing the tool) and reports one use of it.
	report := func(session string) {
		t.Helper()
		res, err := c.Search(ctx, "send a message to the team channel", toolsearch.WithSessionID(session))
		if err != nil || len(res.GetToolReferences()) == 0 {
			t.Fatalf("search while the store is down: %v, %v", res, err)
		}
		rep, err := c.ReportToolUse(ctx, session, res.GetToolReferences()[0].GetToolName(), toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS)
		if err != nil || !rep.GetRecorded() {
			t.Fatalf("ReportToolUse while the store is down = %v, %v", rep, err)
		}
	}
	report("down-at-start")
	if st := storeState(t, r.metricsAddr); st.Buffered != 1 || st.LastError == "" {
		t.Errorf("store while down: %+v; want 1 buffered write and the last error", st)
	}
	metrics := func() string {
		resp, err := http.Get("http://" + r.metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if m := metrics(); !strings.Contains(m, "toolsearch_store_up 0") || !strings.Contains(m, "toolsearch_store_buffered_writes 1") {
		t.Errorf("metrics while down lack toolsearch_store_up 0 and 1 buffered write")
	}

	events := func() int {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return -1
		}
		defer conn.Close(ctx)
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM toolsearch_learn_events`).Scan(&n); err != nil {
			return -1
		}
		return n
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "the buffered report written after PostgreSQL started", func() bool { return events() == 1 })
	testenv.WaitFor(t, "store ready", func() bool { return storeState(t, r.metricsAddr).State == "ready" })

	// Killed mid-run: searches go on, a report is buffered.
	srv.Kill()
	for range 20 {
		if res, err := c.Search(ctx, "create an issue"); err != nil || len(res.GetToolReferences()) == 0 {
			t.Fatalf("search with PostgreSQL killed: %v, %v", res, err)
		}
	}
	report("killed-mid-run")
	testenv.WaitFor(t, "store down after the kill", func() bool { return storeState(t, r.metricsAddr).State == "down" })
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "the report buffered during the outage written after the restart", func() bool { return events() == 2 })
	st := storeState(t, r.metricsAddr)
	if st.Dropped != 0 || st.Reconnects < 1 {
		t.Errorf("store after the restart: %+v; want nothing dropped and a reconnect", st)
	}
}

// The poisoning test across a fleet: one session's 2,000 reports of tool
// X, for queries unrelated to X, spread over two pods. One session is one
// vote however many pods it reports to: on both pods X's learned weight
// stays at most 1, and X does not rise into the top 3 of those queries.
func TestFleetPoisoningOverTwoPods(t *testing.T) {
	url := pgtest.NewDB(t)
	ctx := context.Background()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, "livemcpbench/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	catalog := evaltest.Bench(t, "livemcpbench/tools.jsonl")
	args := []string{"--learn-report-rate", "1000000"}
	pods := []*fleetPod{startPod(t, catalog, url, 0, args...), startPod(t, catalog, url, 0, args...)}
	const x = "weather__get_weather_by_city"
	var unrelated []evaluation.Query
	for _, q := range qs {
		if !slices.Contains(q.Relevant, x) && !strings.Contains(strings.ToLower(q.Query), "weather") {
			unrelated = append(unrelated, q)
		}
	}
	unrelated = unrelated[:20]
	rankOf := func(c *toolsearch.Client, query string) int {
		t.Helper()
		resp, err := c.Search(ctx, query, toolsearch.WithMaxResults(10))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range resp.GetToolReferences() {
			if r.GetToolName() == x {
				return i + 1
			}
		}
		return 0
	}
	before := make([]int, len(unrelated))
	for i, q := range unrelated {
		before[i] = rankOf(pods[0].c, q.Query)
	}

	// 2,000 reports rather than the single-pod test's 10,000: after each
	// pod's first, the session bound refuses every one; more add time
	// (gRPC calls under the race detector), not coverage.
	const poisoner, reports = "poisoner", 2000
	name := strings.ReplaceAll(strings.ReplaceAll(x, "__", " "), "_", " ")
	recorded := 0
	for i, q := range unrelated {
		c := pods[i%2].c // the attacker spreads its searches and reports over both pods
		resp, err := c.Search(ctx, q.Query+" "+name, toolsearch.WithSessionID(poisoner), toolsearch.WithMaxResults(10))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(resp.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == x }) {
			t.Fatalf("the poisoning search %q does not reveal %s", q.Query+" "+name, x)
		}
	}
	// The reports alternate between the pods, the first two within
	// milliseconds: each pod records the session's first use before it
	// hears of the other's, so the fleet's rule (not one pod's) is what
	// keeps the session at one vote.
	for k := range reports {
		rep, err := pods[k%2].c.ReportToolUse(ctx, poisoner, x, toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS)
		if err != nil {
			t.Fatal(err)
		}
		if rep.GetRecorded() {
			recorded++
		}
	}
	if recorded == 0 {
		t.Fatal("no poisoning report was recorded; the test tests nothing")
	}
	// A marker use on each pod, after the attack: once the other pod has
	// learned it, it has read every event before it (the log is in order).
	for i, p := range pods {
		session, tool := fmt.Sprintf("marker-%d", i), ""
		for _, q := range qs[len(qs)/2+i:] { // a query whose first relevant tool its search reveals
			res, err := p.c.Search(ctx, q.Query, toolsearch.WithSessionID(session), toolsearch.WithMaxResults(10))
			if err != nil {
				t.Fatal(err)
			}
			if q.Relevant[0] != x && slices.ContainsFunc(res.GetToolReferences(), func(r *toolsearchv1.ToolReference) bool { return r.GetToolName() == q.Relevant[0] }) {
				tool = q.Relevant[0]
				break
			}
		}
		if tool == "" {
			t.Fatal("no marker query found")
		}
		if rep, err := p.c.ReportToolUse(ctx, session, tool, toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS); err != nil || !rep.GetRecorded() {
			t.Fatalf("marker report = %v, %v", rep, err)
		}
		other := pods[1-i]
		testenv.WaitFor(t, "the marker on the other pod", func() bool {
			_, err := other.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
			return err == nil
		})
	}
	for i, p := range pods {
		learned, err := p.c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: x})
		if err != nil {
			t.Fatal(err)
		}
		w := learned.GetTools()[0].GetWeight()
		t.Logf("pod %d: %s learned weight %.3f from %d queries (%d of %d reports recorded over both pods)", i, x, w, len(learned.GetTools()[0].GetQueries()), recorded, reports)
		if w > 1+1e-6 {
			t.Errorf("pod %d: %s learned weight %.3f from one session; one session is one vote (≤ 1) across the fleet", i, x, w)
		}
		for j, q := range unrelated {
			if after := rankOf(p.c, q.Query); after >= 1 && after <= 3 && (before[j] == 0 || before[j] > 3) {
				t.Errorf("pod %d, query %q: %s rose to rank %d (was %d) after one session's poisoning", i, q.Query, x, after, before[j])
			}
		}
	}
}
