package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// benchDir holds the public benchmark catalogs (../shared/bench from the
// repository root).
const benchDir = "../../shared/bench"

// charsPerToken is the token estimate: 4 characters per token, the usual
// rule of thumb for English text and JSON (as toolset's savings report).
const charsPerToken = 4

// minFirstListSaving is the bar: over MCP, the first tools/list of the
// livemcpbench catalog is at least 85 % smaller than the whole list.
const minFirstListSaving = 0.85

// TestFirstListTokenSavings measures what an MCP host receives: the first
// tools/list of a session against the livemcpbench catalog (tool_search
// alone) and after one tool_search (the dataset's first query), against
// tools/list of the same catalog listed whole; the tools array as JSON, as
// the host hands it to its model. Run with -v for the numbers
// (docs/benchmarks.md). Without ../shared/bench it skips, and fails when
// CI=true.
func TestFirstListTokenSavings(t *testing.T) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: evaltest.Bench(t, "livemcpbench/tools.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	session := func(threshold int) (*mcp.ClientSession, string) {
		srv, err := mcpserver.New(mcpserver.Config{Engine: engine, DeferralThreshold: threshold, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		t.Cleanup(hs.Close)
		t.Cleanup(srv.Close)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "savings", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: sessionVersion})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs, cs.InitializeResult().Instructions
	}
	list := func(cs *mcp.ClientSession) (string, int) {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res.Tools)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), len(res.Tools)
	}
	whole, _ := session(snap.Len() + 1)
	fullJSON, fullN := list(whole)
	deferred, instructions := session(0)
	firstJSON, firstN := list(deferred)
	if _, err := deferred.CallTool(context.Background(), &mcp.CallToolParams{Name: "tool_search",
		Arguments: map[string]any{"query": firstQuery(t, "livemcpbench")}}); err != nil {
		t.Fatal(err)
	}
	afterJSON, afterN := list(deferred)

	full, first, after, instr := tokens(fullJSON), tokens(firstJSON), tokens(afterJSON), tokens(instructions)
	saving := 1 - float64(first)/float64(full)
	withInstr := 1 - float64(first+instr)/float64(full)
	t.Logf("livemcpbench (%d tools) over MCP: whole tools/list %d tools, %d B, ≈%d tokens; first tools/list %d tool(s), %d B, ≈%d tokens (saving %.1f %%); "+
		"with the initialize instructions (%d B, ≈%d tokens) ≈%d tokens (saving %.1f %%); after one tool_search %d tools, %d B, ≈%d tokens",
		snap.Len(), fullN, len(fullJSON), full, firstN, len(firstJSON), first, 100*saving,
		len(instructions), instr, first+instr, 100*withInstr, afterN, len(afterJSON), after)
	if firstN != 1 || fullN != snap.Len() {
		t.Errorf("first list has %d tools (want tool_search alone), whole list %d (want %d)", firstN, fullN, snap.Len())
	}
	if withInstr < minFirstListSaving {
		t.Errorf("first tools/list with the instructions is %.1f %% smaller than the whole list, want at least %.0f %%", 100*withInstr, 100*minFirstListSaving)
	}
}

func tokens(s string) int { return (utf8.RuneCountInString(s) + charsPerToken - 1) / charsPerToken }

// firstQuery returns the text of the first query of a dev set
// (../shared/bench/DATASET/queries.jsonl), loaded as eval loads it.
func firstQuery(t *testing.T, dataset string) string {
	t.Helper()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, dataset+"/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return qs[0].Query
}

// BenchmarkToolsList measures one tools/list of a session that revealed
// five tools, over in-memory transports (the endpoint's own cost: reading
// the session, building the list with package toolset, encoding), on the
// livemcpbench and stabletoolbench catalogs.
func BenchmarkToolsList(b *testing.B) {
	for _, ds := range []string{"livemcpbench", "stabletoolbench"} {
		b.Run(ds, func(b *testing.B) {
			snap, err := catalog.LoadSnapshot(catalog.Source{Path: filepath.Join(benchDir, ds, "tools.jsonl")})
			if err != nil {
				b.Skip(err)
			}
			engine, err := search.New(snap, search.Config{})
			if err != nil {
				b.Fatal(err)
			}
			defer engine.Close()
			srv, err := mcpserver.New(mcpserver.Config{Engine: engine, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			st, ct := mcp.NewInMemoryTransports()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go srv.Run(ctx, st)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "search the web", "max_results": 5}}); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := cs.ListTools(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
