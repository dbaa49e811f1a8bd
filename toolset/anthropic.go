package toolset

import "encoding/json"

// anthropic encodes Messages API client tools:
//
//	{"name":"...","description":"...","input_schema":{...}}
//
// with "defer_loading":true on the deferred tools of the native modes
// (kept out of the model's context until a tool_reference names them).
type anthropic struct{}

type anthropicTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	DeferLoading bool            `json:"defer_loading,omitempty"`
}

// anthropicHostedSearch is Anthropic's hosted search tool:
//
//	{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}
type anthropicHostedSearch struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

func (anthropic) tool(d Definition) any {
	return anthropicTool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema, DeferLoading: d.deferred()}
}

func (anthropic) names() nameRule { return openAINames }
