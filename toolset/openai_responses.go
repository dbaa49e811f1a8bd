package toolset

import "encoding/json"

// openAIResponses encodes Responses API function tools, which are flat:
//
//	{"type":"function","name":"...","description":"...","parameters":{...},"strict":false}
//
// "strict" is sent as false: the Responses API defaults it to true, which
// accepts only schemas whose every property is required and which forbid
// additional properties — most catalogs' schemas are not like that.
type openAIResponses struct{}

type openAIResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

func (openAIResponses) tool(d definition) any {
	return openAIResponsesTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: d.Schema}
}

func (openAIResponses) list(tools []any) any { return tools }
func (openAIResponses) names() nameRule      { return openAINames }
