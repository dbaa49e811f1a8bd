package server

import (
	"context"

	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// TraceInterceptor takes a call's W3C trace context from its metadata
// ("traceparent", "tracestate"; HTTP headers of a JSON call arrive as the
// same metadata) into the context, so the call's log lines carry its
// trace_id and parent_id (with a logger wrapped in
// tracecontext.LogHandler) and MCP calls it leads to forward it. An
// invalid traceparent is ignored, as the spec says.
func TraceInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		return handler(withTrace(ctx), req)
	}
}

// withTrace returns ctx with the trace context of its incoming metadata,
// if any.
func withTrace(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return ctx
	}
	tc, ok := tracecontext.FromHeaders(func(k string) string {
		if v := md.Get(k); len(v) > 0 {
			return v[0]
		}
		return ""
	})
	if !ok {
		return ctx
	}
	return tracecontext.NewContext(ctx, tc)
}
