package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// scriptedProvider is a loopback HTTP server standing in for a model
// provider (a fake, to script the model; the sidecar and the Agent are
// real). It records every request body and answers with the next scripted
// response, after checking what the provider would check: a tool the
// script calls must be in the request's tools, and a deferred tool must
// have been loaded by the conversation (a tool_reference block for
// Anthropic, a tool_search_output item for OpenAI).
type scriptedProvider struct {
	t      *testing.T
	mu     sync.Mutex
	bodies [][]byte
	script []func(body map[string]any) (any, error)
}

func (p *scriptedProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	turn := len(p.bodies)
	p.bodies = append(p.bodies, body)
	p.mu.Unlock()
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil || turn >= len(p.script) {
		http.Error(w, fmt.Sprintf("turn %d: bad request or no script: %v", turn, err), http.StatusBadRequest)
		return
	}
	resp, err := p.script[turn](req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func post(t *testing.T, url string, body any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("provider answered %d: %s", resp.StatusCode, out)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// containsObject reports whether v or anything inside it is an object
// holding every key of want with its value.
func containsObject(v any, want map[string]any) bool {
	switch x := v.(type) {
	case map[string]any:
		match := true
		for k, w := range want {
			if x[k] != w {
				match = false
			}
		}
		if match {
			return true
		}
		for _, e := range x {
			if containsObject(e, want) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if containsObject(e, want) {
				return true
			}
		}
	}
	return false
}

// deferredTool reports whether name is in tools with defer_loading (in a
// namespace or not), and whether it is there at all.
func deferredTool(tools []any, name string) (present, deferred bool) {
	for _, x := range tools {
		m, _ := x.(map[string]any)
		if m["type"] == "namespace" {
			if p, d := deferredTool(m["tools"].([]any), name); p {
				return p, d
			}
			continue
		}
		if m["name"] == name {
			return true, m["defer_loading"] == true
		}
	}
	return false, false
}

// Three turns of Anthropic native client mode driven by the Go Agent: the
// model searches, the Agent answers with tool_reference blocks, the model
// calls the referenced tool, then answers. The tools array is
// byte-identical on every turn.
func TestAnthropicNativeLoop(t *testing.T) {
	f := start(t, true)
	agent := toolsearch.NewAgent(f.client, toolsearch.WithDeferralThreshold(1), toolsearch.WithSearchMode(toolsearch.SearchAuto),
		toolsearch.WithModel("claude-sonnet-4-5"), toolsearch.WithAlwaysLoaded("filesystem__read_file"))
	p := &scriptedProvider{t: t}
	p.script = []func(map[string]any) (any, error){
		func(map[string]any) (any, error) {
			return map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use", "content": []any{
				map[string]any{"type": "tool_use", "id": "toolu_1", "name": "tool_search", "input": map[string]any{"query": "send a message to a slack channel", "max_results": 2}}}}, nil
		},
		func(req map[string]any) (any, error) {
			// The provider loads a deferred tool only when a tool_reference names it.
			present, deferred := deferredTool(req["tools"].([]any), "slack__send_message")
			msgs := req["messages"].([]any)
			last, _ := json.Marshal(msgs[len(msgs)-1])
			if !present || !deferred || !containsObject(msgs[len(msgs)-1], map[string]any{"type": "tool_reference", "tool_name": "slack__send_message"}) {
				return nil, fmt.Errorf("slack__send_message is not loaded (present %v, deferred %v): last message %s", present, deferred, last)
			}
			return map[string]any{"id": "msg_2", "type": "message", "role": "assistant", "stop_reason": "tool_use", "content": []any{
				map[string]any{"type": "tool_use", "id": "toolu_2", "name": "slack__send_message", "input": map[string]any{"channel": "general", "text": "hi"}}}}, nil
		},
		func(map[string]any) (any, error) {
			return map[string]any{"id": "msg_3", "type": "message", "role": "assistant", "stop_reason": "end_turn", "content": []any{
				map[string]any{"type": "text", "text": "Sent."}}}, nil
		},
	}
	srv := httptest.NewServer(p)
	defer srv.Close()

	const session = "anthropic-native"
	messages := []any{map[string]any{"role": "user", "content": "Tell #general hi on Slack."}}
	var called []string
	for turn := 1; turn <= 3; turn++ {
		ts, err := agent.Tools(ctx(t), session, toolsearch.FormatAnthropic)
		if err != nil {
			t.Fatal(err)
		}
		if ts.SearchMode != toolsearch.SearchNativeClient {
			t.Fatalf("auto picked %v (%s) for claude-sonnet-4-5", ts.SearchMode, ts.SearchModeReason)
		}
		resp := post(t, srv.URL+"/v1/messages", map[string]any{
			"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": ts.SystemPrompt,
			"tools": json.RawMessage(ts.Tools), "messages": messages,
		})
		messages = append(messages, map[string]any{"role": "assistant", "content": resp["content"]})
		var results []any
		for _, c := range resp["content"].([]any) {
			block := c.(map[string]any)
			if block["type"] != "tool_use" {
				continue
			}
			input, _ := json.Marshal(block["input"])
			if block["name"] == toolsearch.SearchToolName {
				result, err := agent.AnthropicToolResult(ctx(t), session, block["id"].(string), input)
				if err != nil {
					t.Fatal(err)
				}
				results = append(results, json.RawMessage(result))
				continue
			}
			called = append(called, ts.CatalogName(block["name"].(string)))
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": block["id"], "content": "ok"})
		}
		if len(results) > 0 {
			messages = append(messages, map[string]any{"role": "user", "content": results})
		}
	}
	if len(p.bodies) != 3 || len(called) != 1 || called[0] != "slack__send_message" {
		t.Fatalf("%d requests, called %v", len(p.bodies), called)
	}
	tools := make([]string, 3)
	for i, b := range p.bodies {
		var req struct {
			Tools json.RawMessage `json:"tools"`
		}
		_ = json.Unmarshal(b, &req)
		tools[i] = string(req.Tools)
	}
	if tools[0] != tools[1] || tools[1] != tools[2] {
		t.Errorf("the tools array changed between turns:\n%s\n%s\n%s", tools[0], tools[1], tools[2])
	}
}

// Three turns of OpenAI Responses native client mode driven by the Go
// Agent: the model emits a tool_search_call, the Agent answers with the
// tool_search_output item (same call_id, namespaced tools), the model
// calls the loaded function by namespace and name, then answers.
func TestOpenAINativeLoop(t *testing.T) {
	f := start(t, true)
	agent := toolsearch.NewAgent(f.client, toolsearch.WithDeferralThreshold(1), toolsearch.WithSearchMode(toolsearch.SearchNativeClient))
	p := &scriptedProvider{t: t}
	p.script = []func(map[string]any) (any, error){
		func(req map[string]any) (any, error) {
			first := req["tools"].([]any)[0].(map[string]any)
			if first["type"] != "tool_search" || first["execution"] != "client" {
				return nil, fmt.Errorf("no client tool_search tool: %v", first)
			}
			return map[string]any{"id": "resp_1", "object": "response", "output": []any{
				map[string]any{"type": "tool_search_call", "id": "ts_1", "call_id": "call_search", "execution": "client", "status": "completed",
					"arguments": map[string]any{"query": "weather forecast for a city", "max_results": 2}}}}, nil
		},
		func(req map[string]any) (any, error) {
			in, _ := json.Marshal(req["input"])
			var output any
			for _, x := range req["input"].([]any) {
				if containsObject(x, map[string]any{"type": "tool_search_output", "call_id": "call_search"}) {
					output = x
				}
			}
			var ns any
			if output != nil {
				for _, x := range output.(map[string]any)["tools"].([]any) {
					if containsObject(x, map[string]any{"type": "namespace", "name": "weather"}) {
						ns = x
					}
				}
			}
			if ns == nil || !containsObject(ns, map[string]any{"type": "function", "name": "weather__get_forecast"}) {
				return nil, fmt.Errorf("weather__get_forecast was not loaded by a tool_search_output: %s", in)
			}
			if present, deferred := deferredTool(req["tools"].([]any), "weather__get_forecast"); !present || !deferred {
				return nil, fmt.Errorf("weather__get_forecast is not a deferred tool of the request")
			}
			return map[string]any{"id": "resp_2", "object": "response", "output": []any{
				map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_fn", "namespace": "weather", "name": "weather__get_forecast", "arguments": `{"city":"Paris"}`}}}, nil
		},
		func(map[string]any) (any, error) {
			return map[string]any{"id": "resp_3", "object": "response", "output": []any{
				map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": "Sunny."}}}}}, nil
		},
	}
	srv := httptest.NewServer(p)
	defer srv.Close()

	const session = "openai-native"
	input := []any{map[string]any{"role": "user", "content": "Weather in Paris?"}}
	var called []string
	var prevTools string
	for turn := 1; turn <= 3; turn++ {
		ts, err := agent.Tools(ctx(t), session, toolsearch.FormatOpenAIResponses)
		if err != nil {
			t.Fatal(err)
		}
		if prevTools != "" && string(ts.Tools) != prevTools {
			t.Errorf("turn %d: the tools array changed", turn)
		}
		prevTools = string(ts.Tools)
		resp := post(t, srv.URL+"/v1/responses", map[string]any{
			"model": "gpt-5.4", "instructions": ts.SystemPrompt, "tools": json.RawMessage(ts.Tools), "input": input,
		})
		for _, o := range resp["output"].([]any) {
			item := o.(map[string]any)
			raw, _ := json.Marshal(item)
			input = append(input, json.RawMessage(raw))
			switch item["type"] {
			case "tool_search_call":
				out, err := agent.OpenAIToolSearchOutput(ctx(t), session, raw)
				if err != nil {
					t.Fatal(err)
				}
				input = append(input, json.RawMessage(out))
			case "function_call":
				called = append(called, ts.CatalogName(item["name"].(string)))
				input = append(input, map[string]any{"type": "function_call_output", "call_id": item["call_id"], "output": "sunny"})
			}
		}
	}
	if len(p.bodies) != 3 || len(called) != 1 || called[0] != "weather__get_forecast" {
		t.Fatalf("%d requests, called %v", len(p.bodies), called)
	}
}

// A tool_search call the model got wrong gives an is_error tool_result,
// and a search result names tools as the provider sees them.
func TestAnthropicToolResultErrors(t *testing.T) {
	f := start(t, true)
	agent := toolsearch.NewAgent(f.client, toolsearch.WithSearchMode(toolsearch.SearchNativeClient))
	out, err := agent.AnthropicToolResult(ctx(t), "s", "toolu_x", json.RawMessage(`{"q":1}`))
	if err != nil || !strings.Contains(string(out), `"is_error":true`) || !strings.Contains(string(out), `"tool_use_id":"toolu_x"`) {
		t.Errorf("bad input: %s, %v", out, err)
	}
	out, err = agent.AnthropicToolResult(ctx(t), "s", "toolu_y", json.RawMessage(`{"query":"zzzz qqqq"}`))
	if err != nil || strings.Contains(string(out), "tool_reference") || !strings.Contains(string(out), `"type":"text"`) {
		t.Errorf("no match: %s, %v", out, err)
	}
	if _, err := agent.OpenAIToolSearchOutput(ctx(t), "s", json.RawMessage(`{"type":"function_call"}`)); err == nil {
		t.Errorf("OpenAIToolSearchOutput accepted a function_call item")
	}
}

// Gemini needs a leading letter: a search result handed to the model
// names the tool as Gemini sees it.
func TestResultFormatNames(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "12306-mcp__get-tickets", Server: "12306-mcp", Description: "Get train tickets between two stations.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
		{Name: "maps__route", Server: "maps", Description: "Plan a route.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
	}
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := toolsearch.Dial(servertest.Start(t, e), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	agent := toolsearch.NewAgent(c, toolsearch.WithDeferralThreshold(1), toolsearch.WithResultFormat(toolsearch.FormatGemini))
	result, err := agent.HandleToolCall(ctx(t), "g", `{"query":"select:12306-mcp__get-tickets"}`)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := agent.Tools(ctx(t), "g", toolsearch.FormatGemini)
	if err != nil {
		t.Fatal(err)
	}
	var gemName string
	for p, n := range ts.ProviderNames {
		if n == "12306-mcp__get-tickets" {
			gemName = p
		}
	}
	if gemName == "" || !strings.HasPrefix(gemName, "_12306-mcp__get-tickets_") || !strings.Contains(result, `"tool_name":"`+gemName+`"`) {
		t.Errorf("result %s does not name %q", result, gemName)
	}
}

// GetToolset never exceeds the message limit: 64 revealed tools of ~60 KB
// each are trimmed to fit the 4 MiB default, with the changes reported;
// a limit that the always-loaded tools alone exceed is RESOURCE_EXHAUSTED
// naming the flag and the smaller request.
func TestGetToolsetMessageLimit(t *testing.T) {
	var tools []catalog.Tool
	var names []string
	for i := range 64 {
		props := map[string]any{}
		for j := range 120 {
			props[fmt.Sprintf("param_%03d", j)] = map[string]any{"type": "string", "description": strings.Repeat("A long parameter description. ", 15)}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		name := fmt.Sprintf("big__tool_%02d", i)
		names = append(names, name)
		tools = append(tools, catalog.Tool{Name: name, Server: "big", Description: strings.Repeat("A big tool with a long description. ", 220), InputSchema: schema})
	}
	if n := len(tools[0].InputSchema) + len(tools[0].Description); n < 55_000 || n > 70_000 {
		t.Fatalf("fixture tool is %d bytes, want ~60 KB", n)
	}
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		limit int
	}{{"default 4 MiB", 0}, {"1 MiB", 1 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server.New(server.Config{Log: discardLogger(), MaxMessageSize: tc.limit})
			addr := servertest.Serve(t, srv)
			srv.Ready(e)
			c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			session := "big-" + tc.name
			if _, err := c.Search(ctx(t), "select:"+strings.Join(names, ","), toolsearch.WithSessionID(session)); err != nil {
				t.Fatal(err)
			}
			for _, format := range []toolsearchv1.ToolFormat{toolsearch.FormatAnthropic, toolsearch.FormatOpenAIChat, toolsearch.FormatMCP} {
				resp, err := c.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{SessionId: session, Format: format, DeferralThreshold: 1})
				if err != nil {
					t.Fatalf("%v: %v", format, err)
				}
				trimmed := 0
				for _, ch := range resp.GetChanges() {
					if ch.GetKind() == "trimmed_for_size" {
						trimmed++
					}
				}
				// OpenAI's 1,024-character description cap already brings its
				// list under 4 MiB.
				if trimmed == 0 && (tc.limit != 0 || format != toolsearch.FormatOpenAIChat) {
					t.Errorf("%v: no trimmed_for_size change reported", format)
				}
				if got := len(resp.GetLoadedTools()) + len(resp.GetOmittedTools()); got != 64 {
					t.Errorf("%v: %d loaded + omitted, want 64", format, got)
				}
				if tc.limit == 0 && len(resp.GetLoadedTools()) != 64 {
					t.Errorf("%v: %d loaded under the default limit, want all 64 (trimmed)", format, len(resp.GetLoadedTools()))
				}
			}
		})
	}
	t.Run("always-loaded over the limit", func(t *testing.T) {
		srv := server.New(server.Config{Log: discardLogger(), MaxMessageSize: 64 << 10})
		addr := servertest.Serve(t, srv)
		srv.Ready(e)
		c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{Format: toolsearch.FormatAnthropic, AlwaysLoaded: []string{"big:*"}})
		if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-message-size") || !strings.Contains(err.Error(), "fewer always_loaded") {
			t.Errorf("err = %v, want RESOURCE_EXHAUSTED naming --max-message-size and fewer always_loaded tools", err)
		}
	})
}

// Anthropic native tool search with the Go Agent: the tools array holds
// every tool (deferred ones marked defer_loading) and does not change; the
// model's tool_search call is answered with tool_reference blocks.
func Example_anthropicNative() {
	lis := bufconn.Listen(1 << 20)
	srv := server.New(server.Config{Log: discardLogger()})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Shutdown(context.Background())
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		log.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		log.Fatal(err)
	}
	srv.Ready(engine)
	conn, err := grpc.NewClient("passthrough:///sidecar",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	agent := toolsearch.NewAgent(toolsearch.NewFromConn(conn), toolsearch.WithDeferralThreshold(1),
		toolsearch.WithSearchMode(toolsearch.SearchAuto), toolsearch.WithModel("claude-opus-4-5"))
	ctx := context.Background()
	ts, err := agent.Tools(ctx, "conversation-1", toolsearch.FormatAnthropic)
	if err != nil {
		log.Fatal(err)
	}
	var tools []struct {
		Name  string `json:"name"`
		Defer bool   `json:"defer_loading"`
	}
	_ = json.Unmarshal(ts.Tools, &tools)
	fmt.Println(ts.SearchMode, "-", ts.SearchModeReason)
	fmt.Printf("%d tools: %s (defer_loading %v), %s (defer_loading %v), …\n", len(tools), tools[0].Name, tools[0].Defer, tools[1].Name, tools[1].Defer)
	// The model calls tool_search; the agent answers with tool_reference blocks.
	block, err := agent.AnthropicToolResult(ctx, "conversation-1", "toolu_01", json.RawMessage(`{"query":"select:weather__get_forecast"}`))
	if err != nil {
		log.Fatal(err)
	}
	var result struct {
		Content []struct {
			Type     string `json:"type"`
			ToolName string `json:"tool_name"`
		} `json:"content"`
	}
	_ = json.Unmarshal(block, &result)
	for _, c := range result.Content {
		fmt.Println(strings.TrimSpace(c.Type + " " + c.ToolName))
	}
	// Output:
	// TOOL_SEARCH_MODE_NATIVE_CLIENT - auto: claude-opus-4-5 supports native client tool search (rule anthropic claude->=4.5)
	// 9 tools: tool_search (defer_loading false), filesystem__read_file (defer_loading true), …
	// text
	// tool_reference weather__get_forecast
}
