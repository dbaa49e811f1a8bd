// Package server holds the gRPC adapter of toolsearch: the
// toolsearch.v1.ToolSearchService implementation, request conversion and
// validation, the one table that maps engine errors to status codes, the
// interceptors (recover, metrics, logging with its query rules in
// querylog.go, bearer token, undecodable requests with the codec of
// codec.go, answer size, default deadline, the health Watch cap), GetTools
// paging (gettools.go), the standard health and reflection services, the
// Prometheus metrics (metrics.go) and the HTTP handler of /metrics,
// /healthz and /readyz.
//
// It is a thin layer over package search: the engine knows nothing of gRPC,
// and this package holds no search logic.
package server
