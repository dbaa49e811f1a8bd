package toolset

import (
	"bytes"
	"encoding/json"
)

// Definition is one tool of a built list as typed values: what Tools
// encodes in the format (before OpenAI Responses groups deferred tools
// into namespaces), for callers that hand the list on as values rather
// than JSON (the MCP endpoint). A Definition is a value: Build returns new
// ones on every call and never modifies them after.
type Definition struct {
	// Kind is the tool's role in the list.
	Kind EntryKind
	// Tool is the catalog name of the tool; "" for the search tool.
	Tool string
	// Name is the name the provider sees (Toolset.Names maps it back when
	// it differs from Tool). For the search tool it is SearchToolName; in
	// SearchNativeHosted mode Toolset.SearchTool holds the provider's
	// hosted tool that is sent in its place.
	Name        string
	Description string
	// InputSchema is a compact JSON object with a top-level
	// "type":"object", normalized for the provider (see Change).
	InputSchema json.RawMessage
	// Annotations are the catalog's annotations (only the MCP format sends
	// them), nil if none.
	Annotations json.RawMessage
	// Title and OutputSchema are the catalog's MCP title and output
	// schema ("" and nil if none); only the MCP format sends them.
	Title        string
	OutputSchema json.RawMessage
}

// deferred reports whether d is sent with defer_loading (native modes).
func (d Definition) deferred() bool { return d.Kind == EntryDeferred }

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
