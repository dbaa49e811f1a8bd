package toolset

import (
	"encoding/json"
	"fmt"
)

// SearchToolName is the name of the search tool the model calls. A catalog
// tool of the same name is sent under a rewritten name (see Toolset.Names).
const SearchToolName = "tool_search"

// MaxSearchResults is the largest max_results the tool_search definition
// offers the model, when the sidecar's cap is not lower: ten references
// are enough to pick from, and each costs the model about 40 tokens.
const MaxSearchResults = 10

// searchToolDescription teaches the model what tool_search is for and the
// query syntax. It is part of every deferred list, so it is written to be
// short: about 200 tokens.
const searchToolDescription = "Search the tool catalog and load tools. Only the tools in your tool list can be called; " +
	"the catalog has many more. Call tool_search to find them: the tools it returns become callable on your next turn, " +
	"and stay loaded for the rest of the conversation.\n" +
	"Query syntax:\n" +
	"- plain words describe the task: \"send a message to a slack channel\"\n" +
	"- select:name_a,name_b loads exactly those tools by name (use it when you know the names)\n" +
	"- +term requires a word: \"+jira search issues\"\n" +
	"- -term excludes a word: \"issues -github\"\n" +
	"- server:NAME keeps one server's tools: \"server:github create issue\"\n" +
	"The result lists tool_references (tool_name, relevance_score, summary); if nothing matched it gives a hint " +
	"and available tool names to retry with."

// searchToolSchema is the tool_search input schema; %d is the largest
// max_results.
const searchToolSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"What the tool should do, in plain words; or select:name_a,name_b; or a regular expression with search_type regex. Supports +term, -term and server:NAME."},` +
	`"search_type":{"type":"string","enum":["semantic","keyword","regex"],"description":"semantic (default) matches meaning; keyword matches exact words; regex matches tool names and descriptions with a pattern such as ^github__.*issue."},` +
	`"max_results":{"type":"integer","minimum":1,"maximum":%d,"description":"How many tools to return, 1 to %d (default 5)."},` +
	`"category_filter":{"type":"string","description":"Only tools of this server or category, e.g. github."}` +
	`},"required":["query"]}`

// searchToolDefinition is the tool_search definition with max_results
// limited to maxResults.
func searchToolDefinition(maxResults int) Definition {
	return Definition{
		Name:        SearchToolName,
		Description: searchToolDescription,
		InputSchema: json.RawMessage(fmt.Sprintf(searchToolSchema, maxResults, maxResults)),
	}
}
