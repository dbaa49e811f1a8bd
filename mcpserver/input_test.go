package mcpserver_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	mcpsource "github.com/toolsearch/toolsearch/source/mcp"
	"github.com/toolsearch/toolsearch/source/mcp/mcptest"
)

// startAsk serves the sidecar's MCP endpoint over loopback HTTP with the
// real parts behind it: a search engine fed by source/mcp's Manager,
// connected over streamable HTTP to mcptest.AskServer. It returns the endpoint's
// URL.
func startAsk(t *testing.T) string {
	t.Helper()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.AskServer() },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(hs.Close)
	snap, err := catalog.NewSnapshot(nil)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := mcpsource.New(mcpsource.Config{Servers: []mcpsource.ServerConfig{{Name: "ask", URL: hs.URL}}, Catalog: engineCatalog{engine}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	m.Start()
	if err := m.WaitStartup(t.Context()); err != nil {
		t.Fatal(err)
	}
	if engine.Snapshot().Len() != 2 {
		t.Fatalf("catalog holds %d tools, want mcptest.AskServer's 2", engine.Snapshot().Len())
	}
	srv, err := mcpserver.New(mcpserver.Config{Engine: engine, Caller: m, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	es := httptest.NewServer(srv.Handler())
	t.Cleanup(es.Close)
	t.Cleanup(srv.Close)
	return es.URL + "/mcp"
}

// connectAsking connects a go-sdk client of protocol version to url whose
// elicitation handler answers confirm (accept with {"confirm": confirm})
// and counts the questions; mrtr false turns off the client's automatic
// multi round trip, so that its calls return input_required results.
func connectAsking(t *testing.T, url, version string, header http.Header, confirm, mrtr bool) (*mcp.ClientSession, *atomic.Int64) {
	t.Helper()
	asked := &atomic.Int64{}
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			if !strings.HasSuffix(req.Params.Message, "?") {
				return nil, errors.New("not a question")
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": confirm}}, nil
		},
	}
	if !mrtr {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{header, http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, opts).Connect(t.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs, asked
}

// callTool is a call_tool of name with args.
func callTool(name string, args map[string]any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": name, "arguments": args}}
}

// A live server's input requests reach the client through the endpoint:
// a 2026-07-28 client gets call_tool's input_required result and its
// go-sdk middleware answers and retries; a 2025-11-25 client is asked by
// the endpoint itself. The final result reflects the answer.
func TestInputRequestsReachTheClient(t *testing.T) {
	url := startAsk(t)
	ctx := t.Context()
	for _, tc := range []struct {
		version string
		confirm bool
		call    *mcp.CallToolParams
		want    string
	}{
		{mcpserver.StatelessProtocolVersion, true, callTool("ask__confirm_delete", map[string]any{"path": "/tmp/a.txt"}), "deleted /tmp/a.txt"},
		{mcpserver.StatelessProtocolVersion, false, callTool("ask__confirm_delete", map[string]any{"path": "/tmp/a.txt"}), "kept /tmp/a.txt"},
		// Session mode lists this small catalog whole: the tool is called
		// by its own name.
		{sessionVersion, true, &mcp.CallToolParams{Name: "ask__confirm_delete", Arguments: map[string]any{"path": "/tmp/b.txt"}}, "deleted /tmp/b.txt"},
		{sessionVersion, false, &mcp.CallToolParams{Name: "ask__confirm_delete", Arguments: map[string]any{"path": "/tmp/b.txt"}}, "kept /tmp/b.txt"},
	} {
		t.Run(tc.version+"/"+tc.want, func(t *testing.T) {
			cs, asked := connectAsking(t, url, tc.version, nil, tc.confirm, true)
			res, err := cs.CallTool(ctx, tc.call)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || res.NeedsInput() || text(res) != tc.want {
				t.Errorf("result %q (isError %v, needs input %v), want %q", text(res), res.IsError, res.NeedsInput(), tc.want)
			}
			if asked.Load() != 1 {
				t.Errorf("the client was asked %d times, want once", asked.Load())
			}
		})
	}
	t.Run("session client without elicitation", func(t *testing.T) {
		cs := connect(t, url, nil)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask__confirm_delete", Arguments: map[string]any{"path": "/x"}})
		if err != nil {
			t.Fatal(err)
		}
		// The live server saw this client's capabilities, not the sidecar's.
		if !res.IsError || text(res) != "cannot ask: the client declares no elicitation" {
			t.Errorf("result %q (isError %v), want the server's tool error saying the client cannot answer", text(res), res.IsError)
		}
		// A server that asks anyway: the endpoint cannot get an answer.
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask__wipe"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(text(res), "needs input that your client could not give") {
			t.Errorf("result %q (isError %v), want the endpoint's tool error saying the client cannot answer", text(res), res.IsError)
		}
	})
}

// The requestState a 2026-07-28 client gets is sealed: a forged or altered
// one, or one of another call, is a clear tool error (and the endpoint
// keeps serving), and it opens no tool outside the caller's scope.
func TestInputRequestStateIsBound(t *testing.T) {
	url := startAsk(t)
	ctx := t.Context()
	scoped := http.Header{mcpserver.HeaderVisibleTools: {"ask__confirm_delete"}}
	cs, asked := connectAsking(t, url, mcpserver.StatelessProtocolVersion, scoped, true, false)
	a := map[string]any{"path": "/tmp/a.txt"}
	first, err := cs.CallTool(ctx, callTool("ask__confirm_delete", a))
	if err != nil {
		t.Fatal(err)
	}
	ep, ok := first.InputRequests["confirm"].(*mcp.ElicitParams)
	if !first.NeedsInput() || !ok || ep.Message != "Delete /tmp/a.txt?" {
		t.Fatalf("first call: %+v, want input_required with the server's elicitation", first)
	}
	if first.RequestState == "" || strings.Contains(first.RequestState, "delete:") {
		t.Errorf("requestState %q: want the server's state sealed, not as the server sent it", first.RequestState)
	}
	yes := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}
	retry := func(name string, args map[string]any, state string) *mcp.CallToolParams {
		p := callTool(name, args)
		p.InputResponses, p.RequestState = yes, state
		return p
	}
	tampered := []byte(first.RequestState)
	tampered[len(tampered)/2] ^= 1
	for _, tc := range []struct {
		name string
		call *mcp.CallToolParams
		want string
	}{
		{"forged", retry("ask__confirm_delete", a, "delete:/tmp/a.txt"), "was not minted by this sidecar"},
		{"altered", retry("ask__confirm_delete", a, string(tampered)), "requestState was refused"},
		{"other arguments", retry("ask__confirm_delete", map[string]any{"path": "/"}, first.RequestState), "other arguments"},
		{"outside the scope", retry("ask__wipe", nil, first.RequestState), "ask__wipe is not a tool you can call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, tc.call)
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || res.NeedsInput() || !strings.Contains(text(res), tc.want) {
				t.Errorf("result %q (isError %v, needs input %v), want a tool error with %q", text(res), res.IsError, res.NeedsInput(), tc.want)
			}
		})
	}
	t.Run("another tool's state", func(t *testing.T) {
		all, _ := connectAsking(t, url, mcpserver.StatelessProtocolVersion, nil, true, false)
		res, err := all.CallTool(ctx, retry("ask__wipe", nil, first.RequestState))
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(text(res), "another tool") {
			t.Errorf("result %q (isError %v), want a tool error saying the state is another tool's", text(res), res.IsError)
		}
	})
	// Still serving, and the genuine retry (keys re-ordered by a client
	// that encodes the arguments anew) completes the call.
	res, err := cs.CallTool(ctx, retry("ask__confirm_delete", map[string]any{"path": "/tmp/a.txt"}, first.RequestState))
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || text(res) != "deleted /tmp/a.txt" {
		t.Errorf("the genuine retry = %q (isError %v), want deleted", text(res), res.IsError)
	}
	if asked.Load() != 0 {
		t.Errorf("the client's handler ran %d times with its multi round trip off", asked.Load())
	}
}
