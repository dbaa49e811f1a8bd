package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// session is one MCP session: its id (also the engine's session id of its
// revealed tools), its scope, and its go-sdk server. Its methods are safe
// for concurrent use: a client may send requests in parallel.
type session struct {
	srv   *Server
	id    string
	scope Scope
	vis   visibility
	mcp   *mcp.Server
	// stdio marks the one session of Run (not counted in Server.live).
	stdio bool
	// started is set by the initialize request (Server.track).
	started atomic.Bool
	// served is the last list answered to tools/list (nil before the
	// first), for catalogChanged.
	served atomic.Pointer[listing]

	// mu guards the caches: the visible tools of snap, and the listing
	// built for snap and the revealed names (hosts list and call often
	// while both stay the same).
	mu       sync.Mutex
	snap     *catalog.Snapshot
	visible  []catalog.Tool
	revealed []string
	last     *listing
}

// listing is a session's tool list as of one moment. It is shared by the
// calls that read it and never modified.
type listing struct {
	// tools is the tools/list answer, in toolset's order.
	tools []*mcp.Tool
	// loaded holds the catalog names of the listed catalog tools: the
	// tools this session may call.
	loaded map[string]bool
	// names maps listed names to catalog names where they differ.
	names map[string]string
	// prompt is toolset's system prompt addition ("" when nothing is
	// deferred); it becomes the session's instructions.
	prompt string
}

// build makes the session's current tool list with package toolset: the
// catalog's visible tools, and the engine's revealed tools for the
// session id, in the MCP tools/list format.
func (sess *session) build() (listing, error) {
	e := sess.srv.cfg.Engine
	snap, revealed, err := e.Revealed(sess.id)
	if err != nil {
		return listing{}, err
	}
	revealed = sess.vis.filter(revealed)
	names := make([]string, len(revealed))
	for i, t := range revealed {
		names[i] = t.Name
	}
	sess.mu.Lock()
	if sess.last != nil && sess.snap == snap && slices.Equal(sess.revealed, names) {
		l := *sess.last
		sess.mu.Unlock()
		return l, nil
	}
	sess.mu.Unlock()
	tools := sess.visibleTools(snap)
	ts, err := toolset.Build(tools, revealed, toolset.Options{
		Format:            toolset.MCP,
		AlwaysLoaded:      sess.scope.AlwaysLoaded,
		DeferralThreshold: sess.srv.cfg.DeferralThreshold,
		MaxResults:        e.MaxResultsCap(),
		Cache:             sess.srv.toolsets,
	})
	if err != nil {
		return listing{}, err
	}
	defs, err := decodeMCPTools(ts.Tools)
	if err != nil {
		return listing{}, err
	}
	l := listing{tools: defs, loaded: make(map[string]bool, len(ts.Loaded)), names: ts.Names, prompt: ts.SystemPrompt}
	for _, t := range defs {
		// toolset renames a catalog tool called tool_search, so this
		// name is the search tool's.
		if t.Name == toolset.SearchToolName && ts.Deferring {
			t.OutputSchema = json.RawMessage(referenceFormatSchema)
		}
	}
	for _, n := range ts.Loaded {
		l.loaded[n] = true
	}
	sess.mu.Lock()
	if sess.snap == snap { // visibleTools set it unless the catalog changed since
		sess.revealed, sess.last = names, &l
	}
	sess.mu.Unlock()
	return l, nil
}

// visibleTools returns the visible tools of snap, cached per snapshot (a
// new snapshot also drops the cached listing).
func (sess *session) visibleTools(snap *catalog.Snapshot) []catalog.Tool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.snap != snap {
		sess.snap, sess.visible, sess.revealed, sess.last = snap, sess.vis.filter(snap.Tools()), nil, nil
	}
	return sess.visible
}

// middleware answers tools/list and tools/call from the session's state;
// every other method goes to the go-sdk server.
func (sess *session) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			res, err := next(ctx, method, req)
			if err == nil {
				ss, _ := req.GetSession().(*mcp.ServerSession)
				sess.srv.track(sess, ss)
			}
			return res, err
		case "tools/list":
			l, err := sess.build()
			if err != nil {
				return nil, err
			}
			sess.served.Store(&l)
			return &mcp.ListToolsResult{Tools: l.tools}, nil
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			res, err := sess.call(ctx, call)
			if err != nil {
				return nil, err
			}
			return res, nil
		}
		return next(ctx, method, req)
	}
}

// call answers tools/call: tool_search, a listed catalog tool (forwarded
// to its live server), or a refusal that says to search first.
func (sess *session) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	l, err := sess.build()
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
		res, err := sess.srv.forward(ctx, req, catalogName)
		sess.srv.reportUse(ctx, sess.id, catalogName, res, err)
		return res, err
	case name == toolset.SearchToolName:
		return sess.search(ctx, req)
	}
	return notSearchedError(name), nil
}

// revisionTool is the one tool in a session's go-sdk registry. The
// registry is never listed or called (the middleware answers both); it is
// replaced whenever the session's list grows, because a registry change is
// what makes the SDK send notifications/tools/list_changed, to this
// session alone since every session has its own server.
const revisionTool = "toolsearch.revision"

// notifyListChanged makes the SDK send notifications/tools/list_changed
// to the session (debounced by the SDK: a burst of changes sends one).
func (sess *session) notifyListChanged() {
	sess.mcp.AddTool(&mcp.Tool{Name: revisionTool, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return notSearchedError(revisionTool), nil
		})
}

// catalogChanged sends notifications/tools/list_changed when the session's
// list differs from the last one it was served (a tool added to a catalog
// listed whole, a revealed or always-loaded tool removed or changed).
func (sess *session) catalogChanged() {
	prev := sess.served.Load()
	if prev == nil {
		return
	}
	l, err := sess.build()
	if err != nil {
		return
	}
	a, errA := json.Marshal(prev.tools)
	b, errB := json.Marshal(l.tools)
	if errA == nil && errB == nil && !bytes.Equal(a, b) {
		sess.notifyListChanged()
	}
}
