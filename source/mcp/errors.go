package mcp

import "errors"

// ErrServerUnavailable is wrapped by CallTool's error when the server that
// provides the tool is down or not connected (it may be reconnecting, or in
// its grace period).
var ErrServerUnavailable = errors.New("mcp server unavailable")

// ErrUnknownTool is wrapped by CallTool's error when no live MCP server
// known to the manager provides the tool.
var ErrUnknownTool = errors.New("no mcp server provides this tool")
