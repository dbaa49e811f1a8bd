package toolsearch_test

import (
	"context"
	"fmt"
	"log"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// The tool_search result that the agent hands back to the model.
func ExampleRenderResult() {
	resp := &toolsearchv1.SearchResponse{
		ToolReferences: []*toolsearchv1.ToolReference{{
			ToolName:       "slack__send_message",
			RelevanceScore: 0.95123,
			Summary:        "Send a message to a Slack channel or user",
		}},
		TotalMatches: 12,
		SearchMetadata: &toolsearchv1.SearchMetadata{
			SearchType:      "semantic",
			Query:           "send slack message",
			ExecutionTimeMs: 3,
			CatalogVersion:  7, // for the agent, not rendered
		},
	}
	out, err := toolsearch.RenderResult(resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// {"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.951,"summary":"Send a message to a Slack channel or user"}],"total_matches":12,"search_metadata":{"search_type":"semantic","query":"send slack message","execution_time_ms":3}}
}

// When nothing matched, the result tells the model how to refine.
func ExampleRenderResult_noMatch() {
	resp := &toolsearchv1.SearchResponse{
		SearchMetadata: &toolsearchv1.SearchMetadata{
			SearchType:          "keyword",
			RequestedSearchType: "semantic",
			FallbackReason:      "low_confidence",
			Query:               "teleport",
		},
		Hint:           "No tool matched. Try other words, or select:NAME with a name below.",
		AvailableTools: []string{"github__create_issue", "slack__send_message"},
	}
	out, err := toolsearch.RenderResult(resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// {"tool_references":[],"total_matches":0,"search_metadata":{"search_type":"keyword","query":"teleport","execution_time_ms":0,"requested_search_type":"semantic","fallback_reason":"low_confidence"},"hint":"No tool matched. Try other words, or select:NAME with a name below.","available_tools":["github__create_issue","slack__send_message"]}
}

// One tool_search turn: search, render the result for the model, and load
// the referenced tools' definitions for the next turn. Needs a running
// sidecar (make run).
func ExampleClient_Search() {
	c, err := toolsearch.Dial("127.0.0.1:50051", toolsearch.WithTimeout(2*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ctx := context.Background()
	resp, err := c.Search(ctx, "send a slack message",
		toolsearch.WithMaxResults(3),
		toolsearch.WithVisibleTools("slack:*", "github:*"),
	)
	if err != nil {
		log.Fatal(err) // e.g. codes.Unavailable: no sidecar at the address
	}
	result, err := toolsearch.RenderResult(resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result) // the tool_search result for the model

	names := make([]string, 0, len(resp.GetToolReferences()))
	for _, ref := range resp.GetToolReferences() {
		names = append(names, ref.GetToolName())
	}
	tools, err := c.GetTools(ctx, names...)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.GetName(), t.GetInputSchema()) // load into the model's tool list
	}
}

// Keyword search in one server, with per-hit explanations.
func ExampleWithSearchType() {
	c, err := toolsearch.Dial("127.0.0.1:50051")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	resp, err := c.Search(context.Background(), "+issue create",
		toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD),
		toolsearch.WithCategory("github"),
		toolsearch.WithDebug(),
	)
	if err != nil {
		log.Fatal(err)
	}
	for _, ref := range resp.GetToolReferences() {
		fmt.Printf("%.3f %s: %s\n", ref.GetRelevanceScore(), ref.GetToolName(), ref.GetExplanation())
	}
}

// Page through the whole catalog.
func ExampleClient_ListTools() {
	c, err := toolsearch.Dial("127.0.0.1:50051")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ctx := context.Background()
	token := ""
	for {
		page, err := c.ListTools(ctx, "", token, 100)
		if err != nil {
			log.Fatal(err)
		}
		for _, t := range page.GetTools() {
			fmt.Println(t.GetName(), "-", t.GetSummary())
		}
		if token = page.GetNextPageToken(); token == "" {
			break
		}
	}
}

// Wait until the sidecar has loaded its catalog.
func ExampleClient_Health() {
	c, err := toolsearch.Dial("127.0.0.1:50051")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		if ok, _ := c.Health(ctx); ok {
			break
		}
		select {
		case <-ctx.Done():
			log.Fatal("sidecar not serving: ", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	info, err := c.CatalogInfo(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.GetToolCount(), "tools, index", info.GetIndexState())
}
