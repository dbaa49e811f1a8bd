package toolset

import "encoding/json"

// mcp encodes MCP tools as a tools/list result carries them (the value of
// its "tools" key), for an agent that serves the list on to an MCP client:
//
//	{"name":"...","title":"...","description":"...","inputSchema":{...},"outputSchema":{...},"annotations":{...}}
type mcp struct{}

type mcpTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

func (mcp) tool(d Definition) any {
	return mcpTool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema,
		OutputSchema: d.OutputSchema, Annotations: d.Annotations}
}

func (mcp) names() nameRule { return mcpNames }
