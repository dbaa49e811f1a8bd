package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/search/searchpb"
	"github.com/toolsearch/toolsearch/toolset"
)

// FoundMaxBytes bounds the tool definitions a stateless tool_search
// returns (the "tools" of its result), in bytes of JSON: about 8k tokens,
// room for ten ordinary definitions. Over it, package toolset's trimming
// rules apply as for GetToolset: large definitions are cut to their
// description and top-level parameters, then the lowest-ranked are left
// out; the result's "trimmed" and "omitted" say which.
const FoundMaxBytes = 32 << 10

// statelessSearchDescription is tool_search's description in stateless
// mode: the tool list never grows, so the result carries the definitions.
const statelessSearchDescription = "Search the tool catalog. Only a few tools are in your tool list; the catalog has many more. " +
	"Call tool_search with what you want to do: it returns the matching tools (tool_references, ranked) and their " +
	"definitions with input schemas (tools), and a handle. Run a found tool with call_tool " +
	"{\"name\": NAME, \"arguments\": {...}, \"handle\": HANDLE}.\n" +
	"Query syntax:\n" +
	"- plain words describe the task: \"send a message to a slack channel\"\n" +
	"- select:name_a,name_b returns exactly those tools by name\n" +
	"- +term requires a word, -term excludes one, server:NAME keeps one server's tools\n" +
	"If nothing matched, the result gives a hint and available tool names to retry with."

// handleProperty is the handle argument added to tool_search's schema in
// stateless mode.
const handleProperty = `{"type":"string","description":"The handle of an earlier tool_search in this conversation, if any (optional)."}`

// withHandle adds the handle property to tool_search's input schema.
func withHandle(schema json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil {
		return schema
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(m["properties"], &props) != nil || props == nil {
		return schema
	}
	props["handle"] = json.RawMessage(handleProperty)
	var err error
	if m["properties"], err = json.Marshal(props); err != nil {
		return schema
	}
	out, err := json.Marshal(m)
	if err != nil {
		return schema
	}
	return out
}

// statelessSearchOutputSchema is tool_search's outputSchema in stateless
// mode: the reference format, plus the found tools' definitions, the
// handle, and what the size bound trimmed or left out.
var statelessSearchOutputSchema = strings.TrimSuffix(referenceFormatSchema, `},"required":["tool_references","total_matches","search_metadata"]}`) +
	`,"tools":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"description":{"type":"string"},"inputSchema":{"type":"object"}},"required":["name","inputSchema"]}},` +
	`"handle":{"type":"string"},` +
	`"trimmed":{"type":"array","items":{"type":"object","properties":{"tool":{"type":"string"},"detail":{"type":"string"}}}},` +
	`"omitted":{"type":"array","items":{"type":"object","properties":{"tool":{"type":"string"},"reason":{"type":"string"}}}}` +
	`},"required":["tool_references","total_matches","search_metadata","tools","handle"]}`

// statelessArgs are what tool_search's arguments add in stateless mode
// (searchRequest reads the rest).
type statelessArgs struct {
	Handle string `json:"handle"`
}

// searchStateless answers a stateless tool_search: the reference format,
// the found tools' definitions (bounded by FoundMaxBytes), and a handle.
// Nothing is revealed to a list: the list is the same before and after.
func (s *Server) searchStateless(ctx context.Context, req *mcp.CallToolRequest, sc Scope) (*mcp.CallToolResult, error) {
	sreq, bad := searchRequest(req.Params.Arguments)
	if bad != nil {
		return bad, nil
	}
	var args statelessArgs
	if len(req.Params.Arguments) > 0 && json.Unmarshal(req.Params.Arguments, &args) != nil {
		return toolError(`tool_search: "handle" must be a string: the handle a previous tool_search returned`), nil
	}
	handle := args.Handle
	if !validHandle(handle) {
		h, err := newHandle()
		if err != nil {
			return nil, err
		}
		handle = h
	}
	e := s.cfg.Engine
	sreq.Visible = sc.Visible
	if e.Learning() {
		// The engine keeps the search under the handle, for call_tool's
		// report to credit.
		sreq.SessionID = handle
	}
	res, err := e.Search(ctx, sreq)
	switch {
	case errors.Is(err, search.ErrInvalidArgument):
		return toolError("tool_search: %v", err), nil
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		s.log.Error("mcp: tool_search failed", "handle", handle, "error", err.Error())
		return toolError("tool_search failed inside the sidecar; try again."), nil
	}
	s.searched(ctx, sreq.Query, res)
	text, err := toolsearch.RenderResult(searchpb.Response(res))
	if err != nil {
		return nil, err
	}
	found, err := s.definitions(res)
	if err != nil {
		return nil, err
	}
	body, ok := strings.CutSuffix(text, "}")
	if !ok {
		return nil, fmt.Errorf("mcpserver: rendered result is not a JSON object")
	}
	var b strings.Builder
	b.Grow(len(text) + len(found))
	b.WriteString(body)
	b.WriteString(`,"tools":`)
	b.Write(found)
	hq, _ := json.Marshal(handle)
	b.WriteString(`,"handle":`)
	b.Write(hq)
	b.WriteString("}")
	out := b.String()
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: out}},
		StructuredContent: json.RawMessage(out),
	}, nil
}

// definitions returns the found tools' MCP definitions in rank order as a
// JSON array, followed (after a comma) by "trimmed" and "omitted" when the
// size bound cut any: toolset.Build over the found tools alone, so a
// search costs what it found, not the catalog.
func (s *Server) definitions(res search.Result) ([]byte, error) {
	if len(res.References) == 0 {
		return []byte("[]"), nil
	}
	snap := s.cfg.Engine.Snapshot()
	tools := make([]catalog.Tool, 0, len(res.References))
	for _, r := range res.References {
		if i, ok := snap.Lookup(r.Name); ok {
			tools = append(tools, snap.Tool(i))
		}
	}
	ts, err := toolset.Build(tools, nil, toolset.Options{
		Format:            toolset.MCP,
		DeferralThreshold: len(tools) + 1, // every found tool in full
		MaxBytes:          FoundMaxBytes,
		Cache:             s.toolsets,
	})
	if err != nil {
		return nil, err
	}
	out := make([]*mcp.Tool, 0, len(ts.Definitions))
	for _, d := range ts.Definitions {
		if d.Kind == toolset.EntrySearch {
			continue // a found tool annotated to be deferred always brings the search tool along
		}
		out = append(out, mcpTool(d))
	}
	list, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	type trim struct {
		Tool   string `json:"tool"`
		Detail string `json:"detail"`
	}
	type omit struct {
		Tool   string `json:"tool"`
		Reason string `json:"reason"`
	}
	var trimmed []trim
	for _, c := range ts.Changes {
		if c.Kind == toolset.ChangeTrimmedForSize {
			trimmed = append(trimmed, trim{c.Tool, c.Detail})
		}
	}
	var omitted []omit
	for _, o := range ts.Omitted {
		omitted = append(omitted, omit{o.Tool, o.Reason})
	}
	if len(trimmed) > 0 {
		t, _ := json.Marshal(trimmed)
		list = append(append(list, `,"trimmed":`...), t...)
	}
	if len(omitted) > 0 {
		o, _ := json.Marshal(omitted)
		list = append(append(list, `,"omitted":`...), o...)
	}
	return list, nil
}
