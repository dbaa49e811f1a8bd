package toolset_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// numbered returns n tools named t00000, t00001, … in catalog order.
func numbered(n int) []catalog.Tool {
	tools := make([]catalog.Tool, n)
	for i := range tools {
		tools[i] = catalog.Tool{Name: fmt.Sprintf("t%05d", i), Description: "A tool.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	}
	return tools
}

// kinds returns each definition's catalog-facing name and kind.
func kinds(ts toolset.Toolset) []string {
	var out []string
	for _, d := range ts.Definitions {
		if d.Kind != toolset.EntryDeferred && d.Kind != toolset.EntryStub {
			out = append(out, d.Name+":"+d.Kind.String())
		}
	}
	return out
}

// Tools learning pinned are sent in full after the always-loaded ones,
// with their provenance (EntryLearnedPin, Toolset.LearnedPinned), in every
// search mode; unknown names, always-loaded tools and tools annotated to be
// deferred always are not pinned; below the threshold nothing changes.
func TestLearnedPinned(t *testing.T) {
	tools := numbered(40)
	tools[7].Annotations = json.RawMessage(`{"toolsearch/defer":"always"}`)
	opts := toolset.Options{AlwaysLoaded: []string{"t00003"}, LearnedPinned: []string{"t00020", "nope", "t00003", "t00007", "t00010", "t00020"}}
	for _, mode := range []struct {
		f toolset.Format
		s toolset.SearchMode
	}{{toolset.OpenAIChat, toolset.SearchPortable}, {toolset.Anthropic, toolset.SearchNativeClient}, {toolset.OpenAIResponses, toolset.SearchNativeHosted}} {
		t.Run(string(mode.f)+"/"+string(mode.s), func(t *testing.T) {
			o := opts
			o.Format, o.Search = mode.f, mode.s
			ts := build(t, tools, tools[30:31], o)
			if diff := cmp.Diff([]string{"t00020", "t00010"}, ts.LearnedPinned); diff != "" {
				t.Errorf("LearnedPinned (-want +got):\n%s", diff)
			}
			want := []string{"t00003:pinned", "t00020:learned_pin", "t00010:learned_pin"}
			if mode.s == toolset.SearchPortable {
				want = append(want, "t00030:loaded")
			}
			got := kinds(ts)[1:] // after the search tool
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("list (-want +got):\n%s", diff)
			}
			if ts.Deferred != 40-len(ts.Loaded) {
				t.Errorf("Deferred = %d with %d loaded", ts.Deferred, len(ts.Loaded))
			}
			if mode.s != toolset.SearchPortable && strings.Count(string(ts.Tools), `"t00020"`) != 1 {
				t.Errorf("t00020 listed %d times", strings.Count(string(ts.Tools), `"t00020"`))
			}
		})
	}
	small := build(t, tools[10:20], nil, toolset.Options{Format: toolset.Anthropic, LearnedPinned: []string{"t00011"}})
	if small.Deferring || len(small.LearnedPinned) > 0 {
		t.Errorf("below the threshold: deferring %v, learned pins %v", small.Deferring, small.LearnedPinned)
	}
}

// Under OpenAI's 128-tool limit, learned pins never push the list over it:
// only as many are pinned as fit beside tool_search and the always-loaded
// tools; revealed tools are left out before them.
func TestLearnedPinnedToolCountLimit(t *testing.T) {
	tools := numbered(300)
	var always, learned []string
	for i := range 125 {
		always = append(always, tools[i].Name)
	}
	for i := 200; i < 205; i++ {
		learned = append(learned, tools[i].Name)
	}
	ts := build(t, tools, tools[250:260], toolset.Options{Format: toolset.OpenAIChat, AlwaysLoaded: always, LearnedPinned: learned})
	if diff := cmp.Diff([]string{"t00200", "t00201"}, ts.LearnedPinned); diff != "" {
		t.Errorf("LearnedPinned (-want +got):\n%s", diff)
	}
	if n := len(providerNames(t, toolset.OpenAIChat, ts.Tools)); n != toolset.OpenAIMaxTools {
		t.Errorf("%d tools, want %d", n, toolset.OpenAIMaxTools)
	}
	ts = build(t, tools, tools[250:260], toolset.Options{Format: toolset.OpenAIChat, AlwaysLoaded: always[:120], LearnedPinned: learned})
	if len(ts.LearnedPinned) != 5 || len(ts.Omitted) != 10-2 || ts.Omitted[0].Tool != "t00252" {
		t.Errorf("learned %v, omitted %v", ts.LearnedPinned, ts.Omitted)
	}
}

// Past Anthropic's cap on deferred tools, the deferred list keeps the tools
// the scope used most (Options.Use), then the first in catalog order, and
// says so; without use, catalog order.
func TestDeferredLimitKeepsMostUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,050-tool list")
	}
	n := toolset.AnthropicMaxDeferred + 50
	tools := numbered(n)
	last := tools[n-1].Name
	use := map[string]float64{last: 3, tools[n-2].Name: 0.5}
	opts := toolset.Options{Format: toolset.Anthropic, Search: toolset.SearchNativeClient, Use: use, Cache: toolset.NewCache(2 * n)}
	ts := build(t, tools, nil, opts)
	want := toolset.DeferredLimit{Limit: toolset.AnthropicMaxDeferred, Omitted: 50, Rule: toolset.DeferredByUse}
	if diff := cmp.Diff(want, ts.DeferredLimit); diff != "" {
		t.Errorf("DeferredLimit (-want +got):\n%s", diff)
	}
	var listed []string
	for _, d := range ts.Definitions {
		if d.Kind == toolset.EntryDeferred {
			listed = append(listed, d.Name)
		}
	}
	if len(listed) != toolset.AnthropicMaxDeferred || listed[len(listed)-1] != last || listed[len(listed)-2] != tools[n-2].Name || listed[len(listed)-3] != tools[toolset.AnthropicMaxDeferred-3].Name {
		t.Errorf("%d deferred, ending %v", len(listed), listed[max(len(listed)-3, 0):])
	}
	if len(ts.Omitted) != 50 || ts.Omitted[0].Tool != tools[toolset.AnthropicMaxDeferred-2].Name || !strings.Contains(ts.Omitted[0].Reason, toolset.DeferredByUse) {
		t.Errorf("omitted %d: %+v", len(ts.Omitted), ts.Omitted[:min(len(ts.Omitted), 3)])
	}
	opts.Use = nil
	ts = build(t, tools, nil, opts)
	if ts.DeferredLimit.Rule != toolset.DeferredByOrder || ts.Omitted[49].Tool != last {
		t.Errorf("without use: %+v, last omitted %s", ts.DeferredLimit, ts.Omitted[49].Tool)
	}
	if ts := build(t, tools[:100], nil, opts); ts.DeferredLimit != (toolset.DeferredLimit{}) {
		t.Errorf("under the cap: %+v", ts.DeferredLimit)
	}
}
