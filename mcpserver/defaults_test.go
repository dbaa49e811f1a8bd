package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/toolset"
)

// The sidecar's toolset defaults shape the session lists and instructions
// as they shape GetToolset's: the deferral threshold and mode, the
// operator's text.
func TestToolsetDefaults(t *testing.T) {
	f := start(t, mcpserver.Config{Toolset: toolset.Defaults{DeferralThreshold: 1, Defer: toolset.DeferReminder, PromptAppend: "Operator text."}})
	c := connect(t, f.url, nil)
	got := c.InitializeResult().Instructions
	for _, want := range []string{"Tools you can load with tool_search:", "\n\nOperator text."} {
		if !strings.Contains(got, want) {
			t.Errorf("instructions lack %q:\n%s", want, got)
		}
	}
	if names := c.names(t); len(names) != 1 || names[0] != "tool_search" {
		t.Errorf("tools/list = %v, want tool_search alone (threshold 1)", names)
	}
	if _, err := mcpserver.New(mcpserver.Config{Engine: f.engine, Toolset: toolset.Defaults{Defer: "sometimes"}}); err == nil {
		t.Error("an unknown deferral mode: no error")
	}
}
