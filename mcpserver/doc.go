// Package mcpserver holds the MCP endpoint: the sidecar as an MCP server
// (official go-sdk, over streamable HTTP or stdio) that gives any MCP host
// tool search, in two modes on one URL chosen by the protocol version the
// client asks for.
//
// Session mode (MCP 2025-11-25 and older; server.go, session.go) reveals
// found tools to the session. A connection starts with a short tools/list: tool_search and the
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
// Stateless mode (MCP 2026-07-28 and newer, over HTTP and over stdio;
// stateless.go, found.go, calltool.go, handle.go) has no sessions and a tools/list that never
// changes as a side effect: tool_search, call_tool, then the always-loaded
// tools. tool_search returns the found tools' definitions with the
// reference format and a search handle; call_tool {name, arguments,
// handle} forwards a found tool to its live server and credits the use to
// the search the handle names. Clients listening with subscriptions/listen
// are told when a catalog change changes the list.
//
// A live server's input requests (MCP 2026-07-28 multi round trip: an
// input_required result with elicitation, sampling or roots requests and
// a requestState; input.go) reach the client in both modes: a 2026-07-28
// client gets them as the result of its call, with the requestState sealed
// and bound to the call; a session-mode client is asked by the endpoint,
// which then calls the live server again with the answers. The forwarded
// call declares the client's capabilities, so the server asks only for
// what the client can give.
//
// Each connection (stateless: each request) may narrow what it sees (visible tools) and choose its
// always-loaded tools, with HTTP headers or query parameters (scope.go), so
// one sidecar serves several agents with different tool sets.
package mcpserver
