package mcpserver_test

import (
	"encoding/json"
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

// The model can list every tool name of its scope: an empty query pages
// through them, and the next_page_token it is shown continues the listing.
func TestModelListsEveryName(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1})
	c := connect(t, f.url+"?visible_tools=github:*,slack:*", nil)
	var got []string
	token := ""
	for page := 0; ; page++ {
		if page > 20 {
			t.Fatal("the listing does not end")
		}
		txt, isErr := c.call(t, "tool_search", map[string]any{"query": "", "max_results": 2, "page_token": token})
		if isErr {
			t.Fatalf("page %d: %s", page, txt)
		}
		var res struct {
			Refs []struct {
				Name string `json:"tool_name"`
			} `json:"tool_references"`
			Next string `json:"next_page_token"`
		}
		if err := json.Unmarshal([]byte(txt), &res); err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Refs {
			got = append(got, r.Name)
		}
		if token = res.Next; token == "" {
			break
		}
	}
	var want []string
	for _, tl := range f.engine.Snapshot().Tools() {
		if strings.HasPrefix(tl.Name, "github__") || strings.HasPrefix(tl.Name, "slack__") {
			want = append(want, tl.Name)
		}
	}
	if len(want) < 3 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("listed %v, want every visible tool %v", got, want)
	}
}
