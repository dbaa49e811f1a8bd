package server

import (
	"context"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
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
}

// Server is the gRPC server of the sidecar: the search service, the
// standard health service and server reflection, with the recover and
// logging interceptors. It starts NOT_SERVING; Ready makes it SERVING. It is
// safe for concurrent use.
type Server struct {
	grpc     *grpc.Server
	health   *health.Server
	service  *Service
	log      *slog.Logger
	metrics  *Metrics
	stopping atomic.Bool
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
	s := &Server{
		grpc:    grpc.NewServer(opts...),
		health:  health.NewServer(),
		service: svc,
		log:     log,
		metrics: cfg.Metrics,
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

// Serve accepts connections on lis until Shutdown; it returns nil after a
// shutdown.
func (s *Server) Serve(lis net.Listener) error {
	err := s.grpc.Serve(lis)
	if err == grpc.ErrServerStopped {
		return nil
	}
	return err
}

// Shutdown reports NOT_SERVING, then stops gracefully: it stops accepting
// connections and waits for calls in flight, until ctx is done, when it
// stops hard (in-flight calls are cancelled). It reports whether the stop
// was graceful.
func (s *Server) Shutdown(ctx context.Context) bool {
	s.stopping.Store(true)
	s.health.Shutdown()
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		s.log.Warn("graceful stop timed out; stopping hard")
		s.grpc.Stop()
		<-done
		return false
	}
}

// DefaultShutdownTimeout is how long Shutdown waits for calls in flight by
// default (the sidecar's --shutdown-timeout): searches take milliseconds, so
// 10 s drains any real workload while staying well inside Kubernetes'
// default 30 s termination grace period.
const DefaultShutdownTimeout = 10 * time.Second
