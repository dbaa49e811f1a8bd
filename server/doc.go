// Package server holds the gRPC adapter of toolsearch: the
// toolsearch.v1.ToolSearchService implementation, request conversion and
// validation, the one table that maps engine errors to status codes, the
// interceptors (recover, logging), and the standard health and reflection
// services.
//
// It is a thin layer over package search: the engine knows nothing of gRPC,
// and this package holds no search logic.
package server
