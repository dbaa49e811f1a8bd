package toolset_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/toolset"
)

// Toolset.Definitions are the list's tools as values, in list order, with
// their kinds; for MCP they decode from Tools field for field.
func TestDefinitions(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	revealed := pick(t, tools, "slack__send_message")
	type row struct{ Kind, Tool, Name string }
	for _, tc := range []struct {
		name string
		opts toolset.Options
		want []row
	}{
		{"portable stub", toolset.Options{Format: toolset.MCP, DeferralThreshold: 1, Defer: toolset.DeferStub, AlwaysLoaded: []string{"github__create_issue"}}, []row{
			{"search", "", "tool_search"},
			{"pinned", "github__create_issue", "github__create_issue"},
			{"pinned", "memory__remember", "memory__remember"},
			{"loaded", "slack__send_message", "slack__send_message"},
			{"stub", "9lives__play", "9lives__play"},
			{"stub", "Weather.get-current", "Weather.get-current"},
			{"stub", "slack__list_channels", "slack__list_channels"},
			{"stub", "tool_search", "tool_search_643655f4"},
		}},
		{"below threshold", toolset.Options{Format: toolset.MCP, AlwaysLoaded: []string{"slack__list_channels"}}, []row{
			{"loaded", "9lives__play", "9lives__play"},
			{"loaded", "Weather.get-current", "Weather.get-current"},
			{"loaded", "github__create_issue", "github__create_issue"},
			{"pinned", "memory__remember", "memory__remember"},
			{"pinned", "slack__list_channels", "slack__list_channels"},
			{"loaded", "slack__send_message", "slack__send_message"},
			{"loaded", "tool_search", "tool_search_643655f4"},
		}},
		{"native", toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, Search: toolset.SearchNativeClient}, []row{
			{"search", "", "tool_search"},
			{"pinned", "memory__remember", "memory__remember"},
			{"deferred", "9lives__play", "9lives__play"},
			{"deferred", "Weather.get-current", "Weather_get-current_ec958311"},
			{"deferred", "github__create_issue", "github__create_issue"},
			{"deferred", "slack__list_channels", "slack__list_channels"},
			{"deferred", "slack__send_message", "slack__send_message"},
			{"deferred", "tool_search", "tool_search_643655f4"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := build(t, tools, revealed, tc.opts)
			var got []row
			for _, d := range ts.Definitions {
				got = append(got, row{d.Kind.String(), d.Tool, d.Name})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Definitions (-want +got):\n%s", diff)
			}
			if tc.opts.Format != toolset.MCP {
				return
			}
			var wire []struct {
				Name         string          `json:"name"`
				Title        string          `json:"title"`
				Description  string          `json:"description"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
				Annotations  json.RawMessage `json:"annotations"`
			}
			if err := json.Unmarshal(ts.Tools, &wire); err != nil {
				t.Fatal(err)
			}
			if len(wire) != len(ts.Definitions) {
				t.Fatalf("Tools has %d tools, Definitions %d", len(wire), len(ts.Definitions))
			}
			for i, w := range wire {
				d := ts.Definitions[i]
				if w.Name != d.Name || w.Title != d.Title || w.Description != d.Description || string(w.InputSchema) != string(d.InputSchema) ||
					string(w.OutputSchema) != string(d.OutputSchema) || string(w.Annotations) != string(d.Annotations) {
					t.Errorf("tool %d: Tools has %+v, Definitions %+v", i, w, d)
				}
			}
		})
	}
}
