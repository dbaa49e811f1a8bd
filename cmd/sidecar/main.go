// Command sidecar runs toolsearch: it loads tool catalogs, builds the search
// indexes, and answers tool searches over gRPC on a loopback address, with
// the standard health service (SERVING once the catalog is searchable) and
// server reflection. SIGTERM or SIGINT stops it gracefully.
//
//	go run ./cmd/sidecar --catalog examples/catalog.json
//
// Run with --help for every flag and its TOOLSEARCH_* environment variable.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	mcp "github.com/toolsearch/toolsearch/source/mcp"
	"github.com/toolsearch/toolsearch/toolset"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stderr, hooks{}))
}

// run starts the sidecar and blocks until ctx is done (a signal) or serving
// fails. It returns the exit code. h is production's zero value, or what a
// test observes and steers.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, h hooks) int {
	cfg, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errVersion) {
		fmt.Fprintf(stderr, "sidecar %s\n", version)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "sidecar: %v\n", err)
		return 2
	}
	log := newLogger(cfg, stderr)
	if cfg.stopWithParent {
		if err := stopWithParent(); err != nil {
			log.Warn("--stop-with-parent is not available here; stop the sidecar with SIGTERM or Ctrl-C", "error", err.Error())
		}
	}
	if err := serve(ctx, cfg, log, h); err != nil {
		log.Error("sidecar stopped", "error", err.Error())
		fmt.Fprintf(stderr, "sidecar: %v\n", err)
		return 1
	}
	return 0
}

// newLogger writes to w in the configured format and level, with repeated
// warnings rate-limited (logging.go), and the trace_id and parent_id of a
// call's W3C trace context in its log lines.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.logLevel}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if cfg.logFormat == "text" {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(tracecontext.LogHandler(newRateLimited(h, logRepeatWindow, logRepeatBurst)))
}

// errStopped ends a start-up that a signal interrupted: the sidecar exits
// cleanly (code 0), as from a signal while serving.
var errStopped = errors.New("stopped during start-up")

// serve starts the sidecar's parts in order (sidecar.steps), serves until
// ctx's end (a signal), serving failing or the MCP stdio session ending,
// then stops the parts in reverse: readiness drops and the calls in flight
// drain within the shutdown timeout first, the listeners close last.
func serve(ctx context.Context, cfg config, log *slog.Logger, h hooks) error {
	s := &sidecar{cfg: cfg, log: log, hooks: h}
	lc := &lifecycle{log: log}
	defer lc.stop()
	if err := lc.start(ctx, s.steps()); err != nil {
		if errors.Is(err, errStopped) {
			log.Info("stopped during start-up", "reason", err.Error())
			return nil
		}
		return err
	}
	select {
	case <-s.served:
		return s.serveErr
	case <-ctx.Done():
	case err := <-s.ep.stdioEnded():
		log.Info("the MCP stdio session ended", "error", fmt.Sprint(err))
	}
	log.Info("shutting down", "timeout", cfg.shutdownTimeout.String())
	return nil
}

// sidecar is what the start-up steps bring up, each step using what the
// ones before it set. The steps run one after another (lifecycle.run);
// nothing else uses it.
type sidecar struct {
	cfg   config
	log   *slog.Logger
	hooks hooks

	token   string
	metrics *server.Metrics // nil without --metrics-listen
	srv     *server.Server
	addr    net.Addr
	// served is closed when srv.Serve returned, with serveErr.
	served   chan struct{}
	serveErr error
	// drain stops srv gracefully within the shutdown timeout, once.
	drain  func()
	status *mcpStatus
	fleet  *fleetStore // nil without --store
	em     *embedders
	limit  memoryLimit
	// goSoft is the Go runtime's soft limit the sidecar set
	// (setGoMemoryLimit), 0 when it set none.
	goSoft int64
	budget int64
	// sessionBudget is the MCP endpoint's HTTP sessions' share of the
	// memory budget (mcpSessionBudget).
	sessionBudget int64
	learn         search.LearnConfig
	// learnDamaged: the learned-state file held bad lines (rewritten at
	// once).
	learnDamaged bool
	// engineStart is when the engine's load began, for the index build
	// time metric.
	engineStart time.Time
	engine      *search.Engine
	manager     *mcp.Manager // nil without --mcp servers
	ep          *mcpEndpoint // nil without --mcp-listen or --mcp-stdio
}

// steps is the start-up, in order; each stops in reverse.
func (s *sidecar) steps() []step {
	return []step{
		{"grpc listener", s.listen},
		{"metrics listener", s.serveMetrics},
		{"shared store", s.openStore},
		{"embedders", s.embedders},
		{"memory limit", s.memoryLimit},
		{"learned state", s.loadLearned},
		{"engine", s.loadEngine},
		{"learning", s.startLearning},
		{"fleet", s.followFleet},
		{"mcp servers", s.startMCP},
		{"lexical answers", s.answerLexically},
		{"mcp endpoint", s.startMCPEndpoint},
		{"readiness", s.ready},
		{"index build metric", s.measureIndexBuild},
	}
}

// listen opens the gRPC port (health says NOT_SERVING until readiness).
func (s *sidecar) listen(context.Context) (func(), error) {
	cfg, log := s.cfg, s.log
	opts := append(grpcOptions(cfg), s.hooks.serverOptions...)
	tc, err := tlsConfig(cfg)
	if err != nil {
		return nil, err
	}
	if s.token, err = readToken(cfg.authTokenFile); err != nil {
		return nil, err
	}
	if cfg.metricsListen != "" {
		s.metrics = server.NewMetrics(version)
		for name, v := range map[string]int{
			"max_tools": cfg.maxTools, "max_query_length": cfg.maxQueryLength, "max_results_cap": cfg.maxResultsCap,
			"max_message_size_bytes": cfg.maxMessageSize, "max_concurrent_streams": cfg.maxConcurrentStreams,
		} {
			s.metrics.SetLimit(name, float64(v))
		}
	}
	lis, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (is another sidecar running? pick another port with --listen)", cfg.listen, err)
	}
	s.addr = lis.Addr()
	s.srv = server.New(server.Config{
		Log:             log,
		ServerOptions:   opts,
		Metrics:         s.metrics,
		AuthToken:       s.token,
		DefaultDeadline: cfg.requestTimeout,
		QueryLog:        cfg.queryLog,
		MaxMessageSize:  cfg.maxMessageSize,
		TLS:             tc,
		Toolset:         s.toolsetDefaults(),
	})
	s.served = make(chan struct{})
	go func() {
		defer close(s.served)
		s.serveErr = s.srv.Serve(lis)
	}()
	s.drain = sync.OnceFunc(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
		defer cancel()
		graceful := s.srv.Shutdown(ctx)
		<-s.served
		log.Info("stopped", "graceful", graceful)
	})
	log.Info("listening", "addr", s.addr.String(), "version", version, "tls", cfg.tlsCert != "",
		"mutual_tls", cfg.tlsClientCA != "", "auth_token", s.token != "", "health", "NOT_SERVING until the catalog is loaded")
	if s.token != "" && len(s.token) < minTokenLength {
		log.Warn("the bearer token of --auth-token-file is short enough to guess; use a random token of at least 16 characters, e.g. openssl rand -hex 32",
			"length", len(s.token), "min_length", minTokenLength)
	}
	if !isLoopback(cfg.listen) && cfg.tlsCert == "" && s.token == "" {
		log.Warn("listening beyond loopback in plaintext with no --auth-token-file: anything that reaches this address can search and change the catalog",
			"addr", s.addr.String())
	}
	return s.drain, nil
}

// serveMetrics starts the metrics and probes listener (--metrics-listen).
func (s *sidecar) serveMetrics(context.Context) (func(), error) {
	if s.status == nil {
		s.status = &mcpStatus{}
	}
	return serveHTTP(s.cfg, s.srv, s.status, s.log)
}

// openStore opens the shared store (--store), which connects in the
// background; its stop flushes what is buffered and disconnects.
func (s *sidecar) openStore(context.Context) (func(), error) {
	f, err := openStore(s.cfg, s.log)
	if err != nil || f == nil {
		return nil, err
	}
	s.fleet = f
	f.register(s.metrics)
	s.status.store.Store(f)
	return f.close, nil
}

// followFleet applies the fleet's catalog changes and learning to the
// engine from now on (--store).
func (s *sidecar) followFleet(context.Context) (func(), error) {
	if s.fleet != nil {
		s.fleet.start(s.engine)
	}
	return nil, nil
}

// embedders sets up the embedder's maker; its stop closes the embedding
// cache.
func (s *sidecar) embedders(context.Context) (func(), error) {
	s.em = &embedders{cfg: s.cfg, log: s.log, metrics: s.metrics, shared: s.fleet.cache(), wrap: s.hooks.wrapEmbedder}
	return func() {
		if err := s.em.close(); err != nil {
			s.log.Error("closing the embedding cache", "error", err.Error())
		}
	}, nil
}

// memoryLimit resolves --memory-limit into the engine's budget and sets the
// Go runtime's soft limit; its stop restores the runtime's.
func (s *sidecar) memoryLimit(context.Context) (func(), error) {
	readFile := s.hooks.readFile
	if readFile == nil {
		readFile = os.ReadFile
	}
	limit, err := resolveMemoryLimit(s.cfg.memoryLimit, s.cfg.gomemlimit, readFile)
	if err != nil {
		return nil, err
	}
	if s.budget, err = memoryBudget(limit); err != nil {
		return nil, err
	}
	if s.cfg.mcpListen != "" {
		// The MCP endpoint's sessions are paid out of the budget too.
		s.sessionBudget = mcpSessionBudget(s.budget, s.cfg.maxSessions)
		s.budget -= s.sessionBudget
	}
	var restore func()
	s.goSoft, restore = setGoMemoryLimit(limit, s.cfg.gomemlimit, readFile)
	s.limit = limit
	s.em.budget = s.budget
	s.metrics.SetLimit("memory_limit_bytes", float64(limit.bytes))
	s.metrics.SetLimit("memory_budget_bytes", float64(s.budget))
	return restore, nil
}

// loadLearned loads the learned state (--learn): the file in --cache-dir,
// then a bounded pull of --learn-from.
func (s *sidecar) loadLearned(ctx context.Context) (func(), error) {
	s.learn, s.learnDamaged = learnConfig(ctx, s.cfg, s.log, s.metrics, s.hooks.startPullTimeout)
	return nil, nil
}

// loadEngine loads the catalog and builds the engine (embedding goes on in
// the background).
func (s *sidecar) loadEngine(ctx context.Context) (func(), error) {
	s.engineStart = time.Now()
	engine, checked, err := loadEngine(ctx, s.cfg, s.log, s.em, s.budget, s.learn, s.fleet.fleet())
	if err != nil {
		return nil, err
	}
	s.engine = engine
	logMemory(s.log, s.limit, s.goSoft, engine.Memory())
	// The stop waits for the background provider check too, so that no
	// goroutine outlives the sidecar (it takes under a second at 2k tools).
	return func() { _ = engine.Close(); <-checked }, nil
}

// startLearning saves learned state and pulls --learn-from in the
// background; its stop saves a last time.
func (s *sidecar) startLearning(ctx context.Context) (func(), error) {
	return startLearning(ctx, s.cfg, s.engine, s.log, s.metrics, s.learnDamaged), nil
}

// startMCP starts the live MCP servers (--mcp); its stop stops them, so no
// child outlives the sidecar.
func (s *sidecar) startMCP(ctx context.Context) (func(), error) {
	m, err := startMCP(ctx, s.cfg, s.log, s.engine, s.metrics)
	if err != nil || m == nil {
		return nil, err
	}
	s.manager = m
	s.status.m.Store(m)
	return func() {
		m.Close()
		s.log.Info("mcp servers stopped")
	}, nil
}

// answerLexically, with --ready-when semantic, answers searches lexically
// while health says NOT_SERVING until the semantic index is ready. A
// signal meanwhile ends the start-up cleanly.
func (s *sidecar) answerLexically(ctx context.Context) (func(), error) {
	if s.cfg.readyWhen != readySemantic {
		return nil, nil
	}
	s.srv.Answer(s.engine)
	s.log.Info("answering lexically; health says SERVING once the semantic index is ready (--ready-when semantic)")
	if err := s.engine.WaitIndexed(ctx); err != nil {
		return s.drain, errStopped
	}
	return s.drain, nil
}

// toolsetDefaults are the tool lists' defaults: the flags, and the live
// MCP servers' descriptions.
func (s *sidecar) toolsetDefaults() toolset.Defaults {
	if s.status == nil { // the first start-up step calls it, before serveMetrics
		s.status = &mcpStatus{}
	}
	d := s.cfg.toolset
	d.Describe = s.status.descriptions
	return d
}

// startMCPEndpoint serves the MCP endpoint (--mcp-listen, --mcp-stdio),
// forwarding calls of live servers' tools to the manager.
func (s *sidecar) startMCPEndpoint(ctx context.Context) (func(), error) {
	// A nil manager must not become a non-nil Caller.
	var caller mcpserver.Caller
	if s.manager != nil {
		caller = s.manager
	}
	ep, err := startMCPEndpoint(ctx, s.cfg, s.engine, caller, s.token, s.log, s.metrics, s.sessionBudget, s.hooks.stdioTransport, s.toolsetDefaults())
	if err != nil || ep == nil {
		return nil, err
	}
	s.ep = ep
	if s.hooks.mcpReady != nil && ep.addr != nil {
		s.hooks.mcpReady <- ep.addr
	}
	return func() { ep.stop(s.cfg.shutdownTimeout) }, nil
}

// ready reports SERVING; its stop drops readiness and drains the calls in
// flight before anything else stops.
func (s *sidecar) ready(context.Context) (func(), error) {
	s.srv.Ready(s.engine)
	info := s.engine.Info()
	s.log.Info("serving", "addr", s.addr.String(), "tools", info.ToolCount, "servers", len(info.Servers), "catalog_version", info.CatalogVersion)
	if s.hooks.ready != nil {
		s.hooks.ready <- s.addr
	}
	return s.drain, nil
}

// measureIndexBuild records the start-up index build time in
// toolsearch_index_build_seconds once the catalog is embedded.
func (s *sidecar) measureIndexBuild(ctx context.Context) (func(), error) {
	wctx, cancel := context.WithCancel(ctx)
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		if s.cfg.embedder != "none" && s.engine.WaitIndexed(wctx) == nil {
			s.metrics.SetIndexBuild(time.Since(s.engineStart))
		}
	}()
	return func() { cancel(); <-indexed }, nil
}

// serveHTTP starts the metrics and probes listener (--metrics-listen), if
// configured; the returned function stops it.
func serveHTTP(cfg config, srv *server.Server, status http.Handler, log *slog.Logger) (func(), error) {
	if cfg.metricsListen == "" {
		return func() {}, nil
	}
	lis, err := net.Listen("tcp", cfg.metricsListen)
	if err != nil {
		return nil, fmt.Errorf("metrics listener on %s: %w (pick another address with --metrics-listen, or disable it with --metrics-listen '')", cfg.metricsListen, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv.HTTPHandler())
	mux.Handle("GET /statusz", status)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "error", err.Error())
		}
	}()
	log.Info("metrics listening", "addr", lis.Addr().String(), "paths", "/metrics /healthz /readyz /statusz")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		<-done
	}, nil
}

// loadEngine loads every catalog file (readCatalogs: bounded in size and
// time) and builds the search engine; the catalog is embedded in the
// background. fleet is the shared store's side of the engine (nil: none).
//
// checked is closed when the background check of the catalog against the
// providers' rules (warnProviderProblems) has logged.
func loadEngine(ctx context.Context, cfg config, log *slog.Logger, em *embedders, budget int64, lc search.LearnConfig, fleet search.Fleet) (engine *search.Engine, checked <-chan struct{}, err error) {
	start := time.Now()
	sources := catalog.ParseSources(cfg.catalogs...)
	if len(sources) == 0 && len(cfg.mcpServers) == 0 {
		log.Warn("no --catalog given: starting with an empty catalog; add tools with UpsertTools")
	}
	data, err := readCatalogs(ctx, sources, budget, catalogReadTimeout)
	if err != nil {
		return nil, nil, fmt.Errorf("load catalog: %w", err)
	}
	parsed, err := catalog.LoadData(sources, data)
	clear(data) // the parsed tools hold what they need
	if err != nil {
		return nil, nil, fmt.Errorf("load catalog: %w", err)
	}
	snap, err := catalog.NewSnapshot(parsed)
	if err != nil {
		return nil, nil, fmt.Errorf("load catalog: %w", err)
	}
	if snap.Len() > cfg.maxTools {
		return nil, nil, fmt.Errorf("load catalog: %d tools, over the limit of %d; raise --max-tools (docs/operations.md has the memory it takes) or split the catalog", snap.Len(), cfg.maxTools)
	}
	ec := search.Config{
		MaxResultsCap:  cfg.maxResultsCap,
		MaxQueryLength: cfg.maxQueryLength,
		IndexDir:       cfg.cacheDir,
		HNSW:           cfg.hnsw,
		QueryTimeout:   cfg.queryTimeout,
		Sessions:       search.SessionConfig{MaxSessions: cfg.maxSessions, IdleTTL: cfg.sessionTTL},
		MaxTools:       cfg.maxTools,
		MemoryBudget:   budget,
		Log:            log,
		Learn:          lc,
		Fleet:          fleet,
		Keywords:       cfg.keywords,
	}
	if err := em.configure(&ec); err != nil {
		return nil, nil, err
	}
	engine, err = search.New(snap, ec)
	if errors.Is(err, search.ErrCatalogFull) {
		return nil, nil, fmt.Errorf("load catalog: %w", err)
	}
	if err != nil {
		return nil, nil, err
	}
	log.Info("catalog loaded", "files", len(sources), "tools", snap.Len(), "elapsed", time.Since(start).String())
	// Only a log line, and it costs seconds at 100k tools (every schema
	// normalized for every provider): off the readiness path. The tools are
	// copied in ID order (the start-up snapshot's IDs are in name order):
	// snap.Tools() would keep a name-ordered copy for the snapshot's life.
	tools := make([]catalog.Tool, 0, snap.Len())
	for _, t := range snap.All() {
		tools = append(tools, t)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		warnProviderProblems(log, tools)
	}()
	return engine, done, nil
}

// version is the sidecar's version, stamped at build time with
// -ldflags "-X main.version=…" (make build does it); "dev" otherwise.
var version = "dev"
