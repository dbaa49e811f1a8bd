// @toolsearch/client: the TypeScript client of the toolsearch sidecar (tool
// search for LLM agents), with the Agent helper that builds each turn's
// tool list per provider and answers tool_search calls (portable, Anthropic
// tool_reference, OpenAI tool_search_output). The same surface as the Go
// client (clients/go), over the sidecar's JSON API: no gRPC library needed.

export { Client, ToolSearchError, SERVICE_NAME, type ClientOptions, type SearchOptions } from "./client.js";
export {
  Agent,
  SEARCH_TOOL_NAME,
  errorResult,
  parseSearchArguments,
  type AgentOptions,
  type AnthropicToolResult,
  type OpenAIToolSearchOutput,
  type SearchArguments,
  type Toolset,
} from "./agent.js";
export { renderResult, resultObject, SCORE_DECIMALS } from "./render.js";
export * from "./gen/toolsearch/v1/toolsearch_pb.js";
