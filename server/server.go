package server

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
)

// ServiceName is the full name of the search service, also the name its
// health status is registered under.
const ServiceName = "toolsearch.v1.ToolSearchService"

// Config configures a Server. The zero value is valid.
type Config struct {
	// Log receives request logs and internal errors; nil means slog.Default().
	Log *slog.Logger
	// ServerOptions are extra grpc.ServerOptions (limits, credentials).
	ServerOptions []grpc.ServerOption
	// Metrics, when not nil, records request, search and catalog metrics.
	Metrics *Metrics
	// AuthToken, when not empty, is the bearer token every call but health
	// Check must carry ("authorization: Bearer <token>"); others get
	// UNAUTHENTICATED.
	AuthToken string
	// DefaultDeadline is the deadline of a unary call whose client set none;
	// 0 means none.
	DefaultDeadline time.Duration
	// MaxMessageSize is the largest answer sent and request received, in
	// bytes: a larger one is RESOURCE_EXHAUSTED naming --max-message-size
	// and the smaller request to make, and GetTools pages fit under it. 0
	// means DefaultMaxMessageSize. It should equal the grpc.MaxSendMsgSize
	// of ServerOptions, which stays the last resort for answers; New sets
	// grpc.MaxRecvMsgSize, the last resort for requests, to twice the limit
	// (at most 64 MiB more), past which grpc-go refuses with its own words.
	MaxMessageSize int
	// QueryLog says how much of a search query the request log shows; the
	// zero value is QueryLogPrefix.
	QueryLog QueryLogMode
	// Toolset are GetToolset's defaults, which a request's own options
	// override (the sidecar's --deferral-threshold, --deferral-mode,
	// --system-prompt-file and server descriptions). The zero value
	// changes nothing.
	Toolset toolset.Defaults
	// TLS, when not nil, makes Serve accept TLS only, for gRPC and JSON over
	// HTTP alike (it must not also be in ServerOptions as grpc.Creds); its
	// NextProtos are replaced with "http/1.1" and "h2" (listen.go).
	TLS *tls.Config
}

// Server is the gRPC server of the sidecar: the search service, the
// standard health service and server reflection, with the recover and
// logging interceptors; the same port serves the unary methods as JSON
// over HTTP (connect.go, listen.go). It starts NOT_SERVING; Ready makes it
// SERVING. It is safe for concurrent use.
type Server struct {
	grpc    *grpc.Server
	http    *http.Server
	health  *health.Server
	service *Service
	log     *slog.Logger
	metrics *Metrics
	tls     *tls.Config
	// unary is the interceptor chain of unary calls, gRPC and JSON alike.
	unary grpc.UnaryServerInterceptor
	// limit is the message limit in bytes.
	limit    int
	stopping atomic.Bool
	// stop is cancelled by Shutdown: Serve's listener closes.
	stop       context.Context
	cancelStop context.CancelFunc
}

// New builds a server. Call Ready once the engine can answer, Serve to
// accept connections, and Shutdown to stop.
func New(cfg Config) *Server {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	limit := cfg.MaxMessageSize
	if limit <= 0 {
		limit = DefaultMaxMessageSize
	}
	// Order: recover outermost; the trace context is in the context of
	// every log line after it; metrics and logging see every outcome,
	// UNAUTHENTICATED included; the deadline applies to the handler alone.
	// A request the codec could not decode is refused after authentication
	// (an unauthenticated caller learns nothing about its request), and the
	// size limit applies to the handler's answer.
	unary := []grpc.UnaryServerInterceptor{RecoverInterceptor(log), TraceInterceptor(), MetricsUnaryInterceptor(cfg.Metrics), LoggingInterceptor(log, cfg.QueryLog)}
	stream := []grpc.StreamServerInterceptor{MetricsStreamInterceptor(cfg.Metrics)}
	if cfg.AuthToken != "" {
		unary = append(unary, AuthUnaryInterceptor(cfg.AuthToken))
		stream = append(stream, AuthStreamInterceptor(cfg.AuthToken))
	}
	unary = append(unary, DecodeUnaryInterceptor(), SizeLimitInterceptor(limit), DeadlineInterceptor(cfg.DefaultDeadline))
	stream = append(stream, DecodeStreamInterceptor(), HealthWatchInterceptor(MaxHealthWatches))
	opts := append([]grpc.ServerOption{
		grpc.ForceServerCodecV2(newCodec(limit)),
		grpc.MaxRecvMsgSize(receiveLimit(limit)),
		grpc.ChainUnaryInterceptor(unary...),
		grpc.ChainStreamInterceptor(stream...),
	}, cfg.ServerOptions...)
	svc := NewService(log)
	svc.metrics = cfg.Metrics
	svc.maxMessageSize = limit
	svc.toolsetDefaults = cfg.Toolset
	s := &Server{
		grpc:    grpc.NewServer(opts...),
		health:  health.NewServer(),
		service: svc,
		log:     log,
		metrics: cfg.Metrics,
		tls:     cfg.TLS,
		unary:   chainUnary(unary),
		limit:   limit,
	}
	s.stop, s.cancelStop = context.WithCancel(context.Background())
	s.http = &http.Server{
		Handler:           s.connectHandler(),
		ReadHeaderTimeout: sniffTimeout,
		IdleTimeout:       httpIdleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	toolsearchv1.RegisterToolSearchServiceServer(s.grpc, s.service)
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	s.setStatus(healthpb.HealthCheckResponse_NOT_SERVING)
	return s
}

func (s *Server) setStatus(st healthpb.HealthCheckResponse_ServingStatus) {
	s.health.SetServingStatus("", st)
	s.health.SetServingStatus(ServiceName, st)
}

// Ready installs the engine and reports SERVING.
func (s *Server) Ready(e *search.Engine) {
	s.Answer(e)
	s.setStatus(healthpb.HealthCheckResponse_SERVING)
}

// Answer installs the engine without reporting SERVING: calls are answered
// (searches lexically while the semantic index builds), but health and
// /readyz keep saying NOT_SERVING until Ready. For a sidecar whose
// readiness waits for the semantic index (--ready-when semantic).
func (s *Server) Answer(e *search.Engine) {
	s.service.SetEngine(e)
	s.metrics.setEngine(e)
}

// httpIdleTimeout is how long an idle HTTP/1.1 keep-alive connection of a
// JSON caller stays open: long enough for an agent's turns to reuse it.
const httpIdleTimeout = 2 * time.Minute

// chainUnary chains interceptors, the first outermost, as
// grpc.ChainUnaryInterceptor does.
func chainUnary(chain []grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		next := handler
		for i := len(chain) - 1; i >= 0; i-- {
			ic, inner := chain[i], next
			next = func(ctx context.Context, req any) (any, error) { return ic(ctx, req, info, inner) }
		}
		return next(ctx, req)
	}
}

// Serve accepts connections on lis until Shutdown, gRPC and JSON over HTTP
// on the one port (with Config.TLS, over TLS); it returns nil after a
// shutdown. Call it once.
func (s *Server) Serve(lis net.Listener) error {
	m := newPortMux(lis, s.tls, s.log)
	defer s.stopAfter(m)()
	served := make(chan error, 2)
	go func() { served <- s.grpc.Serve(m.grpc) }()
	go func() { served <- s.http.Serve(m.http) }()
	err := m.serve()
	m.close()
	if !s.stopping.Load() {
		// The listener failed: stop both servers hard.
		s.grpc.Stop()
		s.http.Close()
	}
	// After a Shutdown, both return once it has drained them.
	for range 2 {
		if e := <-served; e != nil && e != grpc.ErrServerStopped && e != http.ErrServerClosed && !errors.Is(e, net.ErrClosed) {
			err = e
		}
	}
	if s.stopping.Load() {
		return nil
	}
	return err
}

// stopAfter closes m once Shutdown begins; the returned function stops
// waiting.
func (s *Server) stopAfter(m *portMux) func() {
	stop := context.AfterFunc(s.stop, m.close)
	return func() { stop() }
}

// Shutdown reports NOT_SERVING, then stops gracefully: it stops accepting
// connections and waits for calls in flight, gRPC and JSON, until ctx is
// done, when it stops hard (in-flight calls are cancelled). It reports
// whether the stop was graceful.
func (s *Server) Shutdown(ctx context.Context) bool {
	s.stopping.Store(true)
	s.health.Shutdown()
	s.cancelStop()
	grpcDone := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(grpcDone)
	}()
	httpErr := s.http.Shutdown(ctx)
	select {
	case <-grpcDone:
		if httpErr == nil {
			return true
		}
	case <-ctx.Done():
	}
	s.log.Warn("graceful stop timed out; stopping hard")
	s.grpc.Stop()
	s.http.Close()
	<-grpcDone
	return false
}

// DefaultShutdownTimeout is how long Shutdown waits for calls in flight by
// default (the sidecar's --shutdown-timeout): searches take milliseconds, so
// 10 s drains any real workload while staying well inside Kubernetes'
// default 30 s termination grace period.
const DefaultShutdownTimeout = 10 * time.Second
