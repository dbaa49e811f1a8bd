// Package tracecontext holds W3C Trace Context (https://www.w3.org/TR/trace-context/):
// parsing and formatting the traceparent header, carrying it (with its
// tracestate) in a context.Context, and a slog handler that writes the trace
// and parent IDs of a call's context in every log line of that call.
//
// The surfaces take it from where their callers put it (gRPC metadata and
// HTTP headers "traceparent"/"tracestate"; MCP params "_meta"), and
// source/mcp writes it into forwarded tools/call requests' "_meta", so one
// agent turn can be followed across services. The sidecar opens no span of
// its own: it passes the caller's parent on unchanged.
package tracecontext
