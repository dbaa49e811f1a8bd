package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	mcpsource "github.com/toolsearch/toolsearch/source/mcp"
)

// upstreamServer is the namespace of the upstream tools in the catalog.
const upstreamServer = "up"

// newUpstream is a real MCP server written with the go-sdk, the live
// server that calls go through to:
//
//   - echo {message} answers "Echo: MESSAGE", followed by
//     " (traceparent TP)" when the call's _meta carries one;
//   - progress {steps} sends steps progress notifications, each once the
//     test acknowledged the one before, then answers "done";
//   - block waits until its call is cancelled, and reports that on cancelled;
//   - fail answers a tool error;
//   - big {items} answers a JSON report of that many items (about 60
//     bytes each), for read_output.
func newUpstream(ev *events) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	type echoIn struct {
		Message string `json:"message" jsonschema:"the text to echo back"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a message back to the caller."},
		func(_ context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			text := "Echo: " + in.Message
			if tp, ok := req.Params.Meta["traceparent"].(string); ok {
				text += " (traceparent " + tp + ")"
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	type bigIn struct {
		Items int `json:"items" jsonschema:"how many items the report holds"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Return a large JSON report of numbered items with their status."},
		func(_ context.Context, _ *mcp.CallToolRequest, in bigIn) (*mcp.CallToolResult, any, error) {
			type item struct {
				ID     int    `json:"id"`
				Status string `json:"status"`
				Title  string `json:"title"`
			}
			var r struct {
				Items []item `json:"items"`
			}
			for i := range in.Items {
				st := "open"
				if i%3 == 0 {
					st = "closed"
				}
				r.Items = append(r.Items, item{i, st, fmt.Sprintf("Item %d of the quarterly report", i)})
			}
			b, err := json.Marshal(r)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, err
		})
	type progressIn struct {
		Steps int `json:"steps" jsonschema:"how many progress notifications to send"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "progress", Description: "Run a long operation that reports its progress step by step."},
		func(ctx context.Context, req *mcp.CallToolRequest, in progressIn) (*mcp.CallToolResult, any, error) {
			for i := 1; i <= in.Steps; i++ {
				if tok := req.Params.GetProgressToken(); tok != nil {
					if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: tok, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i),
					}); err != nil {
						return nil, nil, err
					}
				}
				// Wait until the test's client has the notification:
				// a notification handled after the call's result could
				// no longer be passed on (the go-sdk client handles
				// notifications apart from results).
				select {
				case <-ev.ack:
				case <-ctx.Done():
					return nil, nil, ctx.Err()
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "block", Description: "Wait for an external event that never comes, until cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			ev.started <- struct{}{}
			<-ctx.Done()
			ev.cancelled <- struct{}{}
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fail with a tool error about a missing permission."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("permission denied")
		})
	return s
}

// events are what the upstream's block tool reports: a call started, a
// call was cancelled; the test acknowledges progress notifications on ack.
type events struct{ started, cancelled, ack chan struct{} }

func newEvents() *events {
	return &events{started: make(chan struct{}, 8), cancelled: make(chan struct{}, 8), ack: make(chan struct{})}
}

// upstreamCaller is the test's Caller: it forwards calls over a real go-sdk
// client session to the upstream server (the role source/mcp's Manager has
// in the sidecar), mapping "up__echo" to "echo" and progress notifications
// to the callback of the call whose token they carry. Not a fake: every
// call crosses a real MCP connection.
type upstreamCaller struct {
	cs         *mcp.ClientSession
	tools      map[string]bool // catalog names of the upstream tools
	next       atomic.Int64
	mu         sync.Mutex
	onProgress map[string]func(*mcp.ProgressNotificationParams)
}

// connectUpstream starts the upstream over in-memory transports, lists its
// tools into catalog tools (namespaced up__), and returns the caller.
func connectUpstream(t *testing.T, ev *events) (*upstreamCaller, []catalog.Tool) {
	t.Helper()
	uc, tools, closeAll, err := dialUpstream(ev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	return uc, tools
}

// dialUpstream is connectUpstream without a test (for the stdio child
// process of TestNodeClient); closeAll ends both sessions.
func dialUpstream(ev *events) (uc *upstreamCaller, tools []catalog.Tool, closeAll func(), err error) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newUpstream(ev).Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	uc = &upstreamCaller{tools: map[string]bool{}, onProgress: map[string]func(*mcp.ProgressNotificationParams){}}
	client := mcp.NewClient(&mcp.Implementation{Name: "sidecar-source", Version: "1"}, &mcp.ClientOptions{
		// Input requests go back to the endpoint, as the Manager has them.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			uc.mu.Lock()
			f := uc.onProgress[fmt.Sprint(req.Params.ProgressToken)]
			uc.mu.Unlock()
			if f != nil {
				f(req.Params)
			}
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return nil, nil, nil, err
	}
	uc.cs = cs
	closeAll = func() { cs.Close(); ss.Close() }
	res, err := cs.ListTools(ctx, nil)
	if err == nil {
		var raw []byte
		if raw, err = json.Marshal(res); err == nil {
			tools, err = catalog.Parse(raw, "upstream tools/list", upstreamServer)
		}
	}
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	for _, tl := range tools {
		uc.tools[tl.Name] = true
	}
	return uc, tools, closeAll, nil
}

// newEngine builds the test engine over the file catalog and the upstream's
// tools.
func newEngine(upTools []catalog.Tool) (*search.Engine, error) {
	return newEngineWith(upTools, search.Config{})
}

// newEngineWith is newEngine with an engine configuration.
func newEngineWith(upTools []catalog.Tool, ecfg search.Config) (*search.Engine, error) {
	files, err := catalog.Load(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		return nil, err
	}
	snap, err := catalog.NewSnapshot(append(files, upTools...))
	if err != nil {
		return nil, err
	}
	return search.New(snap, ecfg)
}

func (u *upstreamCaller) Serves(name string) bool { return u.tools[name] }

func (u *upstreamCaller) CallTool(ctx context.Context, name string, args map[string]any, opts *mcpsource.CallOptions) (*mcp.CallToolResult, error) {
	if opts == nil {
		opts = &mcpsource.CallOptions{}
	}
	if !u.tools[name] {
		return nil, fmt.Errorf("no live server provides %s", name)
	}
	params := &mcp.CallToolParams{Name: strings.TrimPrefix(name, upstreamServer+"__"), Arguments: args,
		InputResponses: opts.InputResponses, RequestState: opts.RequestState}
	if tc, ok := tracecontext.FromContext(ctx); ok { // as source/mcp's Manager does
		params.Meta = mcp.Meta{}
		for k, v := range tc.Fields() {
			params.Meta[k] = v
		}
	}
	if onProgress := opts.OnProgress; onProgress != nil {
		tok := fmt.Sprintf("fwd-%d", u.next.Add(1))
		u.mu.Lock()
		u.onProgress[tok] = onProgress
		u.mu.Unlock()
		defer func() { u.mu.Lock(); delete(u.onProgress, tok); u.mu.Unlock() }()
		params.SetProgressToken(tok)
	}
	res, err := u.cs.CallTool(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("upstream server: %w", err)
	}
	return res, nil
}

// fixture is a sidecar engine over the test catalog (file tools and the
// upstream's tools), served by an mcpserver over loopback HTTP.
type fixture struct {
	engine *search.Engine
	srv    *mcpserver.Server
	url    string
	caller *upstreamCaller
	events *events
}

// start builds the engine and serves the endpoint until the test ends. cfg
// is completed with the engine, the caller and a discarded log.
func start(t *testing.T, cfg mcpserver.Config) *fixture {
	t.Helper()
	return startWith(t, cfg, search.Config{})
}

// startWith is start with an engine configuration.
func startWith(t *testing.T, cfg mcpserver.Config, ecfg search.Config) *fixture {
	t.Helper()
	ev := newEvents()
	uc, upTools := connectUpstream(t, ev)
	engine, err := newEngineWith(upTools, ecfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	cfg.Engine, cfg.Caller = engine, uc
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := mcpserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close) // runs first: the sessions' streams end, then the listener
	return &fixture{engine: engine, srv: srv, url: hs.URL + "/mcp", caller: uc, events: ev}
}

// client is a real go-sdk MCP client session with the notifications it
// received.
type client struct {
	*mcp.ClientSession
	listChanged chan struct{}
	progress    chan *mcp.ProgressNotificationParams
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	header http.Header
	base   http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return h.base.RoundTrip(r)
}

// sessionVersion is the newest MCP version with sessions, which the
// session-mode tests' go-sdk clients ask for (the SDK's default is the
// stateless 2026-07-28).
const sessionVersion = "2025-11-25"

// connect opens an MCP session of protocol sessionVersion over streamable
// HTTP to url, sending header on every request, and closes it when the
// test ends.
func connect(t *testing.T, url string, header http.Header) *client {
	t.Helper()
	return connectVersion(t, url, header, sessionVersion)
}

// connectVersion is connect asking for protocol version (the go-sdk
// client negotiates from it: server/discover for 2026-07-28, initialize
// before).
func connectVersion(t *testing.T, url string, header http.Header, version string) *client {
	t.Helper()
	c := &client{listChanged: make(chan struct{}, 16), progress: make(chan *mcp.ProgressNotificationParams, 16)}
	mc := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.listChanged <- struct{}{} },
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			c.progress <- req.Params
		},
	})
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{header, http.DefaultTransport}}}
	cs, err := mc.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated protocol version %s, want %s", got, version)
	}
	c.ClientSession = cs
	return c
}

// names lists the client's tools/list names.
func (c *client) names(t *testing.T) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(res.Tools))
	for i, tl := range res.Tools {
		out[i] = tl.Name
	}
	return out
}

// call calls a tool and returns its result's text and isError.
func (c *client) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return text(res), res.IsError
}

// text joins a result's text contents.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// waitListChanged fails the test unless notifications/tools/list_changed
// arrives. The wait is a bound on a notification that must come, not a
// timing assertion.
func (c *client) waitListChanged(t *testing.T) {
	t.Helper()
	select {
	case <-c.listChanged:
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("no notifications/tools/list_changed after tool_search revealed tools")
	}
}
