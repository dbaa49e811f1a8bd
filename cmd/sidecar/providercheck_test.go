package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// The catalog-load check logs the tools no provider accepts as they are,
// one line each, then a summary; a clean catalog logs nothing.
func TestWarnProviderProblems(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	tools := []catalog.Tool{
		{Name: "pdf__read", Description: "Read a PDF.", InputSchema: json.RawMessage(`{"type":"object","properties":{"page":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`)},
		{Name: "api__get", Description: "Call the API.", InputSchema: json.RawMessage(`{"type":"object","properties":{"How to":{"type":"string"}}}`)},
		{Name: "ok__tool", Description: "Fine.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
	}
	warnProviderProblems(log, tools)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3 (two tools and the summary):\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], `"tool":"pdf__read"`) || !strings.Contains(lines[0], "exclusive_bound_converted") {
		t.Errorf("first line: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"tool":"api__get"`) || !strings.Contains(lines[1], `How to`) {
		t.Errorf("second line: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"tools":2`) || !strings.Contains(lines[2], `"not_rewritable":1`) {
		t.Errorf("summary: %s", lines[2])
	}
	buf.Reset()
	warnProviderProblems(log, tools[2:])
	if buf.Len() != 0 {
		t.Errorf("a clean catalog logged: %s", buf.String())
	}
}
