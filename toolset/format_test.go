package toolset

import (
	"strings"
	"testing"
)

// Every rewritten name is valid for its provider, stable, and unchanged
// when the provider accepts it.
func FuzzProviderName(f *testing.F) {
	for _, s := range []string{"slack__send_message", "AbstractJarAgent.runJarAgent", "9lives", "tool_search", "天气__查询", "", strings.Repeat("a", 200), "a b:c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, rule := range []nameRule{openAINames, geminiNames, mcpNames} {
			got := rule.providerName(name)
			if !rule.valid(got) {
				t.Fatalf("providerName(%q) = %q, not valid (max %d)", name, got, rule.max)
			}
			if got != rule.providerName(name) {
				t.Fatalf("providerName(%q) is not stable", name)
			}
			if rule.valid(name) && name != SearchToolName && got != name {
				t.Fatalf("providerName(%q) = %q, want the name unchanged", name, got)
			}
		}
	})
}
