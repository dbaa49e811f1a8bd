package mcpserver_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/mcpserver"
)

// outputHandle is the read_output handle of a kept result's preview.
var outputHandle = regexp.MustCompile(`out-[0-9a-f]{32}`)

// A forwarded result over the inline limit is kept and previewed; read_output
// reads it back by range, by search and by jq, in both modes.
func TestReadOutput(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	modern := connectVersion(t, f.url, nil, mcpserver.StatelessProtocolVersion)
	if names := modern.names(t); !slices.Contains(names, "read_output") {
		t.Fatalf("stateless list %v, want read_output in it", names)
	}
	small, _ := modern.call(t, "call_tool", map[string]any{"name": "up__big", "arguments": map[string]any{"items": 3}})
	if !strings.HasPrefix(small, `{"items":[`) {
		t.Errorf("a small result = %q, want it whole", small)
	}
	preview, isErr := modern.call(t, "call_tool", map[string]any{"name": "up__big", "arguments": map[string]any{"items": 2000}})
	handle := outputHandle.FindString(preview)
	if isErr || handle == "" || !strings.Contains(preview, "kept out of the conversation") || len(preview) > mcpserver.OutputPreview+1000 {
		t.Fatalf("a large result = %.300q… (%d bytes, isError %v), want a preview with a handle", preview, len(preview), isErr)
	}
	for _, tc := range []struct {
		name      string
		args      map[string]any
		want      string
		wantError bool
	}{
		{"range", map[string]any{"handle": handle, "offset": 0, "length": 20}, "[characters 0–20 of ", false},
		{"range text", map[string]any{"handle": handle, "offset": 0, "length": 20}, `{"items":[{"id":0,"s`, false},
		{"search", map[string]any{"handle": handle, "search": "ITEM 1999 of"}, "line 1 (character 0)", false},
		{"search without a match", map[string]any{"handle": handle, "search": "no such words"}, "no line contains", false},
		{"jq count", map[string]any{"handle": handle, "jq": ".items | length"}, "2000", false},
		{"jq select", map[string]any{"handle": handle, "jq": `.items[] | select(.id == 7) | .title`}, `"Item 7 of the quarterly report"`, false},
		{"jq error", map[string]any{"handle": handle, "jq": ".items[] | "}, "jq query", true},
		{"jq env is empty", map[string]any{"handle": handle, "jq": "env | length"}, "0", false},
		{"unknown handle", map[string]any{"handle": "out-00000000000000000000000000000000"}, "no kept result", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := modern.call(t, "read_output", tc.args)
			if isErr != tc.wantError || !strings.Contains(got, tc.want) {
				t.Errorf("read_output(%v) = %.200q (isError %v), want %q (isError %v)", tc.args, got, isErr, tc.want, tc.wantError)
			}
		})
	}

	t.Run("session mode", func(t *testing.T) {
		c := connect(t, f.url, nil)
		c.search(t, map[string]any{"query": "select:up__big"})
		c.waitListChanged(t)
		if names := c.names(t); slices.Contains(names, "read_output") {
			t.Fatalf("session list %v holds read_output before any result was kept", names)
		}
		preview, _ := c.call(t, "up__big", map[string]any{"items": 2000})
		handle := outputHandle.FindString(preview)
		if handle == "" {
			t.Fatalf("a large result = %.300q, want a preview with a handle", preview)
		}
		c.waitListChanged(t)
		if names := c.names(t); !slices.Contains(names, "read_output") {
			t.Fatalf("session list %v, want read_output once a result was kept", names)
		}
		if got, _ := c.call(t, "read_output", map[string]any{"handle": handle, "jq": ".items[1].status"}); got != `"open"` {
			t.Errorf("read_output jq = %q, want \"open\"", got)
		}
	})
}
