package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/search"
)

// reportUse tells the engine that the model of engine session sessionID
// (an MCP session, or a stateless search handle) called tool, when
// the engine learns from use (search.Engine.ReportToolUse): the endpoint
// sees the call itself, so MCP clients teach the sidecar without doing
// anything. A call the server answered is a success unless its result is
// a tool error; a call that never reached a server (cancelled, no live
// server, timed out) is an error and teaches nothing. A refused report
// (rate limit) is logged at debug level: it never fails the call.
func (s *Server) reportUse(ctx context.Context, sessionID, tool string, res *mcp.CallToolResult, err error) {
	e := s.cfg.Engine
	if !e.Learning() || (err == nil && res != nil && res.NeedsInput()) {
		// A result asking for input is not a use yet: its retry is.
		return
	}
	outcome := search.OutcomeSuccess
	if err != nil || res == nil || res.IsError {
		outcome = search.OutcomeError
	}
	if _, rerr := e.ReportToolUse(context.WithoutCancel(ctx), search.ToolUse{SessionID: sessionID, Tool: tool, Outcome: outcome}); rerr != nil {
		s.log.Debug("mcp: reporting a tool use", "tool", tool, "error", rerr.Error())
	}
}
