package toolset_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flag"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
)

var cacheOut = flag.String("cache-out", "", "write the search-mode cache table (Markdown) to this file")

// TestCacheBehaviour measures, per search mode on the livemcpbench
// catalog, what a request carries on the first turn and how much of the
// tools array changes once a search has found 5 tools (the dataset's first
// query, keyword mode, through a real engine's session): the bytes after
// the longest common prefix of the two turns' arrays, which a provider's
// prompt cache cannot reuse. Native modes must not change at all; the
// portable modes must only append. Run with -v for the table, or
// -cache-out=FILE to write it.
func TestCacheBehaviour(t *testing.T) {
	tools := benchCatalog(t, "livemcpbench")
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	query := firstQuery(t, "livemcpbench")
	if _, err := eng.Search(context.Background(), search.Request{Query: query, Mode: search.ModeKeyword, SessionID: "cache", MaxResults: 5}); err != nil {
		t.Fatal(err)
	}
	_, revealed, err := eng.Revealed("cache")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, r := range revealed {
		found = append(found, r.Name)
	}
	type mode struct {
		name string
		opts toolset.Options
	}
	var modes []mode
	for _, f := range []toolset.Format{toolset.Anthropic, toolset.OpenAIResponses} {
		modes = append(modes,
			mode{"portable omit", toolset.Options{Format: f}},
			mode{"portable stub", toolset.Options{Format: f, Defer: toolset.DeferStub}},
			mode{"native client", toolset.Options{Format: f, Search: toolset.SearchNativeClient}},
			mode{"native hosted", toolset.Options{Format: f, Search: toolset.SearchNativeHosted}},
		)
	}
	var rows []string
	for _, m := range modes {
		all := snap.Tools()
		turn1 := build(t, all, nil, m.opts)
		m.opts.Load = found
		turn2 := build(t, all, revealed, m.opts)
		common := commonPrefix(string(turn1.Tools), string(turn2.Tools))
		changed := len(turn2.Tools) - common
		native := strings.HasPrefix(m.name, "native")
		// What the search result adds to the conversation: for the native
		// client modes the tool_result's tool_reference blocks (Anthropic)
		// or the tool_search_output's definitions (OpenAI); the portable
		// modes carry the definitions in the tools array instead.
		result := "—"
		switch {
		case m.name == "native client" && m.opts.Format == toolset.Anthropic:
			n := 0
			for _, f := range found {
				n += len(`{"type":"tool_reference","tool_name":""},`) + len(f)
			}
			result = fmt.Sprintf("%d B (%d references)", n, len(found))
		case m.name == "native client":
			result = fmt.Sprintf("%d B (%d definitions)", len(turn2.LoadedTools), len(found))
		case m.name == "native hosted":
			result = "provider's"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %d B | %d B | %d B | %d B | %s |", m.opts.Format, m.name,
			len(turn1.Tools), len(turn1.SystemPrompt), len(turn2.Tools), changed, result))
		switch {
		case native && changed != 0:
			t.Errorf("%s %s: %d bytes of the tools array changed between turns, want 0", m.opts.Format, m.name, changed)
		case m.name == "portable omit" && common != len(strings.TrimSuffix(string(turn1.Tools), "]")):
			t.Errorf("%s %s: turn 2 does not extend turn 1 (common prefix %d of %d bytes)", m.opts.Format, m.name, common, len(turn1.Tools))
		}
	}
	table := "| format | search mode | turn 1 tools | system prompt | turn 2 tools (5 found) | bytes changed turn 1 → 2 | search result in messages |\n" +
		"|---|---|---:|---:|---:|---:|---|\n" + strings.Join(rows, "\n") + "\n"
	t.Log("\n" + table)
	if *cacheOut != "" {
		if err := os.WriteFile(*cacheOut, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// BenchmarkBuildNative measures building a native list (every tool, the
// deferred ones marked) and a portable one over the livemcpbench catalog.
func BenchmarkBuildNative(b *testing.B) {
	path := filepath.Join(benchDir, "livemcpbench", "tools.jsonl")
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	all := snap.Tools()
	for _, tc := range []struct {
		name string
		opts toolset.Options
	}{
		{"anthropic/native_client", toolset.Options{Format: toolset.Anthropic, Search: toolset.SearchNativeClient}},
		{"openai_responses/native_client", toolset.Options{Format: toolset.OpenAIResponses, Search: toolset.SearchNativeClient}},
		{"anthropic/portable_omit", toolset.Options{Format: toolset.Anthropic}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			opts := tc.opts
			opts.Cache = toolset.NewCache(0) // as the server owns one
			for b.Loop() {
				if _, err := toolset.Build(all, all[:5], opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
