// Package mcp holds live MCP servers as a catalog source: a Manager connects
// to each configured server (a child process over stdio, or a streamable
// HTTP endpoint) with the official Go SDK, pages through tools/list,
// validates the tools as a catalog file's are, and applies them to the
// catalog under the server's namespace (SERVER__TOOL). It follows
// notifications/tools/list_changed by re-listing and applying the
// difference as one atomic change, reconnects with backoff when a server
// goes away (restarting a stdio server at a bounded rate), keeps a gone
// server's tools searchable for a grace period, and forwards tools/call to
// the server a tool came from.
package mcp
