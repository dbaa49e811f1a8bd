package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	mcpsource "github.com/toolsearch/toolsearch/source/mcp"
)

// everythingJS is the official reference server @modelcontextprotocol/
// server-everything, installed by `make mcp-servers` (npm ci in
// source/mcp/testdata/servers).
const everythingJS = "../source/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// engineCatalog lets the Manager change the engine (the sidecar's adapter
// does the same).
type engineCatalog struct{ e *search.Engine }

func (c engineCatalog) Snapshot() *catalog.Snapshot { return c.e.Snapshot() }
func (c engineCatalog) Apply(ctx context.Context, upsert []catalog.Tool, del []string) (uint64, error) {
	r, err := c.e.Apply(ctx, upsert, del)
	return r.CatalogVersion, err
}

// startEverything serves the endpoint over the livemcpbench catalog file
// and a live server-everything (run by source/mcp's Manager over stdio),
// until the test ends; it returns the endpoint's URL. Without node, the
// installed server or ../shared/bench it skips, and fails when CI=true.
func startEverything(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	for _, p := range []string{everythingJS, filepath.Join(benchDir, "livemcpbench", "tools.jsonl")} {
		if err == nil {
			_, err = os.Stat(p)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("node, server-everything or the livemcpbench catalog is missing (%v); run `make mcp-servers` with ../shared beside the clone", err)
		testenv.SkipOrFail(t, "%s", msg)
	}
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: filepath.Join(benchDir, "livemcpbench", "tools.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	js, err := filepath.Abs(everythingJS)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mgr, err := mcpsource.New(mcpsource.Config{
		Servers: []mcpsource.ServerConfig{{Name: "everything", Command: []string{node, js, "stdio"}}},
		Catalog: engineCatalog{engine},
		Log:     log,
	})
	if err != nil {
		t.Fatal(err)
	}
	mgr.Start()
	t.Cleanup(func() { mgr.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := mgr.WaitStartup(ctx); err != nil {
		t.Fatal(err)
	}
	if !mgr.Serves("everything__echo") {
		t.Fatalf("the manager does not serve everything__echo: %+v", mgr.Status())
	}
	srv, err := mcpserver.New(mcpserver.Config{Engine: engine, Caller: mgr, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close)
	return hs.URL + "/mcp"
}

// The bar of the MCP endpoint: the official TypeScript SDK client, against
// the livemcpbench catalog plus a live server-everything, lists tool_search
// alone, searches, gets list_changed, lists the found tool, calls it
// through to server-everything with the right result, and is refused an
// unrevealed tool.
func TestEverythingEndToEnd(t *testing.T) {
	url := startEverything(t)
	t.Run("typescript client", func(t *testing.T) {
		runFlow(t, map[string]any{
			"url":        url,
			"query":      "echo back the input message",
			"expectTool": "everything__echo",
			"call":       map[string]any{"name": "everything__echo", "arguments": map[string]any{"message": "hello from node"}, "expectText": "Echo: hello from node"},
			"unrevealed": "everything__get-sum",
		})
	})
	// The bar of stateless mode: a go-sdk client negotiated to 2026-07-28
	// lists tool_search and call_tool, the same before and after a
	// search; the search returns everything__echo with its input schema;
	// call_tool runs it on server-everything.
	t.Run("go client 2026-07-28", func(t *testing.T) {
		before := listFresh(t, url, nil)
		if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output"}, toolNames(before)); diff != "" {
			t.Fatalf("tools/list (-want +got):\n%s", diff)
		}
		c := connectVersion(t, url, nil, mcpserver.StatelessProtocolVersion)
		got := c.searchStateless(t, map[string]any{"query": "echo back a message"})
		i := slices.IndexFunc(got.Tools, func(d foundTool) bool { return d.Name == "everything__echo" })
		if i < 0 || !strings.Contains(string(got.Tools[i].InputSchema), `"message"`) {
			t.Fatalf("tool_search found %+v, want everything__echo with its input schema", got.Tools)
		}
		if diff := cmp.Diff(encode(t, before), encode(t, listFresh(t, url, nil))); diff != "" {
			t.Errorf("tools/list changed with a search (-before +after):\n%s", diff)
		}
		txt, isErr := c.call(t, "call_tool", map[string]any{"name": "everything__echo", "arguments": map[string]any{"message": "hello in 2026"}, "handle": got.Handle})
		if isErr || txt != "Echo: hello in 2026" {
			t.Errorf("call_tool everything__echo = %q (isError %v), want \"Echo: hello in 2026\"", txt, isErr)
		}
	})
	t.Run("progress", func(t *testing.T) {
		c := connect(t, url, nil)
		c.search(t, map[string]any{"query": "select:everything__trigger-long-running-operation"})
		params := &mcp.CallToolParams{Name: "everything__trigger-long-running-operation", Arguments: map[string]any{"duration": 1.5, "steps": 3}}
		params.SetProgressToken("host-token")
		res, err := c.CallTool(context.Background(), params)
		if err != nil || res.IsError || !strings.Contains(text(res), "completed") {
			t.Fatalf("long-running operation = %+v, %v", res, err)
		}
		// The server's notifications before its result were passed on
		// under the host's token (a last one racing the result may not).
		select {
		case p := <-c.progress:
			if p.ProgressToken != "host-token" || p.Total != 3 {
				t.Errorf("progress = %+v, want token host-token of 3 steps", p)
			}
		default:
			t.Error("no progress notification was passed on")
		}
	})
}
