package main

import (
	"log/slog"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// providerWarnLines is how many tools the catalog-load check names one by
// one; the summary line counts the rest.
const providerWarnLines = 20

// warnProviderProblems logs the catalog's tools that no model provider
// accepts as they are (toolset.Check): GetToolset rewrites them, and says
// so in every response, but the catalog's owner should know at load.
func warnProviderProblems(log *slog.Logger, tools []catalog.Tool) {
	problems := toolset.Check(tools)
	if len(problems) == 0 {
		return
	}
	unfixable := 0
	for i, p := range problems {
		if p.Unfixable != "" {
			unfixable++
		}
		if i < providerWarnLines {
			log.Warn("no model provider accepts this tool as the catalog has it", "tool", p.Tool,
				"rewritten_by_get_toolset", p.Kinds, "not_rewritten", p.Unfixable, "annotation", p.Annotation)
		}
	}
	log.Warn("catalog tools that no provider accepts as they are", "tools", len(problems), "named_above", min(len(problems), providerWarnLines),
		"not_rewritable", unfixable, "what_to_do", "GetToolset rewrites schemas and descriptions for each provider and reports it in changes; fix the catalog to stop the rewrites")
}
