package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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
	// owner is the digest of the bearer token that opened the session
	// (Server.owners).
	owner [sha256.Size]byte
	// stdio marks the one session of Run (not counted in Server.live).
	stdio bool
	// started is set by the initialize request (Server.track).
	started atomic.Bool
	// lastActive is when the session's last request started (unix
	// nanoseconds), and busy the number of its requests in flight: an idle
	// session may be evicted for a new one (budget.go).
	lastActive atomic.Int64
	busy       atomic.Int32
	// modern is set once the session had a 2026-07-28 request (stdio
	// only: HTTP sends those to the stateless server).
	modern atomic.Bool
	// kept is set once a result of the session was kept for read_output,
	// which the session's list holds from then on.
	kept atomic.Bool
	// served is the last list answered to tools/list (nil before the
	// first), for catalogChanged.
	served atomic.Pointer[listing]

	// mu guards the caches of snapshot snap: the definitions of the
	// revealed tools the base list does not hold, by catalog name (only
	// those the engine still holds for the session), and the
	// listing last built with its revealed names (hosts list and call
	// often while both stay the same).
	mu       sync.Mutex
	snap     *catalog.Snapshot
	defs     map[string]revealedTool
	revealed []string
	last     *listing
}

// revealedTool is the definition of a revealed tool in the session's list.
type revealedTool struct {
	name string // catalog name
	tool *mcp.Tool
	def  toolset.Definition
}

// listing is a session's tool list as of one moment: the scope's shared
// base list, then the revealed tools it does not hold, in reveal order. It
// is shared by the calls that read it and never modified.
type listing struct {
	base *baseList
	// output is set when the list holds read_output (after the base list).
	output   bool
	revealed []revealedTool
	// tools is the tools/list answer, in toolset's order.
	tools []*mcp.Tool
	// extra maps the revealed tools' listed names to catalog names.
	extra map[string]string
	// prompt is toolset's system prompt addition ("" when nothing is
	// deferred); it becomes the session's instructions.
	prompt string
}

// catalogName is the catalog name of a listed name, and whether the
// session may call it (it is a listed catalog tool).
func (l *listing) catalogName(listed string) (string, bool) {
	if n, ok := l.extra[listed]; ok {
		return n, true
	}
	name := listed
	if n, ok := l.base.names[listed]; ok {
		name = n
	}
	return name, l.base.loaded[name]
}

// loaded reports whether the list holds the catalog tool name.
func (l *listing) loaded(name string) bool {
	if l.base.loaded[name] {
		return true
	}
	for _, r := range l.revealed {
		if r.name == name {
			return true
		}
	}
	return false
}

// same reports whether two listings list the same tools.
func (l *listing) same(o *listing) bool {
	return l.output == o.output && sameTools(l.base.defs, o.base.defs) && slices.EqualFunc(l.revealed, o.revealed, func(a, b revealedTool) bool {
		return sameDefinition(a.def, b.def)
	})
}

// sessionBase is session mode's base list of scope sc for snap.
func (s *Server) sessionBase(snap *catalog.Snapshot, sc Scope) (*baseList, error) {
	pinned, pinKey := s.learnedPins(sc)
	return s.sessionLists.get(snap, scopeKey(sc)+pinKey, func() (*baseList, error) {
		b, err := s.buildBase(snap, sc, s.cfg.DeferralThreshold, pinned)
		if err != nil {
			return nil, err
		}
		for i, t := range b.tools {
			if b.defs[i].Kind == toolset.EntrySearch {
				t.OutputSchema = json.RawMessage(referenceFormatSchema)
			}
		}
		return b, nil
	})
}

// build returns the session's current tool list: the scope's base list
// (built once per snapshot for every session of the scope), then the
// definitions of the engine's revealed tools for the session id that it
// does not hold, built by package toolset the first time each is
// revealed. Its cost grows with what the session revealed, not with the
// catalog.
func (sess *session) build() (*listing, error) {
	snap, revealed, err := sess.srv.cfg.Engine.Revealed(sess.id)
	if err != nil {
		return nil, err
	}
	revealed = sess.vis.filter(revealed)
	base, err := sess.srv.sessionBase(snap, sess.scope)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(revealed))
	for i, t := range revealed {
		names[i] = t.Name
	}
	sess.mu.Lock()
	if sess.snap != snap {
		sess.snap, sess.defs, sess.revealed, sess.last = snap, map[string]revealedTool{}, nil, nil
	}
	output := sess.kept.Load()
	if sess.last != nil && sess.last.base == base && sess.last.output == output && slices.Equal(sess.revealed, names) {
		l := sess.last
		sess.mu.Unlock()
		return l, nil
	}
	defs := make(map[string]revealedTool, len(revealed))
	var missing []catalog.Tool
	for _, t := range revealed {
		if base.loaded[t.Name] {
			continue
		}
		if d, ok := sess.defs[t.Name]; ok {
			defs[t.Name] = d
		} else {
			missing = append(missing, t)
		}
	}
	sess.mu.Unlock()
	if len(missing) > 0 {
		if err := sess.srv.revealedDefinitions(missing, defs); err != nil {
			return nil, err
		}
	}
	l := &listing{base: base, output: output, prompt: base.prompt, revealed: make([]revealedTool, 0, len(defs))}
	for _, t := range revealed {
		if d, ok := defs[t.Name]; ok {
			l.revealed = append(l.revealed, d)
		}
	}
	l.tools = make([]*mcp.Tool, 0, len(base.tools)+len(l.revealed)+1)
	l.tools = append(l.tools, base.tools...)
	if output {
		l.tools = append(l.tools, readOutputDefinition())
	}
	l.extra = make(map[string]string, len(l.revealed))
	for _, r := range l.revealed {
		l.tools = append(l.tools, r.tool)
		l.extra[r.tool.Name] = r.name
	}
	sess.mu.Lock()
	if sess.snap == snap {
		// defs holds the revealed tools' definitions alone: a tool the
		// engine forgot (MaxRevealed) is forgotten here too.
		sess.defs, sess.revealed, sess.last = defs, names, l
	}
	sess.mu.Unlock()
	return l, nil
}

// revealedDefinitions adds the MCP definitions of tools to defs, built by
// package toolset as a deferred list revealing them (so they are named and
// normalized as in a whole list), without the search tool.
func (s *Server) revealedDefinitions(tools []catalog.Tool, defs map[string]revealedTool) error {
	ts, err := toolset.Build(tools, tools, toolset.Options{Format: toolset.MCP, DeferralThreshold: 1, Cache: s.toolsets})
	if err != nil {
		return err
	}
	for _, d := range ts.Definitions {
		if d.Kind == toolset.EntrySearch {
			continue // the search tool heads every deferred list
		}
		defs[d.Tool] = revealedTool{name: d.Tool, tool: mcpTool(d), def: d}
	}
	return nil
}

// middleware answers tools/list and tools/call from the session's state;
// every other method goes to the go-sdk server.
func (sess *session) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		sess.lastActive.Store(time.Now().UnixNano())
		sess.busy.Add(1)
		defer sess.busy.Add(-1)
		if (method == "tools/list" || method == "tools/call") && isStatelessRequest(req) {
			// A 2026-07-28 client of the stdio session: stateless mode.
			sess.modern.Store(true)
			return sess.srv.modern.handle(ctx, method, req, sess.scope, false, next)
		}
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
			sess.served.Store(l)
			return &mcp.ListToolsResult{Tools: l.tools}, nil
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			res, err := sess.srv.logCall(ctx, "session", call, func(ctx context.Context) (*mcp.CallToolResult, error) {
				return sess.call(ctx, call)
			})
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
	catalogName, loaded := l.catalogName(name)
	switch {
	case loaded:
		res, kept, err := sess.srv.forward(ctx, req, catalogName, false)
		sess.srv.reportUse(ctx, sess.id, catalogName, res, err)
		if kept && !sess.kept.Swap(true) {
			sess.notifyListChanged() // read_output joins the list
		}
		return res, err
	case name == toolset.SearchToolName:
		return sess.search(ctx, req)
	case name == ReadOutputName && l.output:
		return sess.srv.readOutput(ctx, req)
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
// list differs from the last one it was served (for a 2026-07-28 session,
// when a stable list changed: stableChanged) (a tool added to a catalog
// listed whole, a revealed or always-loaded tool removed or changed).
func (sess *session) catalogChanged(stableChanged bool) {
	if sess.modern.Load() {
		if stableChanged {
			sess.notifyListChanged()
		}
		return
	}
	prev := sess.served.Load()
	if prev == nil {
		return
	}
	l, err := sess.build()
	if err != nil {
		return
	}
	if !l.same(prev) {
		sess.notifyListChanged()
	}
}
