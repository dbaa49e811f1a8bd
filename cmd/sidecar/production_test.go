package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// running is a sidecar started with run, in-process, on loopback ports.
type running struct {
	addr        string // gRPC
	metricsAddr string // "" when disabled
	stderr      *logbuf.Buffer
	cancel      context.CancelFunc
	done        chan int
}

// metricsAddrRE finds the metrics listener's address in the JSON log.
var metricsAddrRE = regexp.MustCompile(`"msg":"metrics listening","addr":"([^"]+)"`)

// launch runs the sidecar on the example catalog with args added to
// --listen and --metrics-listen on 127.0.0.1:0, until it serves. The test's
// cleanup stops it (if the test did not) and expects exit code 0.
func launch(t *testing.T, args ...string) *running {
	t.Helper()
	return launchEnv(t, nil, args...)
}

// launchEnv is launch with the environment vars.
func launchEnv(t *testing.T, vars map[string]string, args ...string) *running {
	t.Helper()
	return launchHooks(t, hooks{}, vars, args...)
}

// launchHooks is launchEnv with the test's hooks (its ready is set here).
func launchHooks(t *testing.T, h hooks, vars map[string]string, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{stderr: &logbuf.Buffer{}, cancel: cancel, done: make(chan int, 1)}
	ready := make(chan net.Addr, 1)
	all := append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--catalog", "../../examples/catalog.json"}, args...)
	h.ready = ready
	go func() { r.done <- run(ctx, all, env(vars), r.stderr, h) }()
	select {
	case a := <-ready:
		r.addr = a.String()
	case code := <-r.done:
		cancel()
		t.Fatalf("sidecar exited with %d before serving:\n%s", code, r.stderr.String())
	case <-time.After(testenv.HangGuard(t)):
		cancel()
		t.Fatalf("sidecar not serving (hang guard):\n%s", r.stderr.String())
	}
	if m := metricsAddrRE.FindStringSubmatch(r.stderr.String()); m != nil {
		r.metricsAddr = m[1]
	}
	t.Cleanup(func() {
		if code := r.stop(t); code != 0 {
			t.Errorf("sidecar exit code %d, want 0; log:\n%s", code, r.stderr.String())
		}
	})
	return r
}

// stop cancels run's context, as SIGTERM does, and returns the exit code;
// -1 if it had stopped already.
func (r *running) stop(t *testing.T) int {
	t.Helper()
	if r.done == nil {
		return 0
	}
	r.cancel()
	defer func() { r.done = nil }()
	select {
	case code := <-r.done:
		return code
	case <-time.After(testenv.HangGuard(t)):
		t.Fatalf("sidecar did not stop (hang guard)")
		return -1
	}
}

// dial is an insecure client of r, closed when the test ends.
func (r *running) dial(t *testing.T, opts ...toolsearch.Option) *toolsearch.Client {
	t.Helper()
	c, err := toolsearch.Dial(r.addr, append([]toolsearch.Option{toolsearch.WithTimeout(testenv.HangGuard(t))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get fetches an HTTP path of the metrics listener.
func (r *running) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + r.metricsAddr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// sample returns the value of one sample line of a Prometheus text
// exposition, e.g. `toolsearch_catalog_tools` or
// `toolsearch_searches_total{answered="keyword",fallback_reason="none",requested="keyword"}`
// (labels in alphabetical order, as client_golang writes them); 0 if absent.
func sample(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("sample %s: %v", line, err)
			}
			return f
		}
	}
	return 0
}

func TestMetricsEndpointCountsRealSearches(t *testing.T) {
	r := launch(t)
	if r.metricsAddr == "" {
		t.Fatalf("no metrics listener in the log:\n%s", r.stderr.String())
	}
	c := r.dial(t)
	ctx := context.Background()
	// The start-up index finishes in the background; wait for it so the
	// searches below are semantic.
	testenv.WaitFor(t, "the index ready in /metrics", func() bool {
		_, body := r.get(t, "/metrics")
		return sample(t, body, `toolsearch_index_state{state="ready"}`) == 1
	})

	if code, body := r.get(t, "/readyz"); code != http.StatusOK || strings.TrimSpace(body) != "SERVING" {
		t.Errorf("/readyz = %d %q, want 200 SERVING", code, body)
	}
	if code, _ := r.get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz = %d, want 200", code)
	}
	_, before := r.get(t, "/metrics")

	const n = 5
	for range n {
		if _, err := c.Search(ctx, "send a message to the team on slack"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Search(ctx, "github", toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD)); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := c.Search(ctx, "^zzz_no_such_tool$", toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX))
	if err != nil || len(resp.GetToolReferences()) != 0 {
		t.Fatalf("regex search for a missing tool: %v, %d results; want none", err, len(resp.GetToolReferences()))
	}
	if _, err := c.Search(ctx, "x", toolsearch.WithMaxResults(-1)); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("max_results -1: %v, want InvalidArgument", err)
	}
	if rep, err := c.ReportToolUse(ctx, "s", "slack__send_message", toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS); err != nil || rep.GetReason() != "learning_disabled" {
		t.Fatalf("ReportToolUse without --learn = %v, %v; want reason learning_disabled", rep, err)
	}
	_, after := r.get(t, "/metrics")

	moved := func(series string) float64 { return sample(t, after, series) - sample(t, before, series) }
	searchOK := `toolsearch_grpc_requests_total{code="OK",method="Search",service="toolsearch.v1.ToolSearchService"}`
	if got := moved(searchOK); got != 2*n+1 {
		t.Errorf("%s moved by %v, want %d", searchOK, got, 2*n+1)
	}
	badArg := `toolsearch_grpc_requests_total{code="InvalidArgument",method="Search",service="toolsearch.v1.ToolSearchService"}`
	if got := moved(badArg); got != 1 {
		t.Errorf("%s moved by %v, want 1", badArg, got)
	}
	keyword := `toolsearch_searches_total{answered="keyword",fallback_reason="none",requested="keyword"}`
	if got := moved(keyword); got != n {
		t.Errorf("%s moved by %v, want %d", keyword, got, n)
	}
	var semantic float64
	for _, answered := range []string{"semantic", "hybrid"} {
		semantic += moved(`toolsearch_searches_total{answered="` + answered + `",fallback_reason="none",requested="semantic"}`)
	}
	if semantic+moved(`toolsearch_searches_total{answered="keyword",fallback_reason="low_confidence",requested="semantic"}`) != n {
		t.Errorf("default-mode searches counted %v times, want %d:\n%s", semantic, n, grepLines(after, "toolsearch_searches_total"))
	}
	if got := moved(`toolsearch_tool_use_reports_total{result="learning_disabled"}`); got != 1 {
		t.Errorf("tool use reports without --learn moved by %v, want 1", got)
	}
	if got := moved(`toolsearch_search_zero_results_total{answered="regex"}`); got != 1 {
		t.Errorf("zero-result regex searches moved by %v, want 1", got)
	}
	if got := moved(`toolsearch_search_stage_duration_seconds_count{stage="total"}`); got != 2*n+1 {
		t.Errorf("total-stage histogram count moved by %v, want %d", got, 2*n+1)
	}
	for _, stage := range []string{"lexical", "query_embedding", "vector_search"} {
		if got := moved(`toolsearch_search_stage_duration_seconds_count{stage="` + stage + `"}`); got < 1 {
			t.Errorf("stage %s histogram did not move", stage)
		}
	}
	// The query vector is cached after the first identical query, so the
	// model sees at least one query call.
	if got := moved(`toolsearch_embedder_calls_total{kind="query"}`); got < 1 {
		t.Errorf("embedder query calls moved by %v, want at least 1", got)
	}
	for series, want := range map[string]float64{
		`toolsearch_catalog_tools`:            67,
		`toolsearch_index_tools`:              67,
		`toolsearch_catalog_version`:          1,
		`toolsearch_limit{limit="max_tools"}`: defaultMaxTools,
	} {
		if got := sample(t, after, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	for _, series := range []string{`toolsearch_index_build_seconds`, `toolsearch_embedder_calls_total{kind="document"}`, `toolsearch_embedder_batch_size_count{kind="document"}`} {
		if sample(t, after, series) <= 0 {
			t.Errorf("%s is not positive", series)
		}
	}
	if !strings.Contains(after, `toolsearch_build_info{version="dev"} 1`) {
		t.Error("no toolsearch_build_info")
	}
}

func grepLines(body, prefix string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// holdSearches is a server interceptor that holds every Search until
// release is closed, counting the searches held.
type holdSearches struct {
	held    atomic.Int32
	release chan struct{}
}

func (h *holdSearches) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if strings.HasSuffix(info.FullMethod, "/Search") {
		h.held.Add(1)
		<-h.release
	}
	return handler(ctx, req)
}

// TestShutdownDrainsSearchesInFlight holds 100 concurrent searches inside
// the server, stops the sidecar as SIGTERM does (run's context ends), and
// checks that readiness drops at once while every search still completes
// with OK, and that the stop is graceful.
func TestShutdownDrainsSearchesInFlight(t *testing.T) {
	h := &holdSearches{release: make(chan struct{})}
	r := launchHooks(t, hooks{serverOptions: []grpc.ServerOption{grpc.ChainUnaryInterceptor(h.intercept)}}, nil)
	c := r.dial(t, toolsearch.WithTimeout(0))

	const n = 100
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := c.Search(context.Background(), fmt.Sprintf("send slack message %d", i))
			errs <- err
		}()
	}
	testenv.WaitFor(t, "all searches held in the server", func() bool { return h.held.Load() == n })

	stopped := make(chan int, 1)
	go func() { stopped <- r.stop(t) }()
	testenv.WaitFor(t, "/readyz to report 503 during the drain", func() bool {
		code, body := r.get(t, "/readyz")
		return code == http.StatusServiceUnavailable && strings.TrimSpace(body) == "NOT_SERVING"
	})
	select {
	case code := <-stopped:
		t.Fatalf("sidecar exited (%d) with %d searches in flight", code, n)
	case <-time.After(100 * time.Millisecond):
	}
	close(h.release)
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("search in flight at shutdown failed: %v", err)
		}
	}
	if code := <-stopped; code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if log := r.stderr.String(); !strings.Contains(log, `"graceful":true`) {
		t.Errorf("shutdown was not graceful:\n%s", log)
	}
}

// TestShutdownDuringSearchStream keeps 16 clients searching in a loop and
// stops the sidecar among them: no search the server accepted fails (every
// logged call is OK), and calls refused after the stop are UNAVAILABLE.
func TestShutdownDuringSearchStream(t *testing.T) {
	r := launch(t)
	c := r.dial(t)
	var ok atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	var failures []error
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				_, err := c.Search(context.Background(), fmt.Sprintf("search the web for news %d %d", i, j))
				if err == nil {
					ok.Add(1)
					continue
				}
				if status.Code(err) != codes.Unavailable {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
				}
				return // refused: the sidecar is stopping
			}
		}()
	}
	testenv.WaitFor(t, "200 searches", func() bool { return ok.Load() >= 200 })
	if code := r.stop(t); code != 0 {
		t.Errorf("exit code %d", code)
	}
	close(stop)
	wg.Wait()
	for _, err := range failures {
		t.Errorf("search failed with other than UNAVAILABLE: %v", err)
	}
	var served, notOK int
	for _, line := range strings.Split(r.stderr.String(), "\n") {
		var rec struct {
			Msg, Method, Code string
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Msg != "rpc" || !strings.HasSuffix(rec.Method, "/Search") {
			continue
		}
		served++
		if rec.Code != "OK" {
			notOK++
			t.Errorf("the server answered a search with %s: %s", rec.Code, line)
		}
	}
	if int64(served) != ok.Load() || notOK != 0 {
		t.Errorf("server answered %d searches (%d not OK), clients got %d OK", served, notOK, ok.Load())
	}
}

func TestAuthToken(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := launch(t, "--auth-token-file", file)
	ctx := context.Background()
	tests := []struct {
		name  string
		token string
		want  codes.Code
	}{
		{"no token", "", codes.Unauthenticated},
		{"wrong token", "s3cret-tokem", codes.Unauthenticated},
		{"token prefix", "s3cret", codes.Unauthenticated},
		{"right token", "s3cret-token", codes.OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := r.dial(t, toolsearch.WithBearerToken(tt.token))
			_, err := c.Search(ctx, "send slack message")
			if status.Code(err) != tt.want {
				t.Errorf("Search: %v, want %v", err, tt.want)
			}
			// Health is exempt: Kubernetes' probes carry no token.
			if ok, err := c.Health(ctx); err != nil || !ok {
				t.Errorf("Health = %v, %v; want SERVING without a token", ok, err)
			}
		})
	}
	t.Run("reflection needs the token", func(t *testing.T) {
		conn, err := grpc.NewClient(r.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		err = conn.Invoke(ctx, "/grpc.health.v1.Health/Check", &healthpb.HealthCheckRequest{}, &healthpb.HealthCheckResponse{})
		if err != nil {
			t.Errorf("raw health check: %v", err)
		}
		stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
		if err == nil {
			_ = stream.CloseSend()
			err = stream.RecvMsg(&healthpb.HealthCheckResponse{})
		}
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("reflection without a token: %v, want Unauthenticated", err)
		}
	})
	if !strings.Contains(r.stderr.String(), `"code":"Unauthenticated"`) {
		t.Error("the log does not show the refused calls")
	}
	if strings.Contains(r.stderr.String(), "s3cret") {
		t.Error("the log shows the token")
	}
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	t.Run("query length", func(t *testing.T) {
		r := launch(t, "--max-query-length", "20")
		c := r.dial(t)
		if _, err := c.Search(ctx, "send slack message"); err != nil {
			t.Errorf("short query: %v", err)
		}
		_, err := c.Search(ctx, "send a slack message to the whole team")
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "--max-query-length") {
			t.Errorf("long query: %v, want InvalidArgument naming --max-query-length", err)
		}
	})
	t.Run("catalog size at start-up", func(t *testing.T) {
		var stderr logbuf.Buffer
		code := run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", "../../examples/catalog.json", "--max-tools", "10"}, env(nil), &stderr, hooks{})
		if code != 1 || !strings.Contains(stderr.String(), "67 tools, over the limit of 10") || !strings.Contains(stderr.String(), "--max-tools") {
			t.Errorf("exit %d, stderr %s; want 1 and the limit", code, stderr.String())
		}
	})
	t.Run("catalog size on upsert", func(t *testing.T) {
		r := launch(t, "--max-tools", "68")
		c := r.dial(t)
		tool := func(name string) *toolsearchv1.Tool {
			return &toolsearchv1.Tool{Name: name, Description: "A test tool."}
		}
		if _, err := c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{tool("t__one")}}); err != nil {
			t.Fatalf("upsert to the limit: %v", err)
		}
		_, err := c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{tool("t__two")}})
		if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-tools") {
			t.Errorf("upsert past the limit: %v, want ResourceExhausted naming --max-tools", err)
		}
		// Replacing a tool does not grow the catalog.
		if _, err := c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{tool("t__one")}}); err != nil {
			t.Errorf("update at the limit: %v", err)
		}
	})
	t.Run("message size", func(t *testing.T) {
		r := launch(t, "--max-message-size", "2048")
		c := r.dial(t)
		big := &toolsearchv1.Tool{Name: "t__big", Description: strings.Repeat("word ", 1000)}
		_, err := c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{big}})
		if status.Code(err) != codes.ResourceExhausted {
			t.Errorf("5 kB message: %v, want ResourceExhausted", err)
		}
	})
	t.Run("bad values", func(t *testing.T) {
		for _, args := range [][]string{
			{"--max-query-length", "5000"}, {"--max-tools", "0"}, {"--max-message-size", "10"},
			{"--max-concurrent-streams", "0"}, {"--request-timeout", "-1s"}, {"--tls-cert", "x.pem"},
			{"--tls-client-ca", "ca.pem"},
		} {
			var stderr logbuf.Buffer
			if code := run(ctx, args, env(nil), &stderr, hooks{}); code != 2 || !strings.Contains(stderr.String(), args[0]) {
				t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", args, code, stderr.String(), args[0])
			}
		}
	})
}
