package toolset

// Per-provider limits on a request's tool list. A limit of 0 means the
// provider documents none.

// OpenAIMaxDescription is the longest function description OpenAI accepts
// (Chat Completions and Responses), in characters: longer ones fail the
// request. Descriptions are cut to it (see normalizeDescription).
const OpenAIMaxDescription = 1024

// OpenAIMaxTools is the most function tools one OpenAI request may carry
// (Chat Completions and Responses), counting tool_search and every tool
// sent in full; deferred tools of the native mode are not counted.
const OpenAIMaxTools = 128

// AnthropicMaxDeferred is the most tools Anthropic's tool search accepts in
// one request (deferred tools included): 10,000.
const AnthropicMaxDeferred = 10000

// limits are one format's limits.
type limits struct {
	// description is the longest description, in characters.
	description int
	// tools is the most tools sent in full (tool_search included).
	tools int
	// deferred is the most deferred tools (native modes).
	deferred int
}

// limitsFor returns f's limits. Gemini and MCP document no limit that a
// catalog reaches; Anthropic documents no description cap.
func limitsFor(f Format) limits {
	switch f {
	case OpenAIChat, OpenAIResponses:
		return limits{description: OpenAIMaxDescription, tools: OpenAIMaxTools}
	case Anthropic:
		return limits{deferred: AnthropicMaxDeferred}
	}
	return limits{}
}
