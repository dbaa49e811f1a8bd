package toolset

import "encoding/json"

// gemini encodes Gemini function declarations. The tools array holds one
// Tool with every declaration:
//
//	[{"functionDeclarations":[{"name":"...","description":"...","parametersJsonSchema":{...}}]}]
//
// The schema goes in parametersJsonSchema (full JSON Schema) rather than
// parameters (an OpenAPI subset that rejects, for example,
// additionalProperties and $schema, which catalogs carry); the two fields
// are mutually exclusive; output.assemble writes the wrapping Tool. The
// tool_search definition alone (Toolset.SearchTool) is one declaration, to
// add to the caller's own functionDeclarations.
type gemini struct{}

type geminiDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

func (gemini) tool(d Definition) any {
	return geminiDeclaration{Name: d.Name, Description: d.Description, ParametersJSONSchema: d.InputSchema}
}

func (gemini) names() nameRule { return geminiNames }
