package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

// BenchmarkToolSearch compares one search over MCP with the same search over
// gRPC, on synthetic catalogs of 10k and 100k tools with the built-in model,
// every call over loopback: gRPC Search (clients/go), MCP tool_search in
// session mode (a 2025-11-25 go-sdk client whose session keeps revealing
// tools) and in stateless mode (2026-07-28). Each reports its p50 in µs
// (p50-µs) beside Go's mean; B/op and allocs/op include the client's. The
// queries cycle through 200 phrasings, so a session keeps revealing tools
// it had not seen (up to the engine's 64 per session). The "interleaved"
// run calls the three in turn on each query and reports each p50 and the
// MCP/gRPC ratios, which a loaded machine skews least.
//
//	go test -run '^$' -bench BenchmarkToolSearch -benchmem -benchtime 2000x ./mcpserver
func BenchmarkToolSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			tools := synthTools(n)
			snap, err := catalog.NewSnapshot(tools)
			if err != nil {
				b.Fatal(err)
			}
			emb, err := embed.NewBuiltin()
			if err != nil {
				b.Fatal(err)
			}
			engine, err := search.New(snap, search.Config{Embedder: emb})
			if err != nil {
				b.Fatal(err)
			}
			defer engine.Close()
			if err := engine.WaitIndexed(context.Background()); err != nil {
				b.Fatal(err)
			}
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			queries := synthQueries(200)

			gs := server.New(server.Config{Log: log})
			gs.Ready(engine)
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			go gs.Serve(lis)
			defer gs.Shutdown(context.Background())
			gc, err := toolsearch.Dial(lis.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer gc.Close()

			srv, err := mcpserver.New(mcpserver.Config{Engine: engine, Log: log})
			if err != nil {
				b.Fatal(err)
			}
			hs := httptest.NewServer(srv.Handler())
			defer hs.Close()
			defer srv.Close()

			surfaces := []struct {
				name   string
				search func(string) error
			}{{"grpc", func(q string) error {
				_, err := gc.Search(context.Background(), q)
				return err
			}}}
			for _, mode := range []struct{ name, version string }{
				{"mcp-session", "2025-11-25"},
				{"mcp-stateless", mcpserver.StatelessProtocolVersion},
			} {
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
					Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: mode.version})
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				surfaces = append(surfaces, struct {
					name   string
					search func(string) error
				}{mode.name, func(q string) error {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": q}})
					if err == nil && res.IsError {
						err = fmt.Errorf("tool_search(%q): %v", q, res.Content)
					}
					return err
				}})
			}
			for _, sf := range surfaces {
				b.Run(sf.name, func(b *testing.B) { measure(b, sf.search, queries) })
			}
			// The three in turn on each query, so that the load of a
			// shared machine weighs on each alike: the ratios are the
			// figures to compare.
			b.Run("interleaved", func(b *testing.B) {
				took := make([][]time.Duration, len(surfaces))
				for i := 0; b.Loop(); i++ {
					for k, sf := range surfaces {
						start := time.Now()
						if err := sf.search(queries[i%len(queries)]); err != nil {
							b.Fatal(err)
						}
						took[k] = append(took[k], time.Since(start))
					}
				}
				p50 := make([]float64, len(surfaces))
				for k, sf := range surfaces {
					p50[k] = median(took[k])
					b.ReportMetric(p50[k], "p50-"+sf.name+"-µs")
				}
				for k := 1; k < len(surfaces); k++ {
					b.ReportMetric(p50[k]/p50[0], surfaces[k].name+"/grpc")
				}
			})
		})
	}
}

// measure runs search over the queries in turn, once each for warm-up,
// then b.N times, and reports the p50 latency.
func measure(b *testing.B, search func(string) error, queries []string) {
	for _, q := range queries {
		if err := search(q); err != nil {
			b.Fatal(err)
		}
	}
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if err := search(queries[i%len(queries)]); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(median(took), "p50-µs")
}

// median is the median of d in µs.
func median(d []time.Duration) float64 {
	d = slices.Clone(d)
	slices.Sort(d)
	return float64(d[len(d)/2].Microseconds())
}

// Words of the synthetic catalog: n tools named SERVICE__VERB_OBJECT[_N]
// with a sentence of description and a small schema, deterministic.
var (
	synthServices = []string{"github", "gitlab", "jira", "slack", "notion", "linear", "stripe", "shopify", "salesforce", "hubspot",
		"zendesk", "asana", "trello", "dropbox", "gdrive", "gmail", "outlook", "calendar", "twilio", "sendgrid"}
	synthVerbs   = []string{"create", "get", "list", "update", "delete", "search", "archive", "export", "import", "share"}
	synthObjects = []string{"issue", "message", "channel", "page", "ticket", "invoice", "customer", "order", "file", "event",
		"contact", "deal", "task", "board", "comment", "report", "user", "team", "project", "webhook"}
)

func synthTools(n int) []catalog.Tool {
	r := rand.New(rand.NewSource(1))
	out := make([]catalog.Tool, n)
	for i := range out {
		s, v, o := synthServices[i%len(synthServices)], synthVerbs[(i/len(synthServices))%len(synthVerbs)], synthObjects[r.Intn(len(synthObjects))]
		out[i] = catalog.Tool{
			Name:        fmt.Sprintf("%s__%s_%s_%d", s, v, o, i),
			Server:      s,
			Description: fmt.Sprintf("%s a %s in %s. Returns the %s with its id and owner.", strings.ToUpper(v[:1])+v[1:], o, s, o),
			InputSchema: []byte(fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"The id of the %s."},"limit":{"type":"integer"}},"required":["%s_id"]}`, o, o, o)),
		}
	}
	return out
}

func synthQueries(n int) []string {
	r := rand.New(rand.NewSource(2))
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s a %s in %s", synthVerbs[r.Intn(len(synthVerbs))], synthObjects[r.Intn(len(synthObjects))], synthServices[r.Intn(len(synthServices))])
	}
	return out
}

// BenchmarkIdleSession measures the server's memory per idle session-mode
// HTTP session (the figure behind SessionMemory): b.N sessions opened with
// raw initialize and initialized requests (the client keeps only their
// ids), live heap after a GC and goroutine stacks, per session.
//
//	go test -run '^$' -bench BenchmarkIdleSession -benchtime 2000x ./mcpserver
func BenchmarkIdleSession(b *testing.B) {
	engine, err := newEngine(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer engine.Close()
	srv, err := mcpserver.New(mcpserver.Config{Engine: engine, MaxSessions: 1 << 30, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer srv.Close()
	post := func(body, session string) string {
		req, err := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.Header.Get("Mcp-Session-Id")
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc + m.StackInuse
	}
	ids := make([]string, 0, b.N)
	before := heap()
	for b.Loop() {
		id := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`, "")
		post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, id)
		ids = append(ids, id)
	}
	after := heap()
	b.ReportMetric(float64(int64(after)-int64(before))/float64(len(ids)), "B/session")
	if srv.Sessions() != int64(len(ids)) {
		b.Fatalf("%d sessions live, want %d", srv.Sessions(), len(ids))
	}
}
