package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/search"
	source "github.com/toolsearch/toolsearch/source/mcp"
)

// engineCatalog adapts a search engine to source.Catalog, as the sidecar does.
type engineCatalog struct{ e *search.Engine }

func (c engineCatalog) Snapshot() *catalog.Snapshot { return c.e.Snapshot() }
func (c engineCatalog) Apply(ctx context.Context, up []catalog.Tool, del []string) (uint64, error) {
	r, err := c.e.Apply(ctx, up, del)
	return r.CatalogVersion, err
}

// fixture is a real search engine (built-in model, embedder calls
// counted) fed by a manager.
type fixture struct {
	engine *search.Engine
	emb    *embedtest.Counting
	m      *source.Manager
	logs   *logbuf.Buffer
}

func newFixture(t *testing.T, cfg source.Config) *fixture {
	t.Helper()
	builtin, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	emb := &embedtest.Counting{Inner: builtin}
	snap, err := catalog.NewSnapshot(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	logs := &logbuf.Buffer{}
	cfg.Catalog = engineCatalog{e}
	cfg.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m, err := source.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	m.Start()
	// WaitStartup returns by itself within the list timeout (what the
	// manager bounds); the hang guard comes on top of it.
	ctx, cancel := context.WithTimeout(t.Context(), max(cfg.ListTimeout, source.DefaultListTimeout)+testenv.HangGuard(t))
	defer cancel()
	if err := m.WaitStartup(ctx); err != nil {
		t.Fatal(err)
	}
	return &fixture{engine: e, emb: emb, m: m, logs: logs}
}

// status returns one server's status.
func (f *fixture) status(t *testing.T, name string) source.ServerStatus {
	t.Helper()
	for _, s := range f.m.Status() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no status for %s", name)
	return source.ServerStatus{}
}

func (f *fixture) has(name string) bool {
	_, ok := f.engine.Snapshot().Lookup(name)
	return ok
}

// call calls a tool through the manager and returns its text.
func (f *fixture) call(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	res, err := f.m.CallTool(context.Background(), name, args, nil)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("CallTool(%s) = %+v", name, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func TestPagination(t *testing.T) {
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("many", "many")}})
	st := f.status(t, "many")
	if st.State != source.StateUp || st.Tools != 1000 || st.Pages != 10 {
		t.Fatalf("status = %+v, want up with 1000 tools over 10 pages", st)
	}
	snap := f.engine.Snapshot()
	if snap.Len() != 1000 {
		t.Fatalf("catalog has %d tools, want 1000", snap.Len())
	}
	for _, name := range []string{"many__tool_0000", "many__tool_0500", "many__tool_0999"} {
		if _, ok := snap.Lookup(name); !ok {
			t.Errorf("catalog lacks %s", name)
		}
	}
	if snap.Servers()[0] != (catalog.ServerCount{Name: "many", Tools: 1000}) {
		t.Errorf("servers = %v", snap.Servers())
	}
}

func TestListChangedAppliesOnlyTheDifference(t *testing.T) {
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("dyn", "dynamic")}})
	ctx := context.Background()
	if err := f.engine.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	got, _, err := f.engine.Get([]string{"dyn__get_weather"})
	if err != nil {
		t.Fatal(err)
	}
	w := got[0]
	if w.Server != "dyn" || w.Title != "Get_weather" || !strings.Contains(string(w.Annotations), `"readOnlyHint":true`) ||
		!strings.Contains(string(w.OutputSchema), `"ok"`) {
		t.Errorf("dyn__get_weather = %+v: want server, title, annotations and output schema carried", w)
	}
	if d := f.m.Descriptions()["dyn"]; d != dynamicInstructions {
		t.Errorf("description of dyn = %q, want its instructions %q", d, dynamicInstructions)
	}
	v0 := f.engine.Info().CatalogVersion
	f.emb.Seen()

	// A new tool: one embedding, one version.
	f.call(t, "dyn__add_tool", map[string]any{"name": "book_flight", "description": "Book a plane ticket for a trip."})
	took := testenv.WaitFor(t, "new tool indexed", func() bool { return f.has("dyn__book_flight") })
	t.Logf("list_changed → catalog: %v", took)
	testenv.WaitFor(t, "version", func() bool { return f.engine.Info().CatalogVersion == v0+1 })
	if seen := f.emb.Seen(); len(seen) != 1 || !strings.Contains(seen[0], "plane ticket") {
		t.Errorf("after add: embedded %q, want only the new tool", seen)
	}
	res, err := f.engine.Search(ctx, search.Request{Query: "reserve an airplane seat"})
	if err != nil || len(res.References) == 0 || res.References[0].Name != "dyn__book_flight" {
		t.Errorf("search after add = %+v, %v; want dyn__book_flight first", res.References, err)
	}
	f.emb.Seen() // the query

	// A removed tool: no embedding.
	f.call(t, "dyn__remove_tool", map[string]any{"name": "send_email"})
	// The catalog drops the tool first, then the manager its own map (list.go):
	// wait for both, so the check cannot land between the two.
	testenv.WaitFor(t, "removed tool gone", func() bool { return !f.has("dyn__send_email") && !f.m.Serves("dyn__send_email") })
	if seen := f.emb.Seen(); len(seen) != 0 {
		t.Errorf("after remove: embedded %q, want nothing", seen)
	}
	// A changed description: one embedding.
	f.call(t, "dyn__add_tool", map[string]any{"name": "create_ticket", "description": "Open an incident ticket for an outage."})
	testenv.WaitFor(t, "changed tool", func() bool {
		got, _, err := f.engine.Get([]string{"dyn__create_ticket"})
		return err == nil && strings.Contains(got[0].Description, "incident")
	})
	if seen := f.emb.Seen(); len(seen) != 1 || !strings.Contains(seen[0], "incident") {
		t.Errorf("after change: embedded %q, want only the changed tool", seen)
	}
	if v := f.engine.Info().CatalogVersion; v != v0+3 {
		t.Errorf("catalog version %d, want %d: one per applied change", v, v0+3)
	}
}

func TestCallTool(t *testing.T) {
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("dyn", "dynamic")}})
	ctx := context.Background()
	if got := f.call(t, "dyn__get_weather", map[string]any{"city": "Oslo"}); got != `{"city":"Oslo"}` {
		t.Errorf("echo = %q", got)
	}
	if res, err := f.m.CallTool(ctx, "dyn__count", map[string]any{"n": 3}, nil); err != nil || res.Content[0].(*mcp.TextContent).Text != "3" {
		t.Fatalf("count = %+v, %v", res, err)
	}
	// Progress while the call runs: the server sends 3 notifications, then
	// waits until the call is cancelled, which the third one does here.
	var mu sync.Mutex
	var progress []float64
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := f.m.CallTool(cctx, "dyn__count", map[string]any{"n": 3, "wait": true}, &source.CallOptions{OnProgress: func(p *mcp.ProgressNotificationParams) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, p.Progress)
			if len(progress) == 3 {
				cancel()
			}
		}})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call = %v, want context.Canceled", err)
		}
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("the call was not cancelled: progress did not arrive, or cancelling did not end it")
	}
	mu.Lock()
	if !cmp.Equal(progress, []float64{1, 2, 3}) {
		t.Errorf("progress = %v, want 1, 2, 3", progress)
	}
	mu.Unlock()
	for _, name := range []string{"dyn__nope", "other__get_weather", "get_weather"} {
		if _, err := f.m.CallTool(ctx, name, nil, nil); !errors.Is(err, source.ErrUnknownTool) {
			t.Errorf("CallTool(%s) = %v, want ErrUnknownTool", name, err)
		}
		if f.m.Serves(name) {
			t.Errorf("Serves(%s) = true", name)
		}
	}
	if !f.m.Serves("dyn__get_weather") {
		t.Error("Serves(dyn__get_weather) = false")
	}
}

func TestKillAndRestartMidSearch(t *testing.T) {
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("dyn", "dynamic")}})
	ctx := context.Background()
	if err := f.engine.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(f.call(t, "dyn__pid", nil))
	if st := f.status(t, "dyn"); st.PID != pid {
		t.Fatalf("status pid %d, server says %d", st.PID, pid)
	}
	stop := make(chan struct{})
	var searches, misses int
	var searchErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			res, err := f.engine.Search(ctx, search.Request{Query: "weather forecast for a city"})
			searches++
			if err != nil {
				searchErr = err
				return
			}
			if len(res.References) == 0 || res.References[0].Name != "dyn__get_weather" {
				misses++
			}
		}
	})
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "server seen down", func() bool { return f.status(t, "dyn").State == source.StateDown })
	if _, err := f.m.CallTool(ctx, "dyn__get_weather", nil, nil); !errors.Is(err, source.ErrServerUnavailable) {
		t.Errorf("CallTool while down = %v, want ErrServerUnavailable", err)
	}
	if !f.m.Serves("dyn__get_weather") || !f.has("dyn__get_weather") {
		t.Error("tools of a server in its grace period left the catalog")
	}
	testenv.WaitFor(t, "server restarted", func() bool {
		st := f.status(t, "dyn")
		return st.State == source.StateUp && st.PID != pid && st.PID != 0
	})
	close(stop)
	wg.Wait()
	if searchErr != nil || misses > 0 || searches == 0 {
		t.Errorf("searches during the restart: %d, %d without dyn__get_weather first, error %v", searches, misses, searchErr)
	}
	if st := f.status(t, "dyn"); st.Reconnects != 1 || st.Tools != len(dynamicTools)+4 {
		t.Errorf("status after restart = %+v", st)
	}
	if newPID, _ := strconv.Atoi(f.call(t, "dyn__pid", nil)); newPID == pid {
		t.Error("calls reach the killed process")
	}
}

func TestGracePeriodThenRemoval(t *testing.T) {
	fail := filepath.Join(t.TempDir(), "fail")
	f := newFixture(t, source.Config{
		Servers:     []source.ServerConfig{selfServer("dyn", "dynamic", envFailFile+"="+fail)},
		GracePeriod: 700 * time.Millisecond,
	})
	pid, _ := strconv.Atoi(f.call(t, "dyn__pid", nil))
	if err := os.WriteFile(fail, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "down", func() bool { return f.status(t, "dyn").State == source.StateDown })
	if st := f.status(t, "dyn"); st.RemoveAt.IsZero() || !f.has("dyn__get_weather") {
		t.Errorf("just down: status %+v, tools kept %v", st, f.has("dyn__get_weather"))
	}
	testenv.WaitFor(t, "tools removed after the grace period", func() bool { return !f.has("dyn__get_weather") })
	if f.m.Serves("dyn__get_weather") || f.engine.Snapshot().Len() != 0 {
		t.Errorf("after removal: serves %v, %d tools", f.m.Serves("dyn__get_weather"), f.engine.Snapshot().Len())
	}
	if !strings.Contains(f.logs.String(), "past its grace period") {
		t.Error("removal not logged")
	}
	os.Remove(fail)
	testenv.WaitFor(t, "back after the fault clears", func() bool { return f.has("dyn__get_weather") })
}

func TestGarbage(t *testing.T) {
	huge := mcp.NewServer(&mcp.Implementation{Name: "huge-http", Version: "1"}, nil)
	obj := []byte(`{"type":"object"}`)
	huge.AddTool(&mcp.Tool{Name: "ok_tool", Description: "Fine.", InputSchema: jsonRaw(obj)}, echoHandler)
	huge.AddTool(&mcp.Tool{Name: "fifty_mb", Description: strings.Repeat("y", 50<<20), InputSchema: jsonRaw(obj)}, echoHandler)
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{
		selfServer("junk", "garbage"),
		{Name: "huge", URL: httpServer(t, huge, nil)},
		selfServer("good", "dynamic"),
	}, ListTimeout: 2 * time.Minute}) // 50 MB of JSON takes a while under the race detector
	if st := f.status(t, "junk"); st.State != source.StateUp || st.Tools != 1 || st.InvalidTools != 3 {
		t.Errorf("junk status = %+v, want up with 1 tool and 3 left out", st)
	}
	if st := f.status(t, "huge"); st.State != source.StateUp || st.Tools != 1 || st.InvalidTools != 1 {
		t.Errorf("huge status = %+v, want up with 1 tool and 1 left out", st)
	}
	for _, name := range []string{"junk__fine_tool", "huge__ok_tool", "good__get_weather"} {
		if !f.has(name) {
			t.Errorf("catalog lacks %s", name)
		}
	}
	got, _, _ := f.engine.Get([]string{"junk__fine_tool"})
	if got[0].Description != "A valid tool that reads the weather." {
		t.Errorf("the first of two duplicates should be kept, got %q", got[0].Description)
	}
	logs := f.logs.String()
	for _, want := range []string{
		`mcp server junk: tools[1] (\"junk__has space\"): name contains a space`,
		`description is 1048576 bytes long, over the limit of 65536`,
		`duplicate name; first defined at mcp server junk tools[0]`,
		`description is 52428800 bytes long`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q", want)
		}
	}
}

func jsonRaw(b []byte) any { return jsonRawMessage(b) }

// alive reports whether a process runs (a zombie waiting to be reaped by
// init does not count).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func TestCloseLeavesNoOrphans(t *testing.T) {
	childFile := filepath.Join(t.TempDir(), "child.pid")
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("dyn", "dynamic", envChildFile+"="+childFile)}})
	pid := f.status(t, "dyn").PID
	data, err := os.ReadFile(childFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(data))
	if !alive(pid) || !alive(child) {
		t.Fatalf("server %d and its child %d should run", pid, child)
	}
	start := time.Now()
	f.m.Close()
	t.Logf("Close took %v", time.Since(start))
	testenv.WaitFor(t, "server and its child gone", func() bool { return !alive(pid) && !alive(child) })
	if st := f.status(t, "dyn"); st.State != source.StateStopped {
		t.Errorf("state after Close = %s", st.State)
	}
	if !f.has("dyn__get_weather") {
		t.Error("Close removed the tools from the catalog")
	}
}

func TestHTTPHeadersAndBearerToken(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	headers := filepath.Join(dir, "headers")
	if err := os.WriteFile(token, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(headers, []byte("X-Team: search\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url := httpServer(t, dynamicServer(), func(r *http.Request) error {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Team") != "search" || r.Header.Get("X-Static") != "1" {
			return errors.New("missing or wrong credentials")
		}
		return nil
	})
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{
		{Name: "good", URL: url, Headers: map[string]string{"X-Static": "1"}, HeadersFile: headers, BearerTokenFile: token},
		{Name: "notoken", URL: url, Headers: map[string]string{"X-Static": "1"}, HeadersFile: headers},
	}, ListTimeout: 5 * time.Second})
	if st := f.status(t, "good"); st.State != source.StateUp || st.Tools != len(dynamicTools)+4 {
		t.Errorf("good: %+v", st)
	}
	if got := f.call(t, "good__get_weather", map[string]any{"city": "Oslo"}); got != `{"city":"Oslo"}` {
		t.Errorf("call over HTTP = %q", got)
	}
	if st := f.status(t, "notoken"); st.State != source.StateDown || !strings.Contains(st.LastError, "Unauthorized") {
		t.Errorf("notoken: %+v, want down with the server's refusal", st)
	}
}

// A server that never answers (a process that ignores its stdin) and one
// that refuses connections hold up neither the others nor WaitStartup
// beyond ListTimeout; they are retried in the background.
func TestDeadServersDoNotBlockTheOthers(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	start := time.Now()
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{
		{Name: "hung", Command: []string{"sleep", "600"}},
		{Name: "refused", URL: closed},
		selfServer("good", "dynamic"),
	}, ListTimeout: 2 * time.Second})
	t.Logf("WaitStartup returned after %v", time.Since(start))
	if !f.has("good__get_weather") {
		t.Error("the good server's tools are missing")
	}
	for _, name := range []string{"hung", "refused"} {
		if st := f.status(t, name); st.State == source.StateUp || st.LastError == "" {
			t.Errorf("%s: %+v, want not up, with an error", name, st)
		}
	}
	if st := f.status(t, "hung"); !strings.Contains(st.LastError, "raise --mcp-timeout") {
		t.Errorf("hung: error %q does not say which knob to raise", st.LastError)
	}
}

func TestCallToolTraceContext(t *testing.T) {
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{selfServer("tr", "meta")}})
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	tc, ok := tracecontext.FromHeaders(func(k string) string {
		return map[string]string{tracecontext.Header: parent, tracecontext.StateHeader: "congo=t61rcWkgMzE"}[k]
	})
	if !ok {
		t.Fatal("the test's traceparent does not parse")
	}
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"traced", tracecontext.NewContext(context.Background(), tc), `{"traceparent":"` + parent + `","tracestate":"congo=t61rcWkgMzE"}`},
		{"untraced", context.Background(), `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.m.CallTool(tt.ctx, "tr__meta", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The SDK adds its own keys (client info, protocol version).
			var meta map[string]any
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &meta); err != nil {
				t.Fatal(err)
			}
			trace := map[string]any{}
			for _, k := range []string{tracecontext.Header, tracecontext.StateHeader} {
				if v, ok := meta[k]; ok {
					trace[k] = v
				}
			}
			if got, _ := json.Marshal(trace); string(got) != tt.want {
				t.Errorf("the server saw trace context %s in _meta, want %s", got, tt.want)
			}
		})
	}
}

// Live servers that speak only MCP 2026-07-28 (go-sdk servers restricted to
// it: over stdio, and over stateless streamable HTTP, which that version
// needs) are catalog sources and call targets, and their list changes
// (subscriptions/listen) reach the catalog.
func TestOnly2026Servers(t *testing.T) {
	url := serveHTTP(t, dynamicServerWith(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2026-07-28"}}),
		&mcp.StreamableHTTPOptions{Stateless: true}, nil)
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{
		selfServer("stdio26", "dynamic2026"),
		{Name: "http26", URL: url},
	}, ListTimeout: 10 * time.Second})
	for _, name := range []string{"stdio26", "http26"} {
		t.Run(name, func(t *testing.T) {
			if st := f.status(t, name); st.State != source.StateUp || st.Tools != len(dynamicTools)+4 {
				t.Fatalf("%s: %+v, want up with %d tools", name, st, len(dynamicTools)+4)
			}
			if got := f.call(t, name+"__get_weather", map[string]any{"city": "Oslo"}); got != `{"city":"Oslo"}` {
				t.Errorf("call = %q", got)
			}
			f.call(t, name+"__add_tool", map[string]any{"name": "book_flight", "description": "Book a plane ticket for a trip."})
			testenv.WaitFor(t, "the new tool in the catalog", func() bool { return f.has(name + "__book_flight") })
		})
	}
}

// A stdio server whose executable does not exist is tried a few times and
// then given up, with a state and an error /statusz shows, instead of being
// retried forever.
func TestMissingExecutableGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		command string
	}{
		{"not on PATH", "toolsearch-test-no-such-server"},
		{"no such path", filepath.Join(t.TempDir(), "no-such-server")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, source.Config{Servers: []source.ServerConfig{{Name: "gone", Command: []string{tc.command}}}})
			testenv.WaitFor(t, "the server given up", func() bool { return f.status(t, "gone").State == source.StateFailed })
			st := f.status(t, "gone")
			if st.Reconnects != 2 || !strings.Contains(st.LastError, "gave up after 3 tries") || !strings.Contains(st.LastError, "no-such-server") {
				t.Errorf("status %+v; want 2 reconnects and the error naming the command and saying it gave up", st)
			}
		})
	}
}
