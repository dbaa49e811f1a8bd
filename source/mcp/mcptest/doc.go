// Package mcptest holds live MCP servers, written with the go-sdk, that
// the tests of source/mcp and mcpserver run against (one server for both,
// so the two sides of call-through are tested against the same peer).
package mcptest
