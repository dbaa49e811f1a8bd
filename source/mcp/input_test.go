package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	source "github.com/toolsearch/toolsearch/source/mcp"
)

// askServer is a go-sdk server whose confirm_delete {path} asks its client
// to confirm (MCP 2026-07-28 multi round trip: an input_required result
// with an elicitation and a requestState) and answers "deleted PATH" or
// "kept PATH" when called again with the answer; a client whose
// capabilities lack elicitation is told it cannot be asked.
func askServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ask", Version: "1"}, nil)
	type in struct {
		Path string `json:"path"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "confirm_delete", Description: "Delete a file once the user confirms."},
		func(_ context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			if r, ok := req.Params.InputResponses["confirm"].(*mcp.ElicitResult); ok && req.Params.RequestState == "delete:"+a.Path {
				verdict := "kept "
				if r.Action == "accept" && r.Content["confirm"] == true {
					verdict = "deleted "
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: verdict + a.Path}}}, nil, nil
			}
			if c := req.ClientCapabilities(); c == nil || c.Elicitation == nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "cannot ask: the client declares no elicitation"}}}, nil, nil
			}
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{"confirm": &mcp.ElicitParams{
					Message: "Delete " + a.Path + "?",
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
						"confirm": map[string]any{"type": "boolean"}}},
				}},
				RequestState: "delete:" + a.Path,
			}, nil, nil
		})
	return s
}

// A live server's input requests come back from CallTool as they are (the
// manager's client answers none itself), the server sees the capabilities
// of the client the call is for, and a retry with the answers and the
// requestState reaches the server.
func TestCallToolInputRequests(t *testing.T) {
	url := serveHTTP(t, askServer(), &mcp.StreamableHTTPOptions{Stateless: true}, nil)
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
