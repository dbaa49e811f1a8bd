package toolset

import "encoding/json"

// anthropic encodes Messages API client tools:
//
//	{"name":"...","description":"...","input_schema":{...}}
type anthropic struct{}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func (anthropic) tool(d definition) any {
	return anthropicTool{Name: d.Name, Description: d.Description, InputSchema: d.Schema}
}

func (anthropic) list(tools []any) any { return tools }
func (anthropic) names() nameRule      { return openAINames }
