package toolset_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// BenchmarkBuildTrimmed measures a list over its byte limit: 64 revealed
// tools of ~60 KB each (the hardening case of issue 17) under a 4 MiB
// limit, which trims every definition.
func BenchmarkBuildTrimmed(b *testing.B) {
	var tools []catalog.Tool
	for i := range 64 {
		props := map[string]any{}
		for j := range 120 {
			props[fmt.Sprintf("param_%03d", j)] = map[string]any{"type": "string", "description": strings.Repeat("A long parameter description. ", 15)}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		tools = append(tools, catalog.Tool{Name: fmt.Sprintf("big__tool_%02d", i), Server: "big", Description: strings.Repeat("A big tool with a long description. ", 220), InputSchema: schema})
	}
	cache := toolset.NewCache(0)
	for b.Loop() {
		if _, err := toolset.Build(tools, tools, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, MaxBytes: 4<<20 - 16<<10, Cache: cache}); err != nil {
			b.Fatal(err)
		}
	}
}
