package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// An MCP host's view of one session: tool_search alone at first, then the
// tools a search found. Here over in-memory transports; Handler serves the
// same over streamable HTTP, and Run with &mcp.StdioTransport{} over stdio.
func ExampleServer_Run() {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		log.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()
	srv, err := mcpserver.New(mcpserver.Config{
		Engine:            engine,
		DeferralThreshold: 1, // the 8-tool example catalog would otherwise be listed whole
		Log:               slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	go srv.Run(ctx, serverSide)

	// Session mode: a 2025-11-25 client (a 2026-07-28 one gets stateless
	// mode's fixed list, tool_search then call_tool).
	host, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).
		Connect(ctx, clientSide, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	list := func() []string {
		res, err := host.ListTools(ctx, nil)
		if err != nil {
			log.Fatal(err)
		}
		var names []string
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		return names
	}
	fmt.Println("tools/list:", list())
	res, err := host.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search",
		Arguments: map[string]any{"query": "send a message to a slack channel", "max_results": 1}})
	if err != nil {
		log.Fatal(err)
	}
	var found struct {
		Refs []struct {
			Name string `json:"tool_name"`
		} `json:"tool_references"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &found)
	fmt.Println("tool_search found:", found.Refs[0].Name)
	fmt.Println("tools/list:", list())
	// Output:
	// tools/list: [tool_search]
	// tool_search found: slack__send_message
	// tools/list: [tool_search slack__send_message]
}
