package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// reference is the reference format as a model reads it.
type reference struct {
	ToolReferences []struct {
		ToolName       string  `json:"tool_name"`
		RelevanceScore float64 `json:"relevance_score"`
	} `json:"tool_references"`
	TotalMatches   int `json:"total_matches"`
	SearchMetadata struct {
		SearchType string `json:"search_type"`
		Query      string `json:"query"`
	} `json:"search_metadata"`
}

// search calls tool_search and returns the references' names, checking
// that the text and structuredContent are the same JSON and that the
// structured content satisfies the listed outputSchema.
func (c *client) search(t *testing.T, args map[string]any) []string {
	t.Helper()
	textJSON, structured := c.callSearch(t, args)
	var fromText, fromStructured any
	if err := json.Unmarshal(textJSON, &fromText); err != nil {
		t.Fatalf("tool_search text is not JSON: %v", err)
	}
	_ = json.Unmarshal(structured, &fromStructured)
	if diff := cmp.Diff(fromText, fromStructured); diff != "" {
		t.Errorf("structuredContent differs from the text (-text +structured):\n%s", diff)
	}
	validateOutput(t, c, fromStructured)
	var ref reference
	if err := json.Unmarshal(structured, &ref); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ref.ToolReferences))
	for i, r := range ref.ToolReferences {
		names[i] = r.ToolName
	}
	return names
}

// callSearch calls tool_search, fails the test on an error result, and
// returns the result's text and its structuredContent as JSON.
func (c *client) callSearch(t *testing.T, args map[string]any) (textJSON, structured []byte) {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "tool_search", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool_search(%v) is an error: %s", args, text(res))
	}
	structured, err = json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(text(res)), structured
}

// validateOutput checks v against tool_search's listed outputSchema.
func validateOutput(t *testing.T, c *client, v any) {
	t.Helper()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name != "tool_search" {
			continue
		}
		raw, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("outputSchema: %v", err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("outputSchema: %v", err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("structuredContent does not satisfy the outputSchema: %v", err)
		}
		return
	}
	t.Error("tools/list has no tool_search")
}

// The flow of the issue, with the go-sdk client over streamable HTTP: the
// first list holds tool_search alone; a search reveals tools, the client
// is told the list changed, the new list holds them with their schemas,
// and a revealed upstream tool is called through; an unrevealed one is
// refused with "search first".
func TestProgressiveDisclosure(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	c := connect(t, f.url, nil)
	if diff := cmp.Diff([]string{"tool_search"}, c.names(t)); diff != "" {
		t.Fatalf("first tools/list (-want +got):\n%s", diff)
	}
	if got, isErr := c.call(t, "up__echo", map[string]any{"message": "hi"}); !isErr || !strings.Contains(got, "Search first") {
		t.Errorf("call before any search = %q (isError %v), want a search-first error", got, isErr)
	}

	found := c.search(t, map[string]any{"query": "echo a message back", "max_results": 1})
	if diff := cmp.Diff([]string{"up__echo"}, found); diff != "" {
		t.Fatalf("tool_search found (-want +got):\n%s", diff)
	}
	c.waitListChanged(t)
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[1].Name != "up__echo" {
		t.Fatalf("second tools/list = %v, want [tool_search up__echo]", res.Tools)
	}
	schema, _ := json.Marshal(res.Tools[1].InputSchema)
	if !strings.Contains(string(schema), `"message"`) {
		t.Errorf("revealed tool's inputSchema = %s, want the upstream schema with \"message\"", schema)
	}
	if got, isErr := c.call(t, "up__echo", map[string]any{"message": "hi"}); isErr || got != "Echo: hi" {
		t.Errorf("call through = %q (isError %v), want \"Echo: hi\"", got, isErr)
	}
	if got, isErr := c.call(t, "up__fail", nil); !isErr || !strings.Contains(got, "Search first") {
		t.Errorf("unrevealed up__fail = %q (isError %v), want a search-first error", got, isErr)
	}

	// A second search appends: the list's prefix stays.
	c.search(t, map[string]any{"query": "select:slack__send_message,up__fail"})
	c.waitListChanged(t)
	if diff := cmp.Diff([]string{"tool_search", "up__echo", "slack__send_message", "up__fail"}, c.names(t)); diff != "" {
		t.Errorf("third tools/list (-want +got):\n%s", diff)
	}
	// The upstream's own tool error comes back as is.
	if got, isErr := c.call(t, "up__fail", nil); !isErr || !strings.Contains(got, "permission denied") {
		t.Errorf("up__fail = %q (isError %v), want the upstream's error", got, isErr)
	}
	// A tool from a catalog file has no server behind it.
	if got, isErr := c.call(t, "slack__send_message", map[string]any{"channel": "x", "text": "y"}); !isErr || !strings.Contains(got, "execute it itself") {
		t.Errorf("file tool = %q (isError %v), want an execute-it-yourself error", got, isErr)
	}
	// The MCP session id is the engine's session id.
	_, revealed, err := f.engine.Revealed(c.ID())
	if err != nil || len(revealed) != 3 {
		t.Errorf("engine.Revealed(%q) = %d tools, %v; want 3", c.ID(), len(revealed), err)
	}
}

// Bad tool_search arguments are tool errors the model can act on.
func TestSearchErrors(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	c := connect(t, f.url, nil)
	for name, args := range map[string]any{
		"no query":     map[string]any{},
		"bad regex":    map[string]any{"query": "(", "search_type": "regex"},
		"unknown mode": map[string]any{"query": "x", "search_type": "vibes"},
		"wrong type":   map[string]any{"query": 3},
	} {
		if got, isErr := c.call(t, "tool_search", args); !isErr || got == "" {
			t.Errorf("%s: %q (isError %v), want a tool error", name, got, isErr)
		}
	}
	if got, isErr := c.call(t, "tool_search", map[string]any{"query": "(", "search_type": "regex"}); !strings.Contains(got, "regular expression") && !strings.Contains(got, "regex") {
		t.Errorf("bad regex error %q (isError %v) does not name the problem", got, isErr)
	}
	// The same lenient reading as the Go Agent's (clients/go
	// ParseSearchArguments): numbers as strings, floats, enum case.
	for name, args := range map[string]any{
		"number as string": map[string]any{"query": "slack", "max_results": "2"},
		"float":            map[string]any{"query": "slack", "max_results": 2.0},
		"enum case":        map[string]any{"query": "slack", "search_type": "KEYWORD", "max_results": 2},
	} {
		got, isErr := c.call(t, "tool_search", args)
		if isErr || !strings.Contains(got, "tool_references") {
			t.Errorf("%s: %q (isError %v), want a result", name, got, isErr)
		}
		var res struct {
			Refs []json.RawMessage `json:"tool_references"`
		}
		if err := json.Unmarshal([]byte(got), &res); err != nil || len(res.Refs) > 2 {
			t.Errorf("%s: %d references (%v), want at most 2", name, len(res.Refs), err)
		}
	}
}

// A catalog below the deferral threshold is listed whole, without
// tool_search.
func TestSmallCatalogListedWhole(t *testing.T) {
	f := start(t, mcpserver.Config{}) // 13 tools, threshold 15
	c := connect(t, f.url, nil)
	names := c.names(t)
	if len(names) != 13 || names[0] != "filesystem__read_file" {
		t.Errorf("tools/list = %v, want the 13 catalog tools in catalog (name) order", names)
	}
	if got, isErr := c.call(t, "up__echo", map[string]any{"message": "x"}); isErr || got != "Echo: x" {
		t.Errorf("call = %q (isError %v)", got, isErr)
	}
}

// Each connection sees its own scope, set by headers or query parameters;
// one connection's searches reveal nothing to another.
func TestScopePerConnection(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	slack := connect(t, f.url, http.Header{mcpserver.HeaderVisibleTools: {"slack:*, up__echo"}})
	gh := connect(t, f.url+"?visible_tools=github:*&always_loaded=github__search_issues", nil)

	if diff := cmp.Diff([]string{"tool_search", "github__search_issues"}, gh.names(t)); diff != "" {
		t.Errorf("github connection's first list (-want +got):\n%s", diff)
	}
	if got := slack.search(t, map[string]any{"query": "create a github issue"}); len(got) != 0 && !allPrefixed(got, "slack__", "up__echo") {
		t.Errorf("slack connection found %v outside its scope", got)
	}
	if got := slack.search(t, map[string]any{"query": "select:github__create_issue"}); len(got) != 0 {
		t.Errorf("slack connection selected %v outside its scope", got)
	}
	if got, isErr := slack.call(t, "github__create_issue", map[string]any{}); !isErr || !strings.Contains(got, "Search first") {
		t.Errorf("out-of-scope call = %q (isError %v), want the search-first error", got, isErr)
	}
	slack.search(t, map[string]any{"query": "select:slack__send_message"})
	slack.waitListChanged(t)
	if diff := cmp.Diff([]string{"tool_search", "github__search_issues"}, gh.names(t)); diff != "" {
		t.Errorf("github connection's list changed by the slack connection's search (-want +got):\n%s", diff)
	}
	// An always-loaded tool outside the visible set is not listed.
	mixed := connect(t, f.url, http.Header{mcpserver.HeaderVisibleTools: {"slack:*"}, mcpserver.HeaderAlwaysLoaded: {"github__create_issue"}})
	if diff := cmp.Diff([]string{"tool_search"}, mixed.names(t)); diff != "" {
		t.Errorf("always-loaded outside the scope (-want +got):\n%s", diff)
	}
}

func allPrefixed(names []string, prefix, extra string) bool {
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) && n != extra {
			return false
		}
	}
	return true
}

// A malformed scope or a missing token is refused before any session.
func TestHTTPRefusals(t *testing.T) {
	f := start(t, mcpserver.Config{AuthToken: "s3cret"})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name   string
		header http.Header
		query  string
		want   int
		body   string
	}{
		{"no token", nil, "", http.StatusUnauthorized, "bearer token"},
		{"wrong token", http.Header{"Authorization": {"Bearer nope"}}, "", http.StatusUnauthorized, "bearer token"},
		{"bad pattern", http.Header{"Authorization": {"Bearer s3cret"}, mcpserver.HeaderVisibleTools: {"a*b"}}, "", http.StatusBadRequest, "'*' may only end a pattern"},
		{"bad query", http.Header{"Authorization": {"Bearer s3cret"}}, "?always_loaded=:*", http.StatusBadRequest, "names no server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, f.url+tc.query, strings.NewReader(init))
			if err != nil {
				t.Fatal(err)
			}
			req.Header = tc.header.Clone()
			if req.Header == nil {
				req.Header = http.Header{}
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			buf := new(strings.Builder)
			_, _ = io.Copy(buf, resp.Body)
			if resp.StatusCode != tc.want || !strings.Contains(buf.String(), tc.body) {
				t.Errorf("status %d body %q, want %d containing %q", resp.StatusCode, buf.String(), tc.want, tc.body)
			}
		})
	}
	// With the token, the session works.
	c := connect(t, f.url, http.Header{"Authorization": {"Bearer s3cret"}})
	if len(c.names(t)) == 0 {
		t.Error("authorized connection lists no tools")
	}
}

// Progress notifications of a forwarded call reach the client under its
// own token; a client's cancellation reaches the upstream server; the
// per-call timeout and a dead server are tool errors.
func TestCallThrough(t *testing.T) {
	f := start(t, mcpserver.Config{
		DeferralThreshold: 1,
		Scope:             mcpserver.Scope{AlwaysLoaded: []string{"up:*"}},
		CallTimeout:       time.Second,
	})
	c := connect(t, f.url, nil)
	ctx := context.Background()

	params := &mcp.CallToolParams{Name: "up__progress", Arguments: map[string]any{"steps": 3}}
	params.SetProgressToken("client-token")
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := c.CallTool(ctx, params)
		done <- result{res, err}
	}()
	for i := 1; i <= 3; i++ {
		select {
		case p := <-c.progress:
			if p.ProgressToken != "client-token" || p.Progress != float64(i) || p.Total != 3 || p.Message != fmt.Sprintf("step %d", i) {
				t.Errorf("progress %d = %+v, want token client-token, progress %d of 3", i, p, i)
			}
			f.events.ack <- struct{}{}
		case <-time.After(testenv.HangGuard(t)):
			t.Fatalf("progress notification %d never arrived", i)
		}
	}
	if r := <-done; r.err != nil || text(r.res) != "done" {
		t.Fatalf("up__progress = %v, %v", r.res, r.err)
	}

	t.Run("cancellation", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		errc := make(chan error, 1)
		go func() {
			_, err := c.CallTool(cctx, &mcp.CallToolParams{Name: "up__block"})
			errc <- err
		}()
		wait(t, f.events.started, "the upstream never received the call")
		cancel()
		wait(t, f.events.cancelled, "the client's cancellation never reached the upstream server")
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v, want context.Canceled", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		got, isErr := c.call(t, "up__block", nil)
		if !isErr || !strings.Contains(got, "did not answer within 1s") {
			t.Errorf("blocked call = %q (isError %v), want the timeout error", got, isErr)
		}
		wait(t, f.events.started, "the upstream never received the call")
		wait(t, f.events.cancelled, "the timeout never cancelled the upstream call")
	})
	t.Run("bad arguments", func(t *testing.T) {
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "up__echo", Arguments: []int{1}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "JSON object") {
			t.Errorf("array arguments = %v, %v; want a tool error", res, err)
		}
	})
	t.Run("server down", func(t *testing.T) {
		f.caller.cs.Close()
		got, isErr := c.call(t, "up__echo", map[string]any{"message": "x"})
		if !isErr || !strings.Contains(got, "could not be called") {
			t.Errorf("call with the server down = %q (isError %v), want a tool error", got, isErr)
		}
	})
}

// wait fails the test unless ch receives; the bound is generous, for an
// event that must happen.
func wait(t *testing.T, ch <-chan struct{}, msg string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal(msg)
	}
}

// Closing an MCP session forgets its revealed tools in the engine; past
// MaxSessions a new session is refused with 503.
func TestSessionLifecycle(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1, MaxSessions: 1})
	c := connect(t, f.url, nil)
	c.search(t, map[string]any{"query": "select:up__echo"})
	id := c.ID()
	if _, revealed, _ := f.engine.Revealed(id); len(revealed) != 1 {
		t.Fatalf("engine session %s has %d revealed tools, want 1", id, len(revealed))
	}
	if n := f.engine.Sessions(); n != 1 {
		t.Errorf("engine sessions = %d, want 1", n)
	}
	mc := mcp.NewClient(&mcp.Implementation{Name: "second", Version: "1"}, nil)
	if _, err := mc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: f.url, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: sessionVersion}); err == nil ||
		!strings.Contains(err.Error(), "503") && !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("second session past MaxSessions 1: err = %v, want 503", err)
	}
	c.Close()
	testenv.WaitFor(t, "the engine to drop the closed MCP session's revealed tools", func() bool { return f.engine.Sessions() == 0 })
	// The slot is free again.
	c2 := connect(t, f.url, nil)
	if len(c2.names(t)) != 1 {
		t.Error("new session after the first closed does not start with tool_search alone")
	}
}

// A catalog change that changes a session's list (here a tool added to an
// always-loaded server, as a live MCP server adding a tool does) sends
// notifications/tools/list_changed; one that does not, nothing.
func TestCatalogChangeNotifies(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1, Scope: mcpserver.Scope{AlwaysLoaded: []string{"slack:*"}}})
	c := connect(t, f.url, nil)
	if diff := cmp.Diff([]string{"tool_search", "slack__list_channels", "slack__send_message"}, c.names(t)); diff != "" {
		t.Fatalf("first list (-want +got):\n%s", diff)
	}
	add := func(name string) {
		t.Helper()
		_, err := f.engine.Apply(context.Background(), []search.Tool{{Name: name, Server: strings.Split(name, "__")[0],
			Description: "A tool added while the session runs.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	add("github__new_tool") // not in this session's list
	add("slack__archive_channel")
	c.waitListChanged(t)
	if diff := cmp.Diff([]string{"tool_search", "slack__archive_channel", "slack__list_channels", "slack__send_message"}, c.names(t)); diff != "" {
		t.Errorf("list after the change (-want +got):\n%s", diff)
	}
	select {
	case <-c.listChanged:
		t.Error("a second list_changed for one change")
	default:
	}
}

// Past the session limit (by number or by memory), a new session takes the
// place of the least recently active idle one; when every session was
// active within EvictIdleAfter, it is refused with 503.
func TestSessionEviction(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  mcpserver.Config
	}{
		{"by number", mcpserver.Config{MaxSessions: 1}},
		{"by memory", mcpserver.Config{SessionBudget: mcpserver.SessionMemory}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.EvictIdleAfter = time.Nanosecond // every session between requests is idle
			f := start(t, cfg)
			first := connect(t, f.url, nil)
			first.names(t)
			second := connect(t, f.url, nil) // evicts first
			second.names(t)
			if n := f.srv.Evicted(); n != 1 {
				t.Errorf("evicted %d sessions, want 1", n)
			}
			if _, err := first.ListTools(context.Background(), nil); err == nil {
				t.Error("the evicted session still answers")
			}
		})
	}
	t.Run("every session active", func(t *testing.T) {
		f := start(t, mcpserver.Config{MaxSessions: 1, EvictIdleAfter: time.Hour})
		connect(t, f.url, nil).names(t)
		mc := mcp.NewClient(&mcp.Implementation{Name: "second", Version: "1"}, nil)
		_, err := mc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: f.url, MaxRetries: -1},
			&mcp.ClientSessionOptions{ProtocolVersion: sessionVersion})
		if err == nil || !strings.Contains(err.Error(), "503") && !strings.Contains(err.Error(), "Service Unavailable") {
			t.Errorf("a second session with the first active: err = %v, want 503", err)
		}
		if f.srv.Evicted() != 0 {
			t.Error("an active session was evicted")
		}
	})
}
