package main

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
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

// eventually polls cond every 20 ms until it holds, and returns how long
// that took; past guard it fails the test (a hang guard at the issue's
// bar, far above the normal delay).
func eventually(t *testing.T, guard time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > guard {
			t.Fatalf("%s: not within %s", what, guard)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
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
