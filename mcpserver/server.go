package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
)

// Config configures a Server. Engine is required; the zero value of every
// other field is its documented default.
type Config struct {
	// Engine answers the searches and keeps each MCP session's revealed
	// tools (its session store: bounds, idle TTL and eviction apply).
	Engine *search.Engine
	// Caller forwards calls of tools that live MCP servers provide; nil
	// when there are none (every tool then comes from a file, and a call
	// says the agent must run it).
	Caller Caller
	// Scope is the default of connections that set no scope of their own:
	// a connection that sends visible tools (or always-loaded tools)
	// replaces that field of the default. Stdio connections use it as is.
	Scope Scope
	// DeferralThreshold is the number of visible tools from which tools are
	// deferred behind tool_search; with fewer, tools/list holds every
	// visible tool. 0 means Toolset.DeferralThreshold, else
	// toolset.DefaultDeferralThreshold.
	DeferralThreshold int
	// Toolset are the sidecar's toolset defaults (--deferral-threshold,
	// --deferral-mode, --system-prompt-file, server descriptions): the
	// session lists and their instructions follow them as GetToolset does.
	Toolset toolset.Defaults
	// CallTimeout is the budget of one forwarded tool call. 0 means
	// DefaultCallTimeout.
	CallTimeout time.Duration
	// MaxSessions is the most MCP sessions served over HTTP at once; a new
	// session past it takes the place of the least recently active one
	// idle for EvictIdleAfter, or is refused with 503 when none is (see
	// budget.go). 0 means search.DefaultMaxSessions.
	MaxSessions int
	// EvictIdleAfter is how long a session must have been idle before a
	// new session past the limit may take its place. 0 means
	// DefaultEvictIdleAfter.
	EvictIdleAfter time.Duration
	// SessionBudget is the memory the HTTP sessions may take together, in
	// bytes, counted at SessionMemory each: it lowers MaxSessions when it
	// holds fewer. 0 means no bound but MaxSessions.
	SessionBudget int64
	// SessionTimeout closes an HTTP session idle for this long (its
	// revealed tools are dropped with it). 0 means search.DefaultSessionTTL.
	SessionTimeout time.Duration
	// AuthToken, when set, is the bearer token every HTTP request must
	// carry ("Authorization: Bearer TOKEN"); others get 401.
	AuthToken string
	// TokenScopes maps further bearer tokens to the scope their requests
	// see (ParseTokenScopes, tokens.go); with it set, every HTTP request
	// must carry AuthToken or one of these. A session opened with a token
	// is served to that token alone.
	TokenScopes map[string]Scope
	// InlineOutput is the largest forwarded result passed on whole, in
	// bytes of text; a larger one is kept (bounded: OutputStoreBytes,
	// OutputTTL) and answered with a preview and a handle for read_output.
	// 0 means DefaultInlineOutput; a negative value keeps nothing.
	InlineOutput int
	// OnSearch, when set, receives each successful tool_search's result,
	// in both modes: the sidecar counts them with the gRPC searches
	// (toolsearch_searches_total). It must be safe for concurrent use.
	OnSearch func(search.Result)
	// LogQuery, when set, is how the request log line of a tool_search
	// shows its query (the sidecar's --log-queries); nil shows none.
	LogQuery func(query string) (slog.Attr, bool)
	// Version is the server version reported in initialize.
	Version string
	// Log receives session and call-through events; nil means slog.Default().
	Log *slog.Logger
}

// Server is the MCP endpoint. Each MCP session gets its own go-sdk server
// (so tools/list_changed reaches that session alone) whose tools/list and
// tools/call are answered from the engine's session store. A Server is
// safe for concurrent use; Handler and Run may serve many connections at
// once.
type Server struct {
	cfg Config
	log *slog.Logger
	// sdkLog is log for the go-sdk's own events (warnings and errors
	// only: it logs every session's start and end at info).
	sdkLog   *slog.Logger
	versions []string
	token    [sha256.Size]byte
	// base answers the go-sdk handler's look-ups for requests of existing
	// sessions (it holds no session).
	base *mcp.Server
	// modern serves stateless requests (MCP 2026-07-28 and newer).
	modern *stateless
	// live counts HTTP sessions, for MaxSessions; evicted counts the idle
	// sessions closed to admit new ones.
	live, evicted atomic.Int64
	// mu guards open: the live sessions (HTTP ones with their go-sdk
	// session, for Close; Run's with nil), for Close and the catalog
	// watcher.
	mu   sync.Mutex
	open map[*session]*mcp.ServerSession
	// sessionLists holds session mode's base lists of the current
	// snapshot by scope, shared by the sessions of a scope.
	sessionLists listCache
	// closing ends with Close: it cancels stateless requests in flight
	// (subscriptions/listen streams would otherwise hold the HTTP server's
	// shutdown until its timeout).
	closing     context.Context
	stopClosing context.CancelFunc
	// stop ends the catalog watcher (watchCatalog), which closes watched.
	stop     chan struct{}
	stopOnce sync.Once
	watched  chan struct{}
	// scoped are Config.TokenScopes by digest.
	scoped []scopedToken
	// owners maps the ids of the HTTP sessions opened with a bearer token
	// to its digest (guarded by mu).
	owners map[string][sha256.Size]byte
	// outputs holds the large results kept for read_output.
	outputs *outputStore
	// toolsets memoizes the sessions' schema normalization.
	toolsets *toolset.Cache
	// stateKey signs the requestStates of input_required results
	// (input.go).
	stateKey []byte
}

// New checks cfg and returns a Server. A malformed default scope is an
// error wrapping ErrInvalidScope.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errors.New("mcpserver: Config.Engine is nil; pass the search engine")
	}
	if err := cfg.Scope.validate(); err != nil {
		return nil, fmt.Errorf("mcpserver: default scope: %w", err)
	}
	var scoped []scopedToken
	for token, sc := range cfg.TokenScopes {
		if err := sc.validate(); err != nil {
			return nil, fmt.Errorf("mcpserver: token scopes: %w", err)
		}
		scoped = append(scoped, scopedToken{digest: sha256.Sum256([]byte(token)), scope: sc})
	}
	if err := cfg.Toolset.Validate(); err != nil {
		return nil, fmt.Errorf("mcpserver: toolset defaults: %w", err)
	}
	if cfg.DeferralThreshold < 0 {
		return nil, fmt.Errorf("mcpserver: deferral threshold %d: use 0 for the default of %d, or a positive count",
			cfg.DeferralThreshold, toolset.DefaultDeferralThreshold)
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = search.DefaultMaxSessions
	}
	if cfg.SessionTimeout <= 0 {
		cfg.SessionTimeout = search.DefaultSessionTTL
	}
	if cfg.EvictIdleAfter <= 0 {
		cfg.EvictIdleAfter = DefaultEvictIdleAfter
	}
	if cfg.InlineOutput == 0 {
		cfg.InlineOutput = DefaultInlineOutput
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	key, err := newStateKey()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Log, stateKey: key, sdkLog: slog.New(quietHandler{cfg.Log.Handler()}), versions: sessionVersions(), token: sha256.Sum256([]byte(cfg.AuthToken)),
		open: map[*session]*mcp.ServerSession{}, toolsets: toolset.NewCache(0), outputs: newOutputStore(),
		scoped: scoped, owners: map[string][sha256.Size]byte{}}
	s.base = mcp.NewServer(s.implementation(), &mcp.ServerOptions{SupportedProtocolVersions: s.versions, Logger: s.sdkLog})
	s.modern = newStateless(s)
	s.stop, s.watched = make(chan struct{}), make(chan struct{})
	s.closing, s.stopClosing = context.WithCancel(context.Background())
	go s.watchCatalog()
	return s, nil
}

// watchCatalog notifies, at each catalog change the engine reports (live
// MCP servers adding or removing tools, UpsertTools), the sessions whose
// tool list the change changed, and the stateless clients that listen,
// until Close.
func (s *Server) watchCatalog() {
	defer close(s.watched)
	e := s.cfg.Engine
	changed := e.CatalogChanged()
	last := e.Snapshot()
	for {
		select {
		case <-s.stop:
			return
		case <-changed:
		}
		changed = e.CatalogChanged()
		snap := e.Snapshot()
		if snap == last {
			continue
		}
		s.mu.Lock()
		sessions := make([]*session, 0, len(s.open))
		for sess := range s.open {
			sessions = append(sessions, sess)
		}
		s.mu.Unlock()
		stable := s.modern.catalogChanged(last)
		for _, sess := range sessions {
			sess.catalogChanged(stable)
		}
		last = snap
	}
}

// sessionVersions is the SDK's versions that have sessions (before
// StatelessProtocolVersion): session mode's servers speak these, and
// answer a newer client's initialize with the newest of them.
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < StatelessProtocolVersion {
			out = append(out, v)
		}
	}
	return out
}

// isStateless reports whether r is a request of the stateless protocol: its
// Mcp-Protocol-Version header, which MCP 2026-07-28 requires on every
// request (server/discover included), names that version or a newer one.
// Session mode's clients send an older version, or none on initialize.
func isStateless(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= StatelessProtocolVersion
}

func (s *Server) implementation() *mcp.Implementation {
	return &mcp.Implementation{Name: "toolsearch", Title: "toolsearch: tool search", Version: s.cfg.Version}
}

// Run serves one MCP connection over t (a *mcp.StdioTransport for hosts
// that launch the sidecar as a process) with the default scope, until the
// client disconnects or ctx ends. It speaks both protocols: a client that
// negotiates 2026-07-28 gets stateless mode's list and tools.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	sess, err := s.newSession(Scope{}, mcp.SupportedProtocolVersions())
	if err != nil {
		return err
	}
	sess.stdio = true // not counted against MaxSessions: one process, one client
	s.mu.Lock()
	s.open[sess] = nil
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.open, sess)
		s.mu.Unlock()
		s.endSession(sess)
	}()
	return sess.mcp.Run(ctx, t)
}

// Handler is the streamable HTTP endpoint, serving both protocols on one
// URL. A request whose Mcp-Protocol-Version is StatelessProtocolVersion or
// newer is served in stateless mode: its scope is read from each request
// (ScopeFromRequest; a malformed one is 400), and an unknown newer version
// gets the SDK's UnsupportedProtocolVersion error with the supported
// list. Any other request is session mode's: the request that opens a
// session (the initialize POST) sets its scope, and a new session past
// MaxSessions is 503. With AuthToken set, a missing or wrong bearer token
// is 401 in both.
func (s *Server) Handler() http.Handler {
	sdk := mcp.NewStreamableHTTPHandler(s.serverFor, &mcp.StreamableHTTPOptions{
		SessionTimeout: s.cfg.SessionTimeout,
		Logger:         s.sdkLog,
	})
	modern := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.modern.mcp }, &mcp.StreamableHTTPOptions{
		Stateless: true,
		Logger:    s.sdkLog,
		// A client that goes away cancels its search or forwarded call.
		PropagateRequestCancellation: true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who, ok := s.authorize(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
			http.Error(w, "missing or invalid bearer token: send \"Authorization: Bearer TOKEN\" with the token of the sidecar's --auth-token-file (or one of --mcp-token-scopes)", http.StatusUnauthorized)
			return
		}
		if who.scope != nil && hasScopeParams(r) {
			http.Error(w, "this bearer token's scope is set by the sidecar (--mcp-token-scopes): send no "+HeaderVisibleTools+" or "+
				HeaderAlwaysLoaded+" headers (nor visible_tools or always_loaded query parameters)", http.StatusBadRequest)
			return
		}
		if isStateless(r) {
			if _, err := ScopeFromRequest(r); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if who.scope != nil {
				// The stateless server reads a request's scope from its
				// headers: the token's scope goes there.
				r = r.Clone(r.Context())
				if len(who.scope.Visible) > 0 {
					r.Header.Set(HeaderVisibleTools, strings.Join(who.scope.Visible, ","))
				}
				if len(who.scope.AlwaysLoaded) > 0 {
					r.Header.Set(HeaderAlwaysLoaded, strings.Join(who.scope.AlwaysLoaded, ","))
				}
			}
			// The stateless server reads the scope from the request's
			// headers, the only part of it the SDK passes on: the
			// query's scope parameters join them (the two add up).
			if q := r.URL.Query(); len(q[QueryVisibleTools]) > 0 || len(q[QueryAlwaysLoaded]) > 0 {
				r = r.Clone(r.Context())
				for _, v := range q[QueryVisibleTools] {
					r.Header.Add(HeaderVisibleTools, v)
				}
				for _, v := range q[QueryAlwaysLoaded] {
					r.Header.Add(HeaderAlwaysLoaded, v)
				}
			}
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(s.closing, cancel)()
			modern.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		if id := r.Header.Get("Mcp-Session-Id"); id != "" && len(s.scoped) > 0 {
			s.mu.Lock()
			owner, known := s.owners[id]
			s.mu.Unlock()
			if known && owner != who.digest {
				http.Error(w, "this MCP session was opened with another bearer token", http.StatusForbidden)
				return
			}
		}
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			sc, err := ScopeFromRequest(r)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if who.scope != nil {
				sc = *who.scope
			}
			if err := s.admit(); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), slotKey{}, &slot{scope: sc, owner: who.digest}))
		}
		sdk.ServeHTTP(w, r)
	})
}

// slot carries a new session's scope, and its go-sdk server once made,
// through one HTTP request: the SDK asks for the server more than once per
// request, and must get the same one.
type slot struct {
	scope Scope
	owner [sha256.Size]byte // the digest of the request's bearer token
	srv   *mcp.Server
}

type slotKey struct{}

// serverFor is the go-sdk handler's getServer: a new session's server for
// a request that opens one, the base server otherwise.
func (s *Server) serverFor(r *http.Request) *mcp.Server {
	sl, ok := r.Context().Value(slotKey{}).(*slot)
	if !ok {
		return s.base
	}
	if sl.srv == nil {
		sess, err := s.newSession(sl.scope, s.versions)
		if err != nil {
			s.log.Error("mcp: opening a session", "error", err.Error())
			return nil
		}
		sess.owner = sl.owner
		sl.srv = sess.mcp
	}
	return sl.srv
}

// sessionIDPrefix starts every MCP session id, which is also the engine
// session id of its revealed tools: "mcp-" and 32 hex digits, so a gRPC
// GetToolset with the same id shows the same tools.
const sessionIDPrefix = "mcp-"

// newSession makes a session's go-sdk server. conn's fields replace the
// default scope's where set.
func (s *Server) newSession(conn Scope, versions []string) (*session, error) {
	sc := s.scopeWith(conn)
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	sess := &session{srv: s, id: sessionIDPrefix + hex.EncodeToString(b[:]), scope: sc, vis: newVisibility(sc.Visible)}
	instructions := ""
	if l, err := sess.build(); err == nil {
		instructions = l.prompt
	}
	sess.mcp = mcp.NewServer(s.implementation(), &mcp.ServerOptions{
		Instructions:              instructions,
		Logger:                    s.sdkLog,
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		GetSessionID:              func() string { return sess.id },
		SupportedProtocolVersions: versions,
	})
	sess.mcp.AddReceivingMiddleware(sess.middleware)
	return sess, nil
}

// scopeWith is the default scope with the fields conn sets replacing it.
func (s *Server) scopeWith(conn Scope) Scope {
	sc := s.cfg.Scope
	if len(conn.Visible) > 0 {
		sc.Visible = conn.Visible
	}
	if len(conn.AlwaysLoaded) > 0 {
		sc.AlwaysLoaded = conn.AlwaysLoaded
	}
	return sc
}

// Close stops the catalog watcher, closes every HTTP session (their
// streams end; clients must reconnect) and cancels the stateless requests
// in flight (subscriptions/listen streams end). Call it before the HTTP
// server's Shutdown, which would otherwise wait on those streams; Run's
// sessions end with their transport or context. Close is idempotent;
// every Server must be closed.
func (s *Server) Close() {
	s.stopOnce.Do(func() { close(s.stop); s.stopClosing() })
	<-s.watched
	s.mu.Lock()
	open := make([]*mcp.ServerSession, 0, len(s.open))
	for _, ss := range s.open {
		if ss != nil {
			open = append(open, ss)
		}
	}
	s.mu.Unlock()
	for _, ss := range open {
		_ = ss.Close()
	}
}

// track counts an HTTP session from its initialize request on (whether or
// not the client ever sends notifications/initialized), so that MaxSessions
// bounds every session the SDK holds, and forgets it when it closes.
func (s *Server) track(sess *session, ss *mcp.ServerSession) {
	if ss == nil || sess.stdio || !sess.started.CompareAndSwap(false, true) {
		return
	}
	s.live.Add(1)
	s.mu.Lock()
	s.open[sess] = ss
	if len(s.scoped) > 0 {
		s.owners[sess.id] = sess.owner
	}
	s.mu.Unlock()
	s.log.Debug("mcp: session started", "session", sess.id, "visible", len(sess.scope.Visible), "always_loaded", len(sess.scope.AlwaysLoaded))
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.open, sess)
		delete(s.owners, sess.id)
		s.mu.Unlock()
		s.live.Add(-1)
		s.endSession(sess)
	}()
}

// endSession forgets a closed session's revealed tools.
func (s *Server) endSession(sess *session) {
	if _, err := s.cfg.Engine.ResetSession(sess.id); err != nil {
		s.log.Debug("mcp: resetting a session", "session", sess.id, "error", err.Error())
	}
	s.log.Debug("mcp: session ended", "session", sess.id)
}

// quietHandler passes on the records of slog.LevelWarn and above.
type quietHandler struct{ slog.Handler }

func (h quietHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}

func (h quietHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return quietHandler{h.Handler.WithAttrs(a)}
}

func (h quietHandler) WithGroup(name string) slog.Handler {
	return quietHandler{h.Handler.WithGroup(name)}
}
