package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// StatelessProtocolVersion is the first MCP version without sessions
// (2026-07-28, SEP-2575): no initialize and no Mcp-Session-Id, every
// request carries its version in _meta and the Mcp-Protocol-Version
// header. Requests of this version or newer are served in stateless mode;
// older ones in session mode.
const StatelessProtocolVersion = "2026-07-28"

// CallToolName is the name of the call proxy of stateless mode: the model
// calls a tool that tool_search found through it, since the list does not
// grow.
const CallToolName = "call_tool"

// ListTTL is the ttlMs of a stateless tools/list result: the list changes
// only when the catalog's always-loaded tools do, and clients that listen
// (subscriptions/listen) are told at once, so a minute only bounds how
// stale a client that does not listen may be.
const ListTTL = 60_000

// Cache scopes of a stateless tools/list (cacheScope): a list that depends
// on the caller (its bearer token, or the scope it sends in headers or
// query parameters) is private; the one every caller gets is public.
const (
	cachePublic  = "public"
	cachePrivate = "private"
)

// maxCachedLists bounds the stateless lists kept per catalog snapshot (one
// per distinct scope); past it the cache is cleared: agents use a handful
// of scopes, and a cleared cache only costs a rebuild.
const maxCachedLists = 64

// statelessInstructions are the stateless server's instructions
// (server/discover): how the two meta-tools work together.
const statelessInstructions = "This server searches a large tool catalog. Call tool_search with what you want to do " +
	"(or \"select:NAME\" when you know a tool's name): it returns the matching tools with their input schemas. " +
	"Then run one with call_tool {\"name\": NAME, \"arguments\": {...}, \"handle\": HANDLE}, passing the handle the search returned."

// stateless serves MCP 2026-07-28 requests: one go-sdk server for every
// request (the SDK connects it to a temporary session per HTTP request),
// whose tools/list is the same for every request of the same scope (the
// search tool, call_tool, then the always-loaded tools) and whose
// tools/call runs the search, the call proxy, or an always-loaded tool. It
// keeps no per-client state: a search's handle (handle.go) is an engine
// session id. Safe for concurrent use.
type stateless struct {
	srv *Server
	mcp *mcp.Server

	// mu guards the list cache: the lists built for snap, by scope key.
	mu    sync.Mutex
	snap  *catalog.Snapshot
	lists map[string]*stableList
}

// stableList is the stateless tools/list of one scope and snapshot. It is
// shared by the requests that read it and never modified.
type stableList struct {
	tools []*mcp.Tool
	// loaded holds the catalog names of the always-loaded tools, which
	// tools/call runs directly.
	loaded map[string]bool
	// names maps listed names to catalog names where they differ.
	names map[string]string
	// encoded is tools as JSON, to tell whether a catalog change changed
	// the list.
	encoded []byte
}

func newStateless(s *Server) *stateless {
	st := &stateless{srv: s, lists: map[string]*stableList{}}
	st.mcp = mcp.NewServer(s.implementation(), &mcp.ServerOptions{
		Instructions: statelessInstructions,
		Logger:       s.sdkLog,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = ListTTL, cachePrivate
		},
	})
	st.mcp.AddReceivingMiddleware(st.middleware)
	return st
}

// scopeOf is the scope of one stateless request: the server's default,
// with the fields the request's headers set replacing it (Handler folds
// query parameters into headers), and whether the list depends on the
// caller. A malformed scope is an error wrapping ErrInvalidScope.
func (st *stateless) scopeOf(req mcp.Request) (Scope, bool, error) {
	var h http.Header
	if ex := req.GetExtra(); ex != nil {
		h = ex.Header
	}
	conn, err := scopeFrom(h, nil)
	if err != nil {
		return Scope{}, true, err
	}
	private := st.srv.cfg.AuthToken != "" || len(conn.Visible) > 0 || len(conn.AlwaysLoaded) > 0
	return st.srv.scopeWith(conn), private, nil
}

// middleware answers tools/list and tools/call of stateless requests;
// every other method (server/discover, subscriptions/listen, ping) goes
// to the go-sdk server.
func (st *stateless) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list", "tools/call":
		default:
			return next(ctx, method, req)
		}
		sc, private, err := st.scopeOf(req)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		if method == "tools/list" {
			l, err := st.list(sc)
			if err != nil {
				return nil, err
			}
			res := &mcp.ListToolsResult{Tools: l.tools}
			res.TTLMs, res.CacheScope = ListTTL, cachePublic
			if private {
				res.CacheScope = cachePrivate
			}
			return res, nil
		}
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		return st.call(ctx, call, sc)
	}
}

// call answers tools/call: the search, the call proxy, an always-loaded
// tool, or a refusal that says to search.
func (st *stateless) call(ctx context.Context, req *mcp.CallToolRequest, sc Scope) (*mcp.CallToolResult, error) {
	l, err := st.list(sc)
	if err != nil {
		return nil, err
	}
	name := req.Params.Name
	catalogName := name
	if n, ok := l.names[name]; ok {
		catalogName = n
	}
	switch {
	case l.loaded[catalogName]:
		return st.srv.forward(ctx, req, catalogName)
	case name == toolset.SearchToolName:
		return st.srv.searchStateless(ctx, req, sc)
	case name == CallToolName:
		return st.srv.callTool(ctx, req, sc)
	}
	return toolError("%s is not in your tool list. Find it with tool_search, then run it with %s "+
		"{\"name\": \"%s\", \"arguments\": {...}}.", name, CallToolName, name), nil
}

// scopeKey identifies a scope in the list cache.
func scopeKey(sc Scope) string {
	return strings.Join(sc.Visible, ",") + "\x00" + strings.Join(sc.AlwaysLoaded, ",")
}

// list returns the stable list of scope sc for the current snapshot,
// building it on the first request of a scope after a catalog change.
func (st *stateless) list(sc Scope) (*stableList, error) {
	snap := st.srv.cfg.Engine.Snapshot()
	key := scopeKey(sc)
	st.mu.Lock()
	if st.snap != snap {
		st.snap, st.lists = snap, map[string]*stableList{}
	}
	l := st.lists[key]
	st.mu.Unlock()
	if l != nil {
		return l, nil
	}
	l, err := st.build(snap, sc)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if st.snap == snap {
		if len(st.lists) >= maxCachedLists {
			clear(st.lists)
		}
		st.lists[key] = l
	}
	st.mu.Unlock()
	return l, nil
}

// build makes the stable list with package toolset: the catalog's visible
// tools always deferred (so the list is the search tool, then the
// always-loaded tools), with call_tool after the search tool.
func (st *stateless) build(snap *catalog.Snapshot, sc Scope) (*stableList, error) {
	tools := newVisibility(sc.Visible).filter(snap.Tools())
	ts, err := toolset.Build(tools, nil, toolset.Options{
		Format:            toolset.MCP,
		AlwaysLoaded:      sc.AlwaysLoaded,
		DeferralThreshold: 1,
		MaxResults:        st.srv.cfg.Engine.MaxResultsCap(),
	})
	if err != nil {
		return nil, err
	}
	defs, err := decodeMCPTools(ts.Tools)
	if err != nil {
		return nil, err
	}
	l := &stableList{tools: make([]*mcp.Tool, 0, len(defs)+1), loaded: make(map[string]bool, len(ts.Loaded)), names: ts.Names}
	for _, t := range defs {
		if t.Name == toolset.SearchToolName {
			t.Description = statelessSearchDescription
			t.InputSchema = withHandle(t.InputSchema.(json.RawMessage))
			t.OutputSchema = json.RawMessage(statelessSearchOutputSchema)
			l.tools = append(l.tools, t, callToolDefinition())
			continue
		}
		l.tools = append(l.tools, t)
	}
	for _, n := range ts.Loaded {
		l.loaded[n] = true
	}
	if l.encoded, err = json.Marshal(l.tools); err != nil {
		return nil, err
	}
	return l, nil
}

// catalogChanged tells the clients that listen (subscriptions/listen with
// toolsListChanged) when a catalog change changed a stable list they may
// hold: the cached lists are rebuilt and compared. A client learns of it
// even when the changed list is another scope's: it only lists again.
func (st *stateless) catalogChanged() {
	st.mu.Lock()
	old := st.lists
	st.mu.Unlock()
	changed := false
	for key, prev := range old {
		sc := scopeFromKey(key)
		l, err := st.list(sc)
		if err != nil || !bytes.Equal(l.encoded, prev.encoded) {
			changed = true
		}
	}
	if changed {
		// A registry change is what makes the SDK notify the listening
		// sessions (debounced); the registry itself is never listed.
		st.mcp.AddTool(&mcp.Tool{Name: revisionTool, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return toolError("%s is internal", revisionTool), nil
			})
		st.mcp.RemoveTools(revisionTool)
	}
}

// scopeFromKey is scopeKey's inverse.
func scopeFromKey(key string) Scope {
	v, a, _ := strings.Cut(key, "\x00")
	var sc Scope
	if v != "" {
		sc.Visible = strings.Split(v, ",")
	}
	if a != "" {
		sc.AlwaysLoaded = strings.Split(a, ",")
	}
	return sc
}

// decodeMCPTools decodes toolset's MCP tools array into go-sdk tools.
func decodeMCPTools(raw json.RawMessage) ([]*mcp.Tool, error) {
	var defs []struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &defs); err != nil {
		return nil, fmt.Errorf("mcpserver: decode toolset: %w", err)
	}
	out := make([]*mcp.Tool, len(defs))
	for i, d := range defs {
		t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema}
		if len(d.OutputSchema) > 0 {
			// A live server's tool keeps its outputSchema: its
			// structuredContent is passed through as is.
			t.OutputSchema = d.OutputSchema
		}
		if len(d.Annotations) > 0 {
			var a mcp.ToolAnnotations
			if json.Unmarshal(d.Annotations, &a) == nil && a != (mcp.ToolAnnotations{}) {
				t.Annotations = &a
			}
		}
		out[i] = t
	}
	return out, nil
}
