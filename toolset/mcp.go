package toolset

import "encoding/json"

// mcp encodes MCP tools as a tools/list result carries them (the value of
// its "tools" key), for an agent that serves the list on to an MCP client:
//
//	{"name":"...","description":"...","inputSchema":{...},"annotations":{...}}
type mcp struct{}

type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

func (mcp) tool(d definition) any {
	return mcpTool{Name: d.Name, Description: d.Description, InputSchema: d.Schema, Annotations: d.Annotations}
}

func (mcp) names() nameRule { return mcpNames }
