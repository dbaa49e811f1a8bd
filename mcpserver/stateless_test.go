package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// found is a stateless tool_search result: the reference format and what
// stateless mode adds.
type found struct {
	ToolReferences []struct {
		ToolName string `json:"tool_name"`
	} `json:"tool_references"`
	Tools   []foundTool `json:"tools"`
	Handle  string      `json:"handle"`
	Trimmed []any       `json:"trimmed"`
	Omitted []any       `json:"omitted"`
}

// foundTool is one definition of a stateless tool_search result.
type foundTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// searchStateless calls tool_search and decodes its result, checking that
// the text and structuredContent agree.
func (c *client) searchStateless(t *testing.T, args map[string]any) found {
	t.Helper()
	textJSON, structured := c.callSearch(t, args)
	var fromText, fromStructured found
	if err := json.Unmarshal(textJSON, &fromText); err != nil {
		t.Fatalf("tool_search text is not JSON: %v", err)
	}
	if err := json.Unmarshal(structured, &fromStructured); err != nil {
		t.Fatal(err)
	}
	// structuredContent reaches the client as a map: key order is lost.
	asValue := cmp.Transformer("json", func(r json.RawMessage) any {
		var v any
		_ = json.Unmarshal(r, &v)
		return v
	})
	if diff := cmp.Diff(fromText, fromStructured, asValue); diff != "" {
		t.Errorf("structuredContent differs from the text (-text +structured):\n%s", diff)
	}
	return fromText
}

// listFresh lists tools from a fresh client session (the go-sdk client
// caches a 2026-07-28 list for its ttlMs) and returns the result.
func listFresh(t *testing.T, url string, header http.Header) *mcp.ListToolsResult {
	t.Helper()
	c := connectVersion(t, url, header, mcpserver.StatelessProtocolVersion)
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	return res
}

// encode is v as indented JSON, for diffs.
func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func toolNames(res *mcp.ListToolsResult) []string {
	out := make([]string, len(res.Tools))
	for i, tl := range res.Tools {
		out[i] = tl.Name
	}
	return out
}

// A go-sdk client negotiated to 2026-07-28: a stable list of the two
// meta-tools, a search that returns definitions and a handle, call_tool
// through to the live server, and refusals that say what to do.
func TestStateless(t *testing.T) {
	f := start(t, mcpserver.Config{})
	c := connectVersion(t, f.url, nil, mcpserver.StatelessProtocolVersion)
	before := listFresh(t, f.url, nil)
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output"}, toolNames(before)); diff != "" {
		t.Fatalf("tools/list (-want +got):\n%s", diff)
	}
	if before.TTLMs != mcpserver.ListTTL || before.CacheScope != "public" {
		t.Errorf("ttlMs, cacheScope = %d, %q; want %d, public", before.TTLMs, before.CacheScope, mcpserver.ListTTL)
	}

	got := c.searchStateless(t, map[string]any{"query": "echo a message back"})
	if len(got.ToolReferences) == 0 || got.ToolReferences[0].ToolName != "up__echo" {
		t.Fatalf("tool_search found %+v, want up__echo first", got.ToolReferences)
	}
	if len(got.Tools) != len(got.ToolReferences) || got.Tools[0].Name != "up__echo" || !strings.Contains(string(got.Tools[0].InputSchema), `"message"`) {
		t.Fatalf("tool_search definitions = %+v, want one per reference, up__echo's with its message parameter", got.Tools)
	}
	if !strings.HasPrefix(got.Handle, "mcp-h-") {
		t.Errorf("handle = %q, want a minted mcp-h- handle", got.Handle)
	}
	after := listFresh(t, f.url, nil)
	if diff := cmp.Diff(encode(t, before), encode(t, after)); diff != "" {
		t.Errorf("tools/list changed with a search (-before +after):\n%s", diff)
	}

	for _, tc := range []struct {
		name      string
		tool      string
		args      map[string]any
		wantText  string
		wantError bool
	}{
		{"call_tool forwards", "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "hi"}, "handle": got.Handle}, "Echo: hi", false},
		{"call_tool without a handle", "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "again"}}, "Echo: again", false},
		{"unknown tool", "call_tool", map[string]any{"name": "nope__nothing"}, "Search first", true},
		{"no name", "call_tool", map[string]any{"arguments": map[string]any{}}, "needs the name", true},
		{"arguments not an object", "call_tool", map[string]any{"name": "up__echo", "arguments": []int{1}}, "JSON object", true},
		{"catalog file tool", "call_tool", map[string]any{"name": "weather__get_current", "arguments": map[string]any{"location": "Paris"}}, "catalog file", true},
		{"direct call of an unlisted tool", "up__echo", map[string]any{"message": "x"}, "not in your tool list", true},
		{"tool_search without a query", "tool_search", map[string]any{}, `"query" is missing`, true},
		{"upstream tool error", "call_tool", map[string]any{"name": "up__fail"}, "permission denied", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			txt, isErr := c.call(t, tc.tool, tc.args)
			if isErr != tc.wantError || !strings.Contains(txt, tc.wantText) {
				t.Errorf("%s(%v) = %q (isError %v), want %q (isError %v)", tc.tool, tc.args, txt, isErr, tc.wantText, tc.wantError)
			}
		})
	}

	t.Run("trace context", func(t *testing.T) {
		const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Meta: mcp.Meta{"traceparent": tp},
			Name: "call_tool", Arguments: map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "traced"}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := "Echo: traced (traceparent " + tp + ")"; text(res) != want {
			t.Errorf("call_tool with a traceparent in _meta = %q, want %q", text(res), want)
		}
	})

	t.Run("progress", func(t *testing.T) {
		ctx := context.Background()
		params := &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "up__progress", "arguments": map[string]any{"steps": 2}}}
		params.SetProgressToken("modern-token")
		type result struct {
			res *mcp.CallToolResult
			err error
		}
		done := make(chan result, 1)
		go func() {
			res, err := c.CallTool(ctx, params)
			done <- result{res, err}
		}()
		for i := 1; i <= 2; i++ {
			select {
			case p := <-c.progress:
				if p.ProgressToken != "modern-token" || p.Progress != float64(i) {
					t.Errorf("progress %d = %+v, want token modern-token, progress %d", i, p, i)
				}
				f.events.ack <- struct{}{}
			case r := <-done:
				t.Fatalf("the call ended before progress %d: %v, %v", i, r.res, r.err)
			case <-time.After(testenv.HangGuard(t)):
				t.Fatalf("progress notification %d never arrived", i)
			}
		}
		if r := <-done; r.err != nil || text(r.res) != "done" {
			t.Fatalf("up__progress = %v, %v", r.res, r.err)
		}
	})
}

// Scope in stateless mode: read from each request's headers or query, the
// list private to the caller, tools outside it refused like unknown ones.
func TestStatelessScope(t *testing.T) {
	f := start(t, mcpserver.Config{})
	h := http.Header{mcpserver.HeaderVisibleTools: {"weather:*"}, mcpserver.HeaderAlwaysLoaded: {"weather__get_current"}}
	res := listFresh(t, f.url, h)
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "weather__get_current"}, toolNames(res)); diff != "" {
		t.Errorf("tools/list with a scope (-want +got):\n%s", diff)
	}
	if res.CacheScope != "private" {
		t.Errorf("cacheScope of a scoped list = %q, want private", res.CacheScope)
	}
	c := connectVersion(t, f.url, h, mcpserver.StatelessProtocolVersion)
	got := c.searchStateless(t, map[string]any{"query": "echo a message back"})
	for _, r := range got.ToolReferences {
		if !strings.HasPrefix(r.ToolName, "weather__") {
			t.Errorf("a scoped search found %s, outside weather:*", r.ToolName)
		}
	}
	if txt, isErr := c.call(t, "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "x"}}); !isErr || !strings.Contains(txt, "Search first") {
		t.Errorf("call_tool outside the scope = %q (isError %v), want the search-first refusal", txt, isErr)
	}
	q := listFresh(t, f.url+"?always_loaded=weather__get_forecast", nil)
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "weather__get_forecast"}, toolNames(q)); diff != "" {
		t.Errorf("tools/list with a query-parameter scope (-want +got):\n%s", diff)
	}
}

// One endpoint, both protocols at once: a 2025-11-25 session whose list
// grows with its searches beside a 2026-07-28 client whose list does not.
func TestBothProtocols(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	old := connect(t, f.url, nil)
	modern := connectVersion(t, f.url, nil, mcpserver.StatelessProtocolVersion)
	old.search(t, map[string]any{"query": "select:up__echo"})
	old.waitListChanged(t)
	if names := old.names(t); !slices.Contains(names, "up__echo") {
		t.Errorf("session list after a search = %v, want up__echo revealed", names)
	}
	modern.searchStateless(t, map[string]any{"query": "select:up__echo"})
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output"}, toolNames(listFresh(t, f.url, nil))); diff != "" {
		t.Errorf("stateless list after searches (-want +got):\n%s", diff)
	}
	if txt, _ := old.call(t, "up__echo", map[string]any{"message": "old"}); txt != "Echo: old" {
		t.Errorf("session call = %q", txt)
	}
	if txt, _ := modern.call(t, "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "new"}}); txt != "Echo: new" {
		t.Errorf("stateless call = %q", txt)
	}
}

// A 2026-07-28 client that listens (the go-sdk opens subscriptions/listen
// with toolsListChanged when it has a handler) is told when a catalog
// change changes the stable list, and lists the new one.
func TestStatelessListChanged(t *testing.T) {
	f := start(t, mcpserver.Config{Scope: mcpserver.Scope{AlwaysLoaded: []string{"slack:*"}}})
	c := connectVersion(t, f.url, nil, mcpserver.StatelessProtocolVersion)
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "slack__list_channels", "slack__send_message"}, c.names(t)); diff != "" {
		t.Fatalf("first list (-want +got):\n%s", diff)
	}
	_, err := f.engine.Apply(context.Background(), []search.Tool{{Name: "slack__archive_channel", Server: "slack",
		Description: "Archive a Slack channel.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.waitListChanged(t)
	// The go-sdk client drops its cached list on the notification.
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "slack__archive_channel", "slack__list_channels", "slack__send_message"}, c.names(t)); diff != "" {
		t.Errorf("list after the change (-want +got):\n%s", diff)
	}
}

// Every tools/call writes a request log line, and every tool_search is
// passed to OnSearch (the sidecar's toolsearch_searches_total), in both
// modes.
func TestCallLogAndMetrics(t *testing.T) {
	var buf logbuf.Buffer
	var searches atomic.Int64
	f := start(t, mcpserver.Config{
		DeferralThreshold: 1,
		Log:               slog.New(slog.NewJSONHandler(&buf, nil)),
		OnSearch:          func(search.Result) { searches.Add(1) },
		LogQuery:          func(q string) (slog.Attr, bool) { return slog.String("query", q), true },
	})
	old := connect(t, f.url, nil)
	old.search(t, map[string]any{"query": "select:up__echo"})
	if txt, _ := old.call(t, "up__echo", map[string]any{"message": "a"}); txt != "Echo: a" {
		t.Fatalf("session call = %q", txt)
	}
	modern := connectVersion(t, f.url, nil, mcpserver.StatelessProtocolVersion)
	modern.searchStateless(t, map[string]any{"query": "echo a message back"})
	modern.call(t, "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "b"}})
	modern.call(t, "call_tool", map[string]any{"name": "nope__nothing"})
	if n := searches.Load(); n != 2 {
		t.Errorf("OnSearch called %d times, want 2", n)
	}
	var lines []map[string]any
	for l := range strings.SplitSeq(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "mcp tools/call" {
			delete(m, "time")
			delete(m, "duration_ms")
			lines = append(lines, m)
		}
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "mcp tools/call", "mode": "session", "tool": "tool_search", "outcome": "ok", "query": "select:up__echo", "search_type": "select", "results": 1.0},
		{"level": "INFO", "msg": "mcp tools/call", "mode": "session", "tool": "up__echo", "outcome": "ok", "target": "up__echo"},
		{"level": "INFO", "msg": "mcp tools/call", "mode": "stateless", "tool": "tool_search", "outcome": "ok", "query": "echo a message back", "search_type": "semantic", "results": 2.0},
		{"level": "INFO", "msg": "mcp tools/call", "mode": "stateless", "tool": "call_tool", "outcome": "ok", "target": "up__echo"},
		{"level": "INFO", "msg": "mcp tools/call", "mode": "stateless", "tool": "call_tool", "outcome": "tool_error"},
	}
	ignoreCounts := cmp.FilterPath(func(p cmp.Path) bool {
		mi, ok := p.Last().(cmp.MapIndex)
		return ok && (mi.Key().String() == "results" || mi.Key().String() == "search_type" || mi.Key().String() == "fallback_reason")
	}, cmp.Ignore())
	if diff := cmp.Diff(want, lines, ignoreCounts); diff != "" {
		t.Errorf("request log lines (-want +got):\n%s", diff)
	}
}

// A protocol version the endpoint does not know is refused with the
// UnsupportedProtocolVersion error listing the versions it speaks.
func TestUnknownProtocolVersion(t *testing.T) {
	f := start(t, mcpserver.Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2099-01-01")
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-32022", mcpserver.StatelessProtocolVersion, "2025-11-25"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("answer to version 2099-01-01 = %d %q, want it to hold %s", resp.StatusCode, b.String(), want)
		}
	}
}

// Over stdio (Run), a client that negotiates 2026-07-28 gets stateless
// mode: the fixed list, call_tool, and list changes on subscriptions/listen.
func TestStdioStateless(t *testing.T) {
	f := start(t, mcpserver.Config{})
	srv, err := mcpserver.New(mcpserver.Config{Engine: f.engine, Caller: f.caller, Scope: mcpserver.Scope{AlwaysLoaded: []string{"slack:*"}},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, serverSide) }()
	t.Cleanup(func() { cancel(); <-done })
	c := &client{listChanged: make(chan struct{}, 16), progress: make(chan *mcp.ProgressNotificationParams, 16)}
	mc := mcp.NewClient(&mcp.Implementation{Name: "stdio-host", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.listChanged <- struct{}{} },
	})
	cs, err := mc.Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	c.ClientSession = cs
	if v := cs.InitializeResult().ProtocolVersion; v != mcpserver.StatelessProtocolVersion {
		t.Fatalf("stdio negotiated %s, want %s", v, mcpserver.StatelessProtocolVersion)
	}
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "slack__list_channels", "slack__send_message"}, c.names(t)); diff != "" {
		t.Fatalf("stdio stateless list (-want +got):\n%s", diff)
	}
	got := c.searchStateless(t, map[string]any{"query": "echo a message back"})
	if len(got.Tools) == 0 || got.Tools[0].Name != "up__echo" {
		t.Fatalf("tool_search over stdio found %+v", got.Tools)
	}
	if txt, _ := c.call(t, "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "stdio"}}); txt != "Echo: stdio" {
		t.Errorf("call_tool over stdio = %q", txt)
	}
	if _, err := f.engine.Apply(ctx, []search.Tool{{Name: "slack__archive_channel", Server: "slack",
		Description: "Archive a Slack channel.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}}, nil); err != nil {
		t.Fatal(err)
	}
	c.waitListChanged(t)
	if names := c.names(t); !slices.Contains(names, "slack__archive_channel") {
		t.Errorf("list after the change = %v, want slack__archive_channel", names)
	}
}
