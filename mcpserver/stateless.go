package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	mcpsource "github.com/toolsearch/toolsearch/source/mcp"
	"github.com/toolsearch/toolsearch/toolset"
)

// StatelessProtocolVersion is the first MCP version without sessions
// (2026-07-28, SEP-2575): no initialize and no Mcp-Session-Id, every
// request carries its version in _meta and the Mcp-Protocol-Version
// header. Requests of this version or newer are served in stateless mode;
// older ones in session mode. It is mcpsource.StatelessProtocolVersion:
// live servers are told the client's capabilities from the same version.
const StatelessProtocolVersion = mcpsource.StatelessProtocolVersion

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

// statelessInstructions are the stateless server's instructions
// (server/discover): how the two meta-tools work together.
const statelessInstructions = "This server searches a large tool catalog. Call tool_search with what you want to do " +
	"(or \"select:NAME\" when you know a tool's name): it returns the matching tools with their input schemas. " +
	"Then run one with call_tool {\"name\": NAME, \"arguments\": {...}, \"handle\": HANDLE}, passing the handle the search returned."

// stateless serves MCP 2026-07-28 requests: one go-sdk server for every
// request (the SDK connects it to a temporary session per HTTP request),
// whose tools/list is the same for every request of the same scope (the
// search tool, call_tool, read_output, then the always-loaded tools) and whose
// tools/call runs the search, the call proxy, or an always-loaded tool. It
// keeps no per-client state: a search's handle (handle.go) is an engine
// session id. Safe for concurrent use.
type stateless struct {
	srv *Server
	mcp *mcp.Server
	// lists holds the stable lists of the current snapshot by scope.
	lists listCache

	// mu guards scopes: the keys of the scopes requests used (at most
	// maxCachedLists, then cleared), whose lists a catalog change may
	// change.
	mu     sync.Mutex
	scopes map[string]bool
}

func newStateless(s *Server) *stateless {
	st := &stateless{srv: s, scopes: map[string]bool{}}
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
	private := st.srv.cfg.AuthToken != "" || len(st.srv.scoped) > 0 || len(conn.Visible) > 0 || len(conn.AlwaysLoaded) > 0
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
		return st.handle(ctx, method, req, sc, private, next)
	}
}

// handle answers a stateless tools/list or tools/call of scope sc (over
// HTTP, or a 2026-07-28 request of the stdio session).
func (st *stateless) handle(ctx context.Context, method string, req mcp.Request, sc Scope, private bool, next mcp.MethodHandler) (mcp.Result, error) {
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
	return st.srv.logCall(ctx, "stateless", call, func(ctx context.Context) (*mcp.CallToolResult, error) {
		return st.call(ctx, call, sc)
	})
}

// isStatelessRequest reports whether req is of the stateless protocol (its
// _meta names StatelessProtocolVersion or newer).
func isStatelessRequest(req mcp.Request) bool {
	v, ok := req.(interface{ ProtocolVersion() string })
	return ok && v.ProtocolVersion() >= StatelessProtocolVersion
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
		res, _, err := st.srv.forward(ctx, req, catalogName, false)
		return res, err
	case name == ReadOutputName:
		return st.srv.readOutput(ctx, req)
	case name == toolset.SearchToolName:
		return st.srv.searchStateless(ctx, req, sc)
	case name == CallToolName:
		return st.srv.callTool(ctx, req, sc)
	}
	return toolError("%s is not in your tool list. Find it with tool_search, then run it with %s "+
		"{\"name\": \"%s\", \"arguments\": {...}}.", name, CallToolName, name), nil
}

// list returns the stable list of scope sc for the current snapshot,
// building it on the first request of a scope after a catalog change.
func (st *stateless) list(sc Scope) (*baseList, error) {
	key := scopeKey(sc)
	st.mu.Lock()
	if !st.scopes[key] {
		if len(st.scopes) >= maxCachedLists {
			clear(st.scopes)
		}
		st.scopes[key] = true
	}
	st.mu.Unlock()
	snap := st.srv.cfg.Engine.Snapshot()
	pinned, pinKey := st.srv.learnedPins(sc)
	return st.lists.get(snap, key+pinKey, func() (*baseList, error) { return st.build(snap, sc, pinned) })
}

// build makes the stable list: the base list of the catalog's visible
// tools always deferred (the search tool, then the always-loaded tools),
// with the search tool's stateless definition and call_tool after it, and
// the tools learning pinned (pinned, from learnedPins: the pins the list's
// cache key was made with, read once).
func (st *stateless) build(snap *catalog.Snapshot, sc Scope, pinned []string) (*baseList, error) {
	b, err := st.srv.buildBase(snap, sc, 1, pinned)
	if err != nil {
		return nil, err
	}
	l := &baseList{tools: make([]*mcp.Tool, 0, len(b.tools)+1), defs: b.defs, loaded: b.loaded, names: b.names}
	for i, t := range b.tools {
		if b.defs[i].Kind != toolset.EntrySearch {
			l.tools = append(l.tools, t)
			continue
		}
		search := *t
		search.Description = statelessSearchDescription
		search.InputSchema = withHandle(b.defs[i].InputSchema)
		search.OutputSchema = json.RawMessage(statelessSearchOutputSchema)
		l.tools = append(l.tools, &search, callToolDefinition(), readOutputDefinition())
	}
	return l, nil
}

// catalogChanged tells the clients that listen (subscriptions/listen with
// toolsListChanged) when the change from snapshot old to the current one
// changed a stable list they may hold, and reports whether it did: the list of every scope requests
// used is built for both and compared. A client learns of it even when the
// changed list is another scope's: it only lists again.
func (st *stateless) catalogChanged(old *catalog.Snapshot) bool {
	st.mu.Lock()
	keys := make([]string, 0, len(st.scopes))
	for k := range st.scopes {
		keys = append(keys, k)
	}
	st.mu.Unlock()
	changed := false
	for _, key := range keys {
		sc := scopeFromKey(key)
		pinned, _ := st.srv.learnedPins(sc)
		prev, errPrev := st.build(old, sc, pinned)
		cur, errCur := st.list(sc)
		if errPrev != nil || errCur != nil || !sameTools(prev.defs, cur.defs) {
			changed = true
			break
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
	return changed
}
