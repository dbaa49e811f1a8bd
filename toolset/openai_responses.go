package toolset

import "encoding/json"

// openAIResponses encodes Responses API function tools, which are flat:
//
//	{"type":"function","name":"...","description":"...","parameters":{...},"strict":false}
//
// "strict" is sent as false: the Responses API defaults it to true, which
// accepts only schemas whose every property is required and which forbid
// additional properties — most catalogs' schemas are not like that.
//
// The native modes add "defer_loading":true to deferred tools, group the
// deferred tools of each server into a namespace
//
//	{"type":"namespace","name":"slack","description":"...","tools":[{"type":"function",...,"defer_loading":true}]}
//
// (defer_loading goes on the functions, not the namespace), and send the
// search tool as {"type":"tool_search","execution":"client"|"server",...}.
type openAIResponses struct{}

type openAIResponsesTool struct {
	Type         string          `json:"type"`
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	Parameters   json.RawMessage `json:"parameters"`
	Strict       bool            `json:"strict"`
	DeferLoading bool            `json:"defer_loading,omitempty"`
}

// openAINamespace is a namespace tool.
type openAINamespace struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Tools       []any  `json:"tools"`
}

// openAIToolSearch is the tool_search tool; description and parameters
// only in client execution.
type openAIToolSearch struct {
	Type        string          `json:"type"`
	Execution   string          `json:"execution"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// tool encodes a function; inside a namespace it is the same object.
func (openAIResponses) tool(d Definition) any {
	return openAIResponsesTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: d.InputSchema, DeferLoading: d.deferred()}
}

func (openAIResponses) names() nameRule { return openAINames }
