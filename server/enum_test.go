package server

import (
	"maps"
	"slices"
	"testing"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/search/searchpb"
	"github.com/toolsearch/toolsearch/toolset"
)

// TestEnumsMapped checks every enum of the API against its table, both
// ways (connect-go's code_test.go): each value the service reads is mapped
// to the engine's, or deliberately refused; each engine value the service
// writes or reads has an API value. A value added to the proto or to the
// engine without its pair fails here instead of being refused (or sent as
// UNSPECIFIED) at run time.
func TestEnumsMapped(t *testing.T) {
	for _, tc := range []struct {
		name string
		// values are the API's values (the generated _name map); refused
		// those the service rejects as INVALID_ARGUMENT on purpose.
		values  map[int32]string
		refused []int32
		// in reports whether the API value v is mapped; targets are the
		// engine values it maps to, engine every value the engine has.
		in      func(v int32) bool
		targets []string
		engine  []string
	}{
		{name: "SearchType", values: toolsearchv1.SearchType_name,
			in:      func(v int32) bool { _, ok := searchpb.Mode(toolsearchv1.SearchType(v)); return ok },
			targets: strs(slices.Collect(maps.Values(searchpb.Modes()))),
			// The modes a request may ask for (results may report more).
			engine: strs([]search.Mode{search.ModeDefault, search.ModeSemantic, search.ModeKeyword, search.ModeRegex})},
		{name: "ToolFormat", values: toolsearchv1.ToolFormat_name, refused: []int32{int32(toolsearchv1.ToolFormat_TOOL_FORMAT_UNSPECIFIED)},
			in:      func(v int32) bool { _, ok := toolFormats[toolsearchv1.ToolFormat(v)]; return ok },
			targets: strs(slices.Collect(maps.Values(toolFormats))), engine: strs(toolset.Formats)},
		{name: "DeferredToolMode", values: toolsearchv1.DeferredToolMode_name,
			in:      func(v int32) bool { _, ok := deferModes[toolsearchv1.DeferredToolMode(v)]; return ok },
			targets: strs(slices.Collect(maps.Values(deferModes))), engine: strs(toolset.DeferModes)},
		{name: "ToolSearchMode", values: toolsearchv1.ToolSearchMode_name,
			in:      func(v int32) bool { _, ok := searchModes[toolsearchv1.ToolSearchMode(v)]; return ok },
			targets: strs(slices.Collect(maps.Values(searchModes))), engine: strs(toolset.SearchModes)},
		{name: "HostedToolSearch", values: toolsearchv1.HostedToolSearch_name,
			in:      func(v int32) bool { _, ok := hostedSearches[toolsearchv1.HostedToolSearch(v)]; return ok },
			targets: strs(slices.Collect(maps.Values(hostedSearches))), engine: strs([]toolset.HostedSearch{toolset.HostedBM25, toolset.HostedRegex})},
		{name: "ToolUseOutcome", values: toolsearchv1.ToolUseOutcome_name, refused: []int32{int32(toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_UNSPECIFIED)},
			in:      func(v int32) bool { _, ok := outcomes[toolsearchv1.ToolUseOutcome(v)]; return ok },
			targets: strs(slices.Collect(maps.Values(outcomes))), engine: strs([]search.Outcome{search.OutcomeSuccess, search.OutcomeError, search.OutcomeUnknown})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for v, name := range tc.values {
				if mapped, refused := tc.in(v), slices.Contains(tc.refused, v); mapped == refused {
					t.Errorf("%s (%d): mapped %t, refused on purpose %t; want exactly one", name, v, mapped, refused)
				}
			}
			for _, e := range tc.engine {
				if !slices.Contains(tc.targets, e) {
					t.Errorf("engine value %q has no API value", e)
				}
			}
			for _, e := range tc.targets {
				if !slices.Contains(tc.engine, e) {
					t.Errorf("an API value maps to %q, which is not an engine value", e)
				}
			}
		})
	}
}

// TestOutgoingEnumsMapped: every value the service writes has an API
// value other than UNSPECIFIED, and every API value is written for some.
func TestOutgoingEnumsMapped(t *testing.T) {
	t.Run("IndexState", func(t *testing.T) {
		written := map[toolsearchv1.IndexState]bool{}
		for _, s := range []search.IndexState{search.IndexLexicalOnly, search.IndexWarming, search.IndexReady, search.IndexDegraded} {
			v := searchpb.IndexState(s)
			if v == toolsearchv1.IndexState_INDEX_STATE_UNSPECIFIED || written[v] {
				t.Errorf("engine state %d is written as %v", s, v)
			}
			written[v] = true
		}
		for v, name := range toolsearchv1.IndexState_name {
			if !written[toolsearchv1.IndexState(v)] && v != int32(toolsearchv1.IndexState_INDEX_STATE_UNSPECIFIED) {
				t.Errorf("%s is never written", name)
			}
		}
	})
	t.Run("ToolSearchMode", func(t *testing.T) {
		// Toolset.Search reports a resolved mode: never auto.
		for _, m := range toolset.SearchModes {
			if _, ok := searchModesOut[m]; !ok && m != toolset.SearchAuto {
				t.Errorf("resolved mode %q has no API value", m)
			}
		}
	})
}

// strs converts string-typed enum values to strings.
func strs[S ~string](vs []S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
