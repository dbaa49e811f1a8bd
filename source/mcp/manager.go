package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
)

// Timing knobs. The exported defaults are the sidecar's flag defaults.
const (
	// DefaultListTimeout bounds one server's connect, initialize and
	// complete tools/list (every page), and so how long a slow or dead
	// server can hold up the sidecar's readiness: WaitStartup returns at
	// most this long (plus the time to apply the tools) after Start. 15 s
	// covers npx starting a Node server on a cold cache (≈1-3 s here) many
	// times over.
	DefaultListTimeout = 15 * time.Second
	// DefaultGracePeriod is how long a gone server's tools stay searchable
	// before they are removed: long enough to ride out a crash-and-restart
	// or a rolling update of an HTTP server, short enough that an agent
	// does not keep finding tools it cannot call for long.
	DefaultGracePeriod = 2 * time.Minute
	// DefaultKeepAlive is the interval of MCP pings on an idle connection,
	// which find an HTTP server that went away without closing the stream
	// (a stdio server's exit is seen at once, as end of its output).
	DefaultKeepAlive = 15 * time.Second
	// backoffMin and backoffMax bound the wait between reconnection
	// attempts: 0.5 s, 1 s, 2 s … 30 s; it starts over after a
	// successful listing.
	backoffMin = 500 * time.Millisecond
	backoffMax = 30 * time.Second
	// restartBurst starts per restartWindow bound how often a server is
	// (re)started, whatever the backoff says: a stdio server that crashes
	// right after each successful listing is started at most 5 times a
	// minute.
	restartBurst  = 5
	restartWindow = time.Minute
	// missingTries is how many times in a row a stdio server's executable
	// may be missing before the server is given up (StateFailed): a typo
	// in its command is not fixed by waiting, and an executable still
	// being installed has the ~1.5 s these tries take.
	missingTries = 3
	// stopTimeout is how long a stdio server has to exit after its stdin
	// is closed, before SIGTERM (and, as long again later, SIGKILL of its
	// process group).
	stopTimeout = 3 * time.Second
	// relistDelay gathers a burst of list_changed notifications (a server
	// registering several tools sends one each) into one re-list.
	relistDelay = 20 * time.Millisecond
	// maxPages bounds the pages of one tools/list, against a server whose
	// cursor never ends: 1,000 pages of a typical 50-1,000 tools.
	maxPages = 1000
)

// Catalog is what the manager changes: the search engine, through a small
// adapter in cmd/sidecar. Its methods must be safe for concurrent use.
type Catalog interface {
	// Snapshot returns the current catalog.
	Snapshot() *catalog.Snapshot
	// Apply upserts and deletes tools as one atomic change and returns the
	// new catalog version.
	Apply(ctx context.Context, upsert []catalog.Tool, del []string) (version uint64, err error)
}

// Config configures a Manager.
type Config struct {
	// Servers are the MCP servers to read, each with a distinct Name.
	Servers []ServerConfig
	// Catalog receives the servers' tools. Required.
	Catalog Catalog
	// Log receives every state change; nil means slog.Default().
	Log *slog.Logger
	// Observer receives measurements for metrics; nil records nothing.
	Observer Observer
	// ListTimeout bounds one connect and listing; 0 means DefaultListTimeout.
	ListTimeout time.Duration
	// GracePeriod is how long a gone server's tools stay in the catalog;
	// 0 means DefaultGracePeriod, negative removes them at once.
	GracePeriod time.Duration
	// KeepAlive is the ping interval; 0 means DefaultKeepAlive, negative
	// disables pings.
	KeepAlive time.Duration
	// Version is the client version sent to servers; "" means "dev".
	Version string
}

// Manager keeps the catalog true to a set of MCP servers. It is safe for
// concurrent use: CallTool, Serves and Status may be called from any
// goroutine while the servers' goroutines change the catalog. Start it
// once; Close stops every server (no child process outlives it).
type Manager struct {
	cfg     Config
	log     *slog.Logger
	obs     Observer
	servers map[string]*server // immutable after New
	order   []*server

	progress  sync.Map // progress token (string) → func(*mcp.ProgressNotificationParams)
	nextToken atomic.Uint64

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// New checks cfg and returns a manager; nothing starts until Start.
func New(cfg Config) (*Manager, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("mcp: Config.Catalog is nil")
	}
	if cfg.ListTimeout <= 0 {
		cfg.ListTimeout = DefaultListTimeout
	}
	if cfg.GracePeriod == 0 {
		cfg.GracePeriod = DefaultGracePeriod
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = DefaultKeepAlive
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	m := &Manager{cfg: cfg, log: cfg.Log, obs: cfg.Observer, servers: map[string]*server{}}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.obs == nil {
		m.obs = nopObserver{}
	}
	if err := CheckNames(cfg.Servers); err != nil {
		return nil, err
	}
	for _, sc := range cfg.Servers {
		if err := sc.Validate(); err != nil {
			return nil, err
		}
		s := newServer(m, sc)
		m.servers[sc.Name] = s
		m.order = append(m.order, s)
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m, nil
}

// Start connects to every server concurrently, each in its own goroutine,
// and returns at once. Calling it again does nothing.
func (m *Manager) Start() {
	m.once.Do(func() {
		for _, s := range m.order {
			m.wg.Add(1)
			go func() {
				defer m.wg.Done()
				s.run(m.ctx)
			}()
		}
	})
}

// WaitStartup blocks until every server has answered its first listing or
// failed it (each bounded by Config.ListTimeout), or ctx is done. A server
// that failed keeps retrying in the background; its tools arrive when it
// answers.
func (m *Manager) WaitStartup(ctx context.Context) error {
	for _, s := range m.order {
		select {
		case <-s.firstDone:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Close stops every server: sessions are closed, child processes are
// stopped (stdin closed, then SIGTERM, then SIGKILL of their process group)
// and waited for. Their tools stay in the catalog. Close is idempotent.
func (m *Manager) Close() error {
	m.once.Do(func() {}) // a manager never started stays so
	m.cancel()
	m.wg.Wait()
	return nil
}

// Status returns every server's status, in configuration order.
func (m *Manager) Status() []ServerStatus {
	out := make([]ServerStatus, len(m.order))
	for i, s := range m.order {
		out[i] = s.status()
	}
	return out
}

// Descriptions returns the description each connected server gave (its
// initialize instructions, else its title), by namespace; servers that
// gave none are absent. Safe for concurrent use.
func (m *Manager) Descriptions() map[string]string {
	out := map[string]string{}
	for _, st := range m.Status() {
		if st.Description != "" {
			out[st.Name] = st.Description
		}
	}
	return out
}

// ServeHTTP answers with the servers' status as JSON:
// {"mcp_servers":[{"name":...,"state":"up",...}]}. Mount it on the
// sidecar's HTTP listener (GET /statusz).
func (m *Manager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(struct {
		Servers []ServerStatus `json:"mcp_servers"`
	}{m.Status()})
}

// handleProgress routes a progress notification to the CallTool that
// asked for it.
func (m *Manager) handleProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	if f, ok := m.progress.Load(fmt.Sprint(req.Params.ProgressToken)); ok {
		f.(func(*mcp.ProgressNotificationParams))(req.Params)
	}
}
