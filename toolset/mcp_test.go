package toolset_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// An MCP server's title, output schema and annotations reach the MCP
// format's tool list (tools read from live MCP servers carry them).
func TestMCPFormatCarriesTitleAndOutputSchema(t *testing.T) {
	tools := []catalog.Tool{{
		Name: "wx__get", Server: "wx", Description: "Weather.", Title: "Get Weather",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"t":{"type":"number"}}}`),
		Annotations:  json.RawMessage(`{"readOnlyHint":true}`),
	}}
	ts, err := toolset.Build(tools, nil, toolset.Options{Format: toolset.MCP})
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(ts.Tools, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{
		"name": "wx__get", "title": "Get Weather", "description": "Weather.",
		"inputSchema":  map[string]any{"type": "object", "properties": map[string]any{}},
		"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"t": map[string]any{"type": "number"}}},
		"annotations":  map[string]any{"readOnlyHint": true},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MCP tools (-want +got):\n%s", diff)
	}
}
