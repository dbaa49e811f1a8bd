package mcpserver

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/search/searchpb"
)

// searchRequest reads a tool_search call's arguments with clients/go's
// ParseSearchArguments, the one reader the Go Agent uses too (lenient in
// the same documented way: numbers as strings, floats, enum case), into
// an engine request. A mistake the model can fix is a tool error. The
// model sees the answer as is, so the relevance floor applies (ForModel).
func searchRequest(arguments json.RawMessage) (search.Request, *mcp.CallToolResult) {
	args, err := toolsearch.ParseSearchArguments(arguments)
	if err != nil {
		return search.Request{}, toolError("tool_search: %v", err)
	}
	mode, _ := searchpb.Mode(args.SearchType) // the parser yields defined types only
	return search.Request{Query: args.Query, Mode: mode, MaxResults: args.MaxResults, Category: args.CategoryFilter, PageToken: args.PageToken, ForModel: true}, nil
}

// referenceFormatSchema is tool_search's outputSchema: the reference
// format of DESIGN.md, as clients/go's RenderResult writes it (the keys it
// always writes are required; the others appear when set).
const referenceFormatSchema = `{"type":"object","properties":{` +
	`"tool_references":{"type":"array","items":{"type":"object","properties":{` +
	`"tool_name":{"type":"string"},"relevance_score":{"type":"number","minimum":0,"maximum":1},` +
	`"summary":{"type":"string"},"server":{"type":"string"}},"required":["tool_name","relevance_score","summary"]}},` +
	`"total_matches":{"type":"integer","minimum":0},` +
	`"search_metadata":{"type":"object","properties":{` +
	`"search_type":{"type":"string"},"query":{"type":"string"},"execution_time_ms":{"type":"integer","minimum":0},` +
	`"requested_search_type":{"type":"string"},"fallback_reason":{"type":"string"},"suggestion":{"type":"string"}},` +
	`"required":["search_type","query","execution_time_ms"]},` +
	`"hint":{"type":"string"},"available_tools":{"type":"array","items":{"type":"string"}},"unknown_tools":{"type":"array","items":{"type":"string"}},` +
	`"next_page_token":{"type":"string"}` +
	`},"required":["tool_references","total_matches","search_metadata"]}`

// search answers a tool_search call for the session: it searches within
// the session's visible tools, records the found tools as revealed (the
// engine does, under the session id), and returns the reference-format
// JSON as text and as structuredContent. When the session's tool list
// grew, the client is sent notifications/tools/list_changed.
func (sess *session) search(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sreq, bad := searchRequest(req.Params.Arguments)
	if bad != nil {
		return bad, nil
	}
	before, err := sess.build()
	if err != nil {
		return nil, err
	}
	sreq.Visible, sreq.SessionID = sess.scope.Visible, sess.id
	res, err := sess.srv.cfg.Engine.Search(ctx, sreq)
	switch {
	case errors.Is(err, search.ErrInvalidArgument):
		return toolError("tool_search: %v", err), nil
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		sess.srv.log.Error("mcp: tool_search failed", "session", sess.id, "error", err.Error())
		return toolError("tool_search failed inside the sidecar; try again."), nil
	}
	sess.srv.searched(ctx, sreq.Query, res)
	text, err := toolsearch.RenderResult(searchpb.Response(res))
	if err != nil {
		return nil, err
	}
	after, err := sess.build()
	if err != nil {
		return nil, err
	}
	if grew(before, after) {
		sess.notifyListChanged()
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(text),
	}, nil
}

// grew reports whether after lists a catalog tool that before does not:
// both share the scope's base list unless the catalog changed between
// them, so the revealed tools tell.
func grew(before, after *listing) bool {
	if before.base != after.base {
		for n := range after.base.loaded {
			if !before.loaded(n) {
				return true
			}
		}
	}
	for _, r := range after.revealed {
		if !before.loaded(r.name) {
			return true
		}
	}
	return false
}

// notSearchedError is the answer to a call of a tool the session's list
// does not hold: never revealed, outside the connection's visible tools,
// or not in the catalog (the message is the same, so it tells nothing
// about tools outside the scope).
func notSearchedError(name string) *mcp.CallToolResult {
	return toolError("%s is not loaded. Search first: call tool_search with what you want to do "+
		"(or query \"select:%s\" if you know the exact name); the tools it finds become callable.", name, name)
}
