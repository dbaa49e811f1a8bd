// Command goclient is the stateless-mode flow of the MCP endpoint, run by
// scripts/mcp-endpoint-e2e.sh against a built sidecar with the official Go
// SDK client at its default protocol version (2026-07-28): tools/list holds
// tool_search and call_tool and is the same before and after a search;
// tool_search finds the expected tool with its input schema; call_tool runs
// it on the live server. Usage:
//
//	goclient URL TOKEN QUERY TOOL ARGS_JSON EXPECT_TEXT
//
// (TOKEN may be empty). It exits 1 with a message on the first failure.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) != 7 {
		fail("usage: goclient URL TOKEN QUERY TOOL ARGS_JSON EXPECT_TEXT")
	}
	url, token, query, tool, argsJSON, expect := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hc := &http.Client{Transport: bearer{token}}
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "goclient", Version: "1"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
		if err != nil {
			fail("connect: %v", err)
		}
		return cs
	}
	// list uses a fresh client each time: the go-sdk caches a 2026-07-28
	// list for its ttlMs.
	list := func() []byte {
		cs := connect()
		defer cs.Close()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			fail("tools/list: %v", err)
		}
		b, _ := json.Marshal(res.Tools)
		return b
	}
	cs := connect()
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		fail("negotiated protocol %s, want 2026-07-28", v)
	}
	fmt.Println("goclient: connected over streamable HTTP, protocol 2026-07-28")
	before := list()
	var tools []struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(before, &tools)
	if len(tools) < 2 || tools[0].Name != "tool_search" || tools[1].Name != "call_tool" {
		fail("tools/list = %s, want tool_search and call_tool first", before)
	}
	fmt.Printf("goclient: tools/list holds %d tools: tool_search, call_tool, …\n", len(tools))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": query}})
	if err != nil || res.IsError {
		fail("tool_search: %v %v", err, res)
	}
	var found struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
		Handle string `json:"handle"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &found); err != nil {
		fail("tool_search result: %v", err)
	}
	ok := false
	for _, d := range found.Tools {
		if d.Name == tool && len(d.InputSchema) > 2 {
			ok = true
			fmt.Printf("goclient: tool_search %q found %s with its input schema %s\n", query, tool, d.InputSchema)
		}
	}
	if !ok {
		fail("tool_search %q did not return %s with an input schema: %s", query, tool, res.Content[0].(*mcp.TextContent).Text)
	}
	if after := list(); !bytes.Equal(before, after) {
		fail("tools/list changed with a search:\nbefore %s\nafter  %s", before, after)
	}
	fmt.Println("goclient: tools/list is the same after the search")
	var args map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		fail("ARGS_JSON: %v", err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": tool, "arguments": args, "handle": found.Handle}})
	if err != nil || res.IsError {
		fail("call_tool %s: %v %+v", tool, err, res)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), expect) {
		fail("call_tool %s = %q, want %q", tool, text.String(), expect)
	}
	fmt.Printf("goclient: call_tool %s answered %q\n", tool, text.String())
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "goclient: "+format+"\n", args...)
	os.Exit(1)
}
