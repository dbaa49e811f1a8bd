// Package toolset builds the tool list an agent sends to its model on the
// next call: the tool_search tool, the always-loaded tools and the tools that
// the session's searches revealed, in one provider's format (OpenAI Chat
// Completions, OpenAI Responses, Anthropic Messages, Gemini, MCP tools/list),
// with the other tools of the catalog deferred, plus a system prompt
// addition that tells the model what the catalog holds.
//
// The list's order is stable across turns, for the providers' prompt
// caches: tool_search first, then the always-loaded tools in a fixed order,
// then the revealed tools in reveal order (appended, never re-sorted), so
// each turn's list starts with the previous turn's list (in DeferStub mode,
// the stubs follow and shrink as their tools are revealed).
//
// The package works on catalog tools and knows nothing of sessions or gRPC:
// the server passes it the catalog and a session's revealed tools.
package toolset
