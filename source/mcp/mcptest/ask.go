package mcptest

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AskServer is a live go-sdk server of MCP 2026-07-28 tools that ask their
// client for input (multi round trip: an input_required result, then the
// same call with the answers):
//
//   - confirm_delete {path} asks to confirm (an elicitation of a boolean
//     "confirm") and answers "deleted PATH" or "kept PATH"; a client whose
//     capabilities (as the call declares them) lack elicitation is not
//     asked but told so;
//   - wipe {} asks the same, whatever the client declares, and answers
//     "wiped" (a second tool, for states that belong to another tool).
func AskServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ask", Version: "1"}, nil)
	confirm := func(req *mcp.CallToolRequest, what, state string, checkCaps bool) *mcp.CallToolResult {
		if c := req.ClientCapabilities(); checkCaps && (c == nil || c.Elicitation == nil) {
			// As the spec asks: elicit only from clients that declare it.
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "cannot ask: the client declares no elicitation"}}}
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"confirm": &mcp.ElicitParams{
				Message: what,
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
					"confirm": map[string]any{"type": "boolean"}}},
			}},
			RequestState: state,
		}
	}
	confirmed := func(req *mcp.CallToolRequest, state string) (answered, yes bool) {
		r, ok := req.Params.InputResponses["confirm"].(*mcp.ElicitResult)
		if !ok || req.Params.RequestState != state {
			return false, false
		}
		return true, r.Action == "accept" && r.Content["confirm"] == true
	}
	type in struct {
		Path string `json:"path"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "confirm_delete", Description: "Delete a file once the user confirms."},
		func(_ context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			answered, yes := confirmed(req, "delete:"+a.Path)
			switch {
			case !answered:
				return confirm(req, "Delete "+a.Path+"?", "delete:"+a.Path, true), nil, nil
			case yes:
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deleted " + a.Path}}}, nil, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "kept " + a.Path}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "wipe", Description: "Wipe the whole disk once the user confirms."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if answered, yes := confirmed(req, "wipe"); answered && yes {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wiped"}}}, nil, nil
			}
			return confirm(req, "Wipe the disk?", "wipe", false), nil, nil
		})
	return s
}
