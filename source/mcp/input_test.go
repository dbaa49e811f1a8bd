package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	source "github.com/toolsearch/toolsearch/source/mcp"
	"github.com/toolsearch/toolsearch/source/mcp/mcptest"
)

// A live server's input requests come back from CallTool as they are (the
// manager's client answers none itself), the server sees the capabilities
// of the client the call is for, and a retry with the answers and the
// requestState reaches the server.
func TestCallToolInputRequests(t *testing.T) {
	url := serveHTTP(t, mcptest.AskServer(), &mcp.StreamableHTTPOptions{Stateless: true}, nil)
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{{Name: "ask", URL: url}}})
	ctx := t.Context()
	args := map[string]any{"path": "/tmp/a.txt"}
	// The manager's own client declares no elicitation.
	res, err := f.m.CallTool(ctx, "ask__confirm_delete", args, nil)
	if err != nil || !res.IsError || res.NeedsInput() {
		t.Fatalf("call with the manager's capabilities = %+v, %v; want the server's tool error", res, err)
	}
	// With the capabilities of a client that can answer, the server asks.
	caps := json.RawMessage(`{"elicitation":{"form":{}}}`)
	res, err = f.m.CallTool(ctx, "ask__confirm_delete", args, &source.CallOptions{ClientCapabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NeedsInput() || res.RequestState != "delete:/tmp/a.txt" {
		t.Fatalf("result %+v: want input_required with the server's requestState", res)
	}
	ep, ok := res.InputRequests["confirm"].(*mcp.ElicitParams)
	if !ok || ep.Message != "Delete /tmp/a.txt?" {
		t.Fatalf("input requests %+v: want the elicitation", res.InputRequests)
	}
	for _, tc := range []struct {
		answer *mcp.ElicitResult
		want   string
	}{
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, "deleted /tmp/a.txt"},
		{&mcp.ElicitResult{Action: "decline"}, "kept /tmp/a.txt"},
	} {
		res, err := f.m.CallTool(ctx, "ask__confirm_delete", args, &source.CallOptions{
			InputResponses: mcp.InputResponseMap{"confirm": tc.answer}, RequestState: res.RequestState, ClientCapabilities: caps,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.NeedsInput() {
			t.Fatalf("retry with %s still needs input", tc.answer.Action)
		}
		if diff := cmp.Diff(tc.want, res.Content[0].(*mcp.TextContent).Text); diff != "" {
			t.Errorf("retry with %s (-want +got):\n%s", tc.answer.Action, diff)
		}
	}
}
