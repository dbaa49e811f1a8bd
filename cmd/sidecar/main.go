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
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"google.golang.org/grpc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stderr, nil))
}

// run starts the sidecar and blocks until ctx is done (a signal) or serving
// fails. It returns the exit code. When ready is not nil it receives the
// listening address once the catalog is searchable (tests use it).
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- net.Addr) int {
	cfg, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
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
	if err := serve(ctx, cfg, log, ready); err != nil {
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

// serve listens, loads the catalog, reports SERVING, and on ctx's end
// drains calls in flight within the shutdown timeout.
func serve(ctx context.Context, cfg config, log *slog.Logger, ready chan<- net.Addr) error {
	opts := append(grpcOptions(cfg), testServerOptions...)
	tc, err := tlsConfig(cfg)
	if err != nil {
		return err
	}
	token, err := readToken(cfg.authTokenFile)
	if err != nil {
		return err
	}
	var metrics *server.Metrics
	if cfg.metricsListen != "" {
		metrics = server.NewMetrics(version)
		for name, v := range map[string]int{
			"max_tools": cfg.maxTools, "max_query_length": cfg.maxQueryLength, "max_results_cap": cfg.maxResultsCap,
			"max_message_size_bytes": cfg.maxMessageSize, "max_concurrent_streams": cfg.maxConcurrentStreams,
		} {
			metrics.SetLimit(name, float64(v))
		}
	}
	lis, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another sidecar running? pick another port with --listen)", cfg.listen, err)
	}
	srv := server.New(server.Config{
		Log:             log,
		ServerOptions:   opts,
		Metrics:         metrics,
		AuthToken:       token,
		DefaultDeadline: cfg.requestTimeout,
		QueryLog:        cfg.queryLog,
		MaxMessageSize:  cfg.maxMessageSize,
		TLS:             tc,
	})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	log.Info("listening", "addr", lis.Addr().String(), "version", version, "tls", cfg.tlsCert != "",
		"mutual_tls", cfg.tlsClientCA != "", "auth_token", token != "", "health", "NOT_SERVING until the catalog is loaded")
	if token != "" && len(token) < minTokenLength {
		log.Warn("the bearer token of --auth-token-file is short enough to guess; use a random token of at least 16 characters, e.g. openssl rand -hex 32",
			"length", len(token), "min_length", minTokenLength)
	}
	if !isLoopback(cfg.listen) && cfg.tlsCert == "" && token == "" {
		log.Warn("listening beyond loopback in plaintext with no --auth-token-file: anything that reaches this address can search and change the catalog",
			"addr", lis.Addr().String())
	}
	status := &mcpStatus{}
	stopHTTP, err := serveHTTP(cfg, srv, status, log)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	defer stopHTTP()

	em := &embedders{cfg: cfg, log: log, metrics: metrics}
	defer func() {
		if err := em.close(); err != nil {
			log.Error("closing the embedding cache", "error", err.Error())
		}
	}()
	limit, err := resolveMemoryLimit(cfg.memoryLimit, cfg.gomemlimit, readFile)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	budget, err := memoryBudget(limit)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	defer setGoMemoryLimit(limit, cfg.gomemlimit)()
	metrics.SetLimit("memory_limit_bytes", float64(limit.bytes))
	metrics.SetLimit("memory_budget_bytes", float64(budget))
	engineStart := time.Now()
	engine, err := loadEngine(cfg, log, em, budget)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	defer engine.Close()
	defer startLearning(ctx, cfg, engine, log)()
	logMemory(log, limit, engine.Memory())
	manager, err := startMCP(ctx, cfg, log, engine, metrics)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	if manager != nil {
		// Deferred after engine.Close, so it runs first: the servers stop
		// (no child outlives the sidecar) before the engine closes.
		defer func() {
			manager.Close()
			log.Info("mcp servers stopped")
		}()
		status.m.Store(manager)
	}
	if cfg.readyWhen == readySemantic {
		srv.Answer(engine)
		log.Info("answering lexically; health says SERVING once the semantic index is ready (--ready-when semantic)")
		if err := engine.WaitIndexed(ctx); err != nil {
			srv.Shutdown(context.Background())
			<-served
			return nil // stopped (a signal) before the index was ready
		}
	}
	srv.Ready(engine)
	info := engine.Info()
	log.Info("serving", "addr", lis.Addr().String(), "tools", info.ToolCount, "servers", len(info.Servers), "catalog_version", info.CatalogVersion)
	if ready != nil {
		ready <- lis.Addr()
	}
	// The MCP endpoint forwards calls of live servers' tools to the
	// manager (a nil manager must not become a non-nil Caller). Its stop
	// is deferred after the manager's, so it runs first.
	var caller mcpserver.Caller
	if manager != nil {
		caller = manager
	}
	ep, err := startMCPEndpoint(ctx, cfg, engine, caller, token, log)
	if err != nil {
		srv.Shutdown(context.Background())
		<-served
		return err
	}
	defer ep.stop(cfg.shutdownTimeout)
	if mcpEndpointReady != nil && ep != nil && ep.addr != nil {
		mcpEndpointReady <- ep.addr
	}
	// The start-up index build time, for toolsearch_index_build_seconds.
	wctx, wcancel := context.WithCancel(ctx)
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		if cfg.embedder != "none" && engine.WaitIndexed(wctx) == nil {
			metrics.SetIndexBuild(time.Since(engineStart))
		}
	}()
	defer func() { wcancel(); <-indexed }()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	case err := <-ep.stdioEnded():
		log.Info("the MCP stdio session ended", "error", fmt.Sprint(err))
	}
	log.Info("shutting down", "timeout", cfg.shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
	defer cancel()
	graceful := srv.Shutdown(sctx)
	<-served
	log.Info("stopped", "graceful", graceful)
	return nil
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

// loadEngine loads every catalog file and builds the search engine; the
// catalog is embedded in the background.
func loadEngine(cfg config, log *slog.Logger, em *embedders, budget int64) (*search.Engine, error) {
	start := time.Now()
	sources := catalog.ParseSources(cfg.catalogs...)
	if len(sources) == 0 && len(cfg.mcpServers) == 0 {
		log.Warn("no --catalog given: starting with an empty catalog; add tools with UpsertTools")
	}
	snap, err := catalog.LoadSnapshot(sources...)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	if snap.Len() > cfg.maxTools {
		return nil, fmt.Errorf("load catalog: %d tools, over the limit of %d; raise --max-tools (docs/operations.md has the memory it takes) or split the catalog", snap.Len(), cfg.maxTools)
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
		Learn:          learnConfig(cfg, log),
	}
	if err := em.configure(&ec); err != nil {
		return nil, err
	}
	engine, err := search.New(snap, ec)
	if errors.Is(err, search.ErrCatalogFull) {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	if err != nil {
		return nil, err
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
	go warnProviderProblems(log, tools)
	return engine, nil
}

// mcpEndpointReady, when not nil, receives the MCP listener's address once it
// serves (tests set it).
var mcpEndpointReady chan<- net.Addr

// testServerOptions are added to the gRPC server's options; only tests set
// them (an interceptor that holds searches in flight, to test draining).
var testServerOptions []grpc.ServerOption

// version is the sidecar's version, stamped at build time with
// -ldflags "-X main.version=…" (make build does it); "dev" otherwise.
var version = "dev"
