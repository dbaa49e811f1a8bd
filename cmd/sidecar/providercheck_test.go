package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// The catalog-load check warns about the tools a provider will reject
// whatever GetToolset does, one line each, then a summary; tools that only
// need GetToolset's rewrites ($schema, exclusive bounds) are counted on one
// info line; a clean catalog logs nothing.
func TestWarnProviderProblems(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	tools := []catalog.Tool{
		{Name: "pdf__read", Description: "Read a PDF.", InputSchema: json.RawMessage(`{"type":"object","properties":{"page":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`)},
		{Name: "fs__list", Description: "List files.", InputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"path":{"type":"string"}}}`)},
		{Name: "api__get", Description: "Call the API.", InputSchema: json.RawMessage(`{"type":"object","properties":{"How to":{"type":"string"}}}`)},
		{Name: "ok__tool", Description: "Fine.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
	}
	warnProviderProblems(log, tools)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3 (the unfixable tool, the rewrites, the summary):\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], `"level":"WARN"`) || !strings.Contains(lines[0], `"tool":"api__get"`) || !strings.Contains(lines[0], `How to`) {
		t.Errorf("first line: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"level":"INFO"`) || !strings.Contains(lines[1], `"tools":2`) || !strings.Contains(lines[1], "exclusive_bound_converted") {
		t.Errorf("rewrites line: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"level":"WARN"`) || !strings.Contains(lines[2], `"tools":1`) {
		t.Errorf("summary: %s", lines[2])
	}
	if strings.Contains(buf.String(), `"tool":"fs__list"`) || strings.Contains(buf.String(), `"tool":"pdf__read"`) {
		t.Errorf("a tool GetToolset fixes was warned about:\n%s", buf.String())
	}
	buf.Reset()
	warnProviderProblems(log, tools[3:])
	if buf.Len() != 0 {
		t.Errorf("a clean catalog logged: %s", buf.String())
	}
}
