// Package toolsearch is the Go client of the toolsearch sidecar: tool search
// for LLM agents with large tool catalogs.
//
// An agent gives its model a single tool_search tool. When the model calls
// it, the agent runs [Client.Search], hands the JSON of [RenderResult] back to
// the model as the tool result, and loads the full definitions of the
// referenced tools with [Client.GetTools] for the next turn. The import path
// ends in "go", so import the package under its name:
//
//	import toolsearch "github.com/toolsearch/toolsearch/clients/go"
//
//	c, err := toolsearch.Dial("127.0.0.1:50051")
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//
//	resp, err := c.Search(ctx, "send a slack message", toolsearch.WithMaxResults(5))
//	if err != nil {
//		return err
//	}
//	result, err := toolsearch.RenderResult(resp) // the tool_search result for the model
//
// [Agent] does the whole loop: [Agent.Tools] returns the tool list for the
// next model call in a provider's format (tool_search, always-loaded tools
// and the tools the session's searches revealed, in a stable order), and
// [Agent.HandleToolCall] answers the model's tool_search calls.
//
// The generated protobuf and gRPC code lives in the toolsearchv1
// subpackage; [Client.Raw] exposes the generated client for anything the
// wrapper does not cover. Errors returned by the client's methods are gRPC
// status errors, unchanged: use [google.golang.org/grpc/status.Code] to
// branch on them (INVALID_ARGUMENT for bad input, NOT_FOUND for unknown tool
// names, UNAVAILABLE when the sidecar is unreachable).
//
// This module depends on grpc and protobuf only; it imports nothing from the
// sidecar's module.
package toolsearch
