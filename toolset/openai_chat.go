package toolset

import "encoding/json"

// openAIChat encodes Chat Completions function tools:
//
//	{"type":"function","function":{"name":"...","description":"...","parameters":{...}}}
//
// "strict" is left out (its default, false, accepts any JSON schema).
type openAIChat struct{}

type openAIChatTool struct {
	Type     string             `json:"type"`
	Function openAIChatFunction `json:"function"`
}

type openAIChatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

func (openAIChat) tool(d Definition) any {
	return openAIChatTool{Type: "function", Function: openAIChatFunction{
		Name: d.Name, Description: d.Description, Parameters: d.InputSchema,
	}}
}

func (openAIChat) names() nameRule { return openAINames }
