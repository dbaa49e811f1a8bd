package toolset

import (
	"bytes"
	"encoding/json"

	"github.com/toolsearch/toolsearch/catalog"
)

// definition is one tool as every format needs it: the provider's name for
// it, a description, and its input schema as a JSON object.
type definition struct {
	Name        string
	Description string
	// Schema is a compact JSON object with a top-level "type":"object".
	Schema json.RawMessage
	// Annotations are the catalog's annotations (MCP only), nil if none.
	Annotations json.RawMessage
	// Title and OutputSchema are the catalog's MCP title and output
	// schema ("" and nil if none); only the MCP format carries them.
	Title        string
	OutputSchema json.RawMessage
}

// objectSchema returns schema compacted (keys in their original order),
// with "type":"object" put first when the top level has no type: every
// provider requires the parameters to be an object schema, and catalogs
// sometimes leave the type implicit. Input that is not a JSON object gives
// the empty object schema.
func objectSchema(schema json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil || m == nil {
		return json.RawMessage(emptyObjectSchema)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, schema); err != nil {
		return json.RawMessage(emptyObjectSchema)
	}
	if _, ok := m["type"]; ok {
		return buf.Bytes()
	}
	if len(m) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return append([]byte(`{"type":"object",`), buf.Bytes()[1:]...)
}

// emptyObjectSchema is the schema of a tool without parameters.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// fullDefinition is the complete definition of a catalog tool.
func fullDefinition(t catalog.Tool, name string) definition {
	return definition{
		Name:         name,
		Description:  t.Description,
		Schema:       objectSchema(t.InputSchema),
		Annotations:  t.Annotations,
		Title:        t.Title,
		OutputSchema: t.OutputSchema,
	}
}
