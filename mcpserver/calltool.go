package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callToolSchema is call_tool's input schema.
const callToolSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"The tool's name, as tool_search returned it."},` +
	`"arguments":{"type":"object","description":"The tool's arguments, as its inputSchema describes them."},` +
	`"handle":{"type":"string","description":"The handle of the tool_search that found the tool (optional)."}` +
	`},"required":["name"]}`

// callToolDescription is call_tool's description.
const callToolDescription = "Run a tool that tool_search found: {\"name\": NAME, \"arguments\": {...}, \"handle\": HANDLE}. " +
	"The arguments follow the tool's inputSchema from the search result; the handle is the search's. " +
	"Search first: a tool you have not found is refused."

// callToolDefinition is call_tool's tools/list entry.
func callToolDefinition() *mcp.Tool {
	return &mcp.Tool{Name: CallToolName, Description: callToolDescription, InputSchema: json.RawMessage(callToolSchema)}
}

// callToolArgs are call_tool's arguments.
type callToolArgs struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Handle    string          `json:"handle"`
}

// callTool answers call_tool: it forwards the named catalog tool to the
// live MCP server that owns it (progress and cancellation passed through,
// the per-call timeout applied), if the caller's scope holds it, and
// reports the use under the search handle for learning.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest, sc Scope) (*mcp.CallToolResult, error) {
	var args callToolArgs
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return toolError("call_tool arguments: %v; send {\"name\": NAME, \"arguments\": {...}}", err), nil
		}
	}
	if args.Name == "" {
		return toolError("call_tool needs the name of a tool that tool_search returned: {\"name\": NAME, \"arguments\": {...}}."), nil
	}
	snap := s.cfg.Engine.Snapshot()
	i, ok := snap.Lookup(args.Name)
	if !ok || !newVisibility(sc.Visible).admits(snap.Tool(i)) {
		// The same message for a tool outside the scope as for an
		// unknown one: it tells nothing about what the scope hides.
		return toolError("%s is not a tool you can call. Search first: call tool_search with what you want to do "+
			"(or query \"select:%s\" if you know the exact name), then call_tool with a name it returned.", args.Name, args.Name), nil
	}
	fwd := &mcp.CallToolRequest{
		Session: req.Session,
		Extra:   req.Extra,
		Params: &mcp.CallToolParamsRaw{Meta: req.Params.Meta, Name: args.Name, Arguments: args.Arguments,
			InputResponses: req.Params.InputResponses, RequestState: req.Params.RequestState},
	}
	res, _, err := s.forward(ctx, fwd, args.Name, true)
	if validHandle(args.Handle) {
		s.reportUse(ctx, args.Handle, args.Name, res, err)
	}
	return res, err
}
