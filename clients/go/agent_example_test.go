package toolsearch_test

import (
	"context"
	"fmt"
	"log"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
)

// An agent loop with tool search. Each turn, Tools gives the list to send
// (tool_search first, then the tools revealed so far, in reveal order, so
// each turn's list extends the last and the provider's prompt cache keeps
// its prefix); when the model calls tool_search, HandleToolCall runs the
// search, reveals what it found to the session, and returns the result to
// hand back. Needs a running sidecar (make run); the root module's
// server/agent_test.go runs the same loop against a real sidecar.
func ExampleAgent() {
	c, err := toolsearch.Dial("127.0.0.1:50051")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	agent := toolsearch.NewAgent(c, toolsearch.WithAlwaysLoaded("filesystem__read_file"))

	ctx := context.Background()
	session := "conversation-42" // one id per conversation
	for turn := 1; turn <= 3; turn++ {
		ts, err := agent.Tools(ctx, session, toolsearch.FormatAnthropic)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("turn", turn, "sends", ts.Loaded)
		// Send ts.Tools as the request's "tools" and append ts.SystemPrompt
		// to the system prompt. Say the model answers with a tool_search call:
		call := map[int]string{1: `{"query":"send a slack message"}`, 2: `{"query":"select:github__create_issue"}`}[turn]
		if call == "" {
			// The model calls a loaded tool: map its name with ts.CatalogName,
			// run it, and tell the sidecar (it learns from use with --learn):
			//	err := runTool(ts.CatalogName(name), args)
			//	agent.ToolCalled(ctx, session, ts.CatalogName(name), err)
			break
		}
		result, err := agent.HandleToolCall(ctx, session, call)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("tool_search result:", result) // the tool result for the model
	}
}
