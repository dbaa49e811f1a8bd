package main

import (
	"log/slog"
	"maps"
	"slices"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// providerWarnLines is how many tools the catalog-load check names one by
// one; the summary line counts the rest.
const providerWarnLines = 20

// warnProviderProblems logs, at load, the catalog's tools that a model
// provider will reject whatever the sidecar does (toolset.Check's
// Unfixable and Annotation): one warning each, then a summary. Tools that
// only need what GetToolset rewrites anyway (a "$schema", an exclusive
// bound, a long description) are not problems the catalog's owner must
// act on: one info line counts them by rewrite, and every GetToolset
// response reports its rewrites.
func warnProviderProblems(log *slog.Logger, tools []catalog.Tool) {
	problems := toolset.Check(tools)
	rewritten, unfixable := 0, 0
	kinds := map[toolset.ChangeKind]int{}
	for _, p := range problems {
		if len(p.Kinds) > 0 {
			rewritten++
			for _, k := range p.Kinds {
				kinds[k]++
			}
		}
		if p.Unfixable == "" && p.Annotation == "" {
			continue
		}
		if unfixable < providerWarnLines {
			log.Warn("a model provider will reject this tool as the catalog has it, and GetToolset cannot fix it", "tool", p.Tool,
				"not_rewritten", p.Unfixable, "annotation", p.Annotation)
		}
		unfixable++
	}
	if rewritten > 0 {
		byKind := map[string]int{}
		for _, k := range slices.Sorted(maps.Keys(kinds)) {
			byKind[string(k)] = kinds[k]
		}
		log.Info("catalog tools that GetToolset rewrites for every provider", "tools", rewritten, "rewrites", byKind,
			"what_to_do", "nothing: each GetToolset response reports its rewrites in changes; fix the catalog to stop them")
	}
	if unfixable > 0 {
		log.Warn("catalog tools a model provider will reject", "tools", unfixable, "named_above", min(unfixable, providerWarnLines),
			"what_to_do", "fix these tools in the catalog: GetToolset sends them as they are")
	}
}
