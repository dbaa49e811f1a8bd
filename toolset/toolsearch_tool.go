package toolset

import (
	"encoding/json"
	"fmt"
	"strings"
)

// SearchToolName is the name of the search tool the model calls. A catalog
// tool of the same name is sent under a rewritten name (see Toolset.Names).
const SearchToolName = "tool_search"

// MaxSearchResults is the largest max_results the tool_search definition
// offers the model, when the sidecar's cap is not lower: ten references
// are enough to pick from, and each costs the model about 40 tokens.
const MaxSearchResults = 10

// searchToolDescription teaches the model what tool_search is for and the
// query syntax, with examples made from the catalog's example tool (a
// catalog without one gets examples without names). It is part of every
// deferred list, so it is written to be short: about 200 tokens.
func searchToolDescription(ex example) string {
	var b strings.Builder
	b.WriteString("Search the tool catalog and load tools. Only the tools in your tool list can be called; " +
		"the catalog has many more. Call tool_search to find them: the tools it returns become callable on your next turn, " +
		"and stay loaded for the rest of the conversation.\n" +
		"Query syntax:\n")
	if ex.words != "" {
		fmt.Fprintf(&b, "- plain words describe the task: %q\n", ex.query())
	} else {
		b.WriteString("- plain words describe the task\n")
	}
	b.WriteString("- select:name_a,name_b loads exactly those tools by name (use it when you know the names)\n")
	b.WriteString("- an empty query lists every tool, max_results at a time: pass the result's next_page_token as page_token for the next page\n")
	if ex.server != "" {
		fmt.Fprintf(&b, "- +term requires a word: %q\n", "+"+ex.server+" "+ex.words)
		b.WriteString("- -term excludes a word\n")
		fmt.Fprintf(&b, "- server:NAME keeps one server's tools: %q\n", "server:"+ex.server+" "+ex.words)
	} else {
		b.WriteString("- +term requires a word; -term excludes a word\n")
		b.WriteString("- server:NAME keeps one server's tools\n")
	}
	b.WriteString("The result lists tool_references (tool_name, relevance_score, summary); if nothing matched it gives a hint " +
		"and available tool names to retry with.")
	return b.String()
}

// searchToolSchema is the tool_search input schema; the verbs are the
// largest max_results (twice), the regex example and the category
// example, as JSON string contents.
const searchToolSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"What the tool should do, in plain words; or select:name_a,name_b; or a regular expression with search_type regex. Supports +term, -term and server:NAME."},` +
	`"search_type":{"type":"string","enum":["semantic","keyword","regex"],"description":"semantic (default) matches meaning; keyword matches exact words; regex matches tool names and descriptions with a pattern%s."},` +
	`"max_results":{"type":"integer","minimum":1,"maximum":%d,"description":"How many tools to return, 1 to %d (default 5)."},` +
	`"category_filter":{"type":"string","description":"Only tools of this server or category%s."},` +
	`"page_token":{"type":"string","description":"The next_page_token of the previous result, to continue listing the tools (with an empty query)."}` +
	`},"required":["query"]}`

// searchToolDefinition is the tool_search definition with max_results
// limited to maxResults, its examples from ex.
func searchToolDefinition(maxResults int, ex example) Definition {
	regex, category := "", ""
	if ex.server != "" {
		regex = jsonString(" such as " + ex.pattern())
		category = jsonString(", e.g. " + ex.server)
	}
	return Definition{
		Name:        SearchToolName,
		Description: searchToolDescription(ex),
		InputSchema: json.RawMessage(fmt.Sprintf(searchToolSchema, regex, maxResults, maxResults, category)),
	}
}

// jsonString is s escaped as the contents of a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
