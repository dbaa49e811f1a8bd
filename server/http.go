package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// HTTPHandler serves the sidecar's HTTP endpoints, for the metrics listener:
//
//   - /metrics: the Prometheus metrics (only when Config.Metrics is set);
//   - /readyz: 200 when the gRPC health status is SERVING (the catalog is
//     searchable), 503 otherwise (loading, or shutting down);
//   - /healthz: 200 while the server runs, loading included, 503 once
//     Shutdown has begun.
//
// Both probes answer with the gRPC health status as text, e.g. "SERVING".
func (s *Server) HTTPHandler() http.Handler {
	mux := http.NewServeMux()
	if s.metrics != nil {
		mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	}
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		st := s.healthStatus(r.Context())
		code := http.StatusOK
		if st != healthpb.HealthCheckResponse_SERVING {
			code = http.StatusServiceUnavailable
		}
		writeStatus(w, code, st)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		code := http.StatusOK
		if s.stopping.Load() {
			code = http.StatusServiceUnavailable
		}
		writeStatus(w, code, s.healthStatus(r.Context()))
	})
	return mux
}

// healthStatus is the gRPC health status of the search service, as the
// health service itself answers it.
func (s *Server) healthStatus(ctx context.Context) healthpb.HealthCheckResponse_ServingStatus {
	resp, err := s.health.Check(ctx, &healthpb.HealthCheckRequest{Service: ServiceName})
	if err != nil {
		return healthpb.HealthCheckResponse_UNKNOWN
	}
	return resp.GetStatus()
}

func writeStatus(w http.ResponseWriter, code int, st healthpb.HealthCheckResponse_ServingStatus) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintln(w, st.String())
}
