// Package mcpserver holds the MCP endpoint: the sidecar as an MCP server
// (official go-sdk, over streamable HTTP or stdio) that gives any MCP host
// tool search with progressive disclosure.
//
// A connection starts with a short tools/list: tool_search and the
// always-loaded tools. Each tool_search call answers in the reference
// format (as text and as structuredContent), records the tools it found as
// revealed for the connection's MCP session, and sends
// notifications/tools/list_changed; the host lists again and sees the
// found tools with their full input schemas, in the prompt-cache-stable
// order of package toolset (tool_search, always-loaded, revealed in reveal
// order). A catalog smaller than the deferral threshold is listed whole.
//
// The revealed tools are kept by the engine's session store (package
// search), under the MCP session id, with its bounds, idle TTL and LRU
// eviction. A tools/call of a listed tool whose source is a live MCP server
// is forwarded to it through a Caller (package source/mcp's Manager), with
// a per-call timeout, progress notifications and cancellation passed
// through; a call of a tool that is not listed is refused with a tool error
// that tells the model to search first, and a tool from a catalog file says
// the agent must run it itself.
//
// A catalog change (a live server adding or removing tools) that changes a
// session's list sends it notifications/tools/list_changed as well.
//
// Each connection may narrow what it sees (visible tools) and choose its
// always-loaded tools, with HTTP headers or query parameters (scope.go), so
// one sidecar serves several agents with different tool sets.
package mcpserver
