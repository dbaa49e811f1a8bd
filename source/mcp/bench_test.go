package mcp_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/search"
	source "github.com/toolsearch/toolsearch/source/mcp"
)

// benchEngine is a real engine with the built-in model, embedder calls
// counted.
func benchEngine(b *testing.B) (*search.Engine, *embedtest.Counting) {
	b.Helper()
	builtin, err := embed.NewBuiltin()
	if err != nil {
		b.Fatal(err)
	}
	emb := &embedtest.Counting{Inner: builtin}
	snap, _ := catalog.NewSnapshot(nil)
	e, err := search.New(snap, search.Config{Embedder: emb, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e, emb
}

// BenchmarkStartup measures start-up with N stdio servers of 100 tools
// each (Go SDK servers run as child processes): Start to WaitStartup, every
// server started, initialized, listed, and its tools applied and embedded.
func BenchmarkStartup(b *testing.B) {
	for _, n := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				e, _ := benchEngine(b)
				var servers []source.ServerConfig
				for i := range n {
					servers = append(servers, selfServer("s"+strconv.Itoa(i), "many", envTools+"=100"))
				}
				m, err := source.New(source.Config{Servers: servers, Catalog: engineCatalog{e}, Log: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				m.Start()
				if err := m.WaitStartup(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if got := e.Snapshot().Len(); got != 100*n {
					b.Fatalf("%d tools, want %d", got, 100*n)
				}
				m.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkStartupEverything measures start-up with the npm reference
// server-everything over stdio through npx (skipped when not installed).
func BenchmarkStartupEverything(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("testdata", "servers"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "mcp-server-everything")); err != nil {
		b.Skip("run make mcp-servers")
	}
	for b.Loop() {
		b.StopTimer()
		e, _ := benchEngine(b)
		spec, _ := source.ParseSpec("everything=npx -y @modelcontextprotocol/server-everything")
		spec.Dir = dir
		m, err := source.New(source.Config{Servers: []source.ServerConfig{spec}, Catalog: engineCatalog{e}, Log: slog.New(slog.DiscardHandler),
			ListTimeout: 2 * time.Minute}) // measure however long npx takes
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		m.Start()
		if err := m.WaitStartup(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if e.Snapshot().Len() == 0 {
			b.Fatal("no tools")
		}
		m.Close()
		b.StartTimer()
	}
}

// BenchmarkRelist measures a tools/list_changed round trip on a server
// with N tools: a tool is added at the server (through CallTool), the
// server notifies, the manager re-lists every page, diffs by content hash
// and applies the one new tool; an op ends when a search can find it.
// embeds/op counts texts embedded per change: 1 means no unchanged tool
// was re-embedded.
func BenchmarkRelist(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			e, emb := benchEngine(b)
			m, err := source.New(source.Config{Servers: []source.ServerConfig{selfServer("dyn", "dynamic", envTools+"="+strconv.Itoa(n))},
				Catalog: engineCatalog{e}, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			m.Start()
			if err := m.WaitStartup(context.Background()); err != nil {
				b.Fatal(err)
			}
			if err := e.WaitIndexed(context.Background()); err != nil {
				b.Fatal(err)
			}
			before := emb.Texts()
			i := 0
			for b.Loop() {
				name := "added_" + strconv.Itoa(i)
				i++
				if _, err := m.CallTool(context.Background(), "dyn__add_tool", map[string]any{"name": name, "description": "Added tool " + name + " for the benchmark."}, nil); err != nil {
					b.Fatal(err)
				}
				deadline := time.Now().Add(10 * time.Second)
				for {
					if _, ok := e.Snapshot().Lookup("dyn__" + name); ok {
						break
					}
					if time.Now().After(deadline) {
						b.Fatal("change not applied within 10 s")
					}
					time.Sleep(100 * time.Microsecond)
				}
			}
			b.ReportMetric(float64(emb.Texts()-before)/float64(i), "embeds/op")
			b.ReportMetric(float64(m.Status()[0].ListMillis), "list-ms")
		})
	}
}
