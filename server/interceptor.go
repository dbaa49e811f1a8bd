package server

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// RecoverInterceptor turns a panic in a handler into an Internal error and
// logs the stack, so one bad request never takes the sidecar down.
func RecoverInterceptor(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if p := recover(); p != nil {
				log.ErrorContext(ctx, "panic in handler", "method", info.FullMethod, "panic", p, "stack", string(debug.Stack()))
				resp, err = nil, statusMsg(errInternal, "internal error; the sidecar's log has the details")
			}
		}()
		return handler(ctx, req)
	}
}

// LoggingInterceptor logs every call with its method, status code and
// duration: at info level for success and client errors, at error level
// for server errors. Search calls also log the query as mode allows and the
// mode that answered; an error message is logged with the query's text cut
// as mode says (see QueryLogMode). A call refused with UNAUTHENTICATED is
// logged without anything of its request.
func LoggingInterceptor(log *slog.Logger, mode QueryLogMode) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		code := status.Code(err)
		attrs := []slog.Attr{
			slog.String("method", info.FullMethod),
			slog.String("code", code.String()),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
		}
		if r, ok := req.(*toolsearchv1.SearchRequest); ok && code != codes.Unauthenticated {
			if a, ok := mode.Attr(r.GetQuery()); ok {
				attrs = append(attrs, a)
			}
		}
		if r, ok := resp.(*toolsearchv1.SearchResponse); ok && err == nil {
			md := r.GetSearchMetadata()
			attrs = append(attrs, slog.String("search_type", md.GetSearchType()), slog.Int("results", len(r.GetToolReferences())))
			if md.GetFallbackReason() != "" {
				attrs = append(attrs, slog.String("fallback_reason", md.GetFallbackReason()))
			}
		}
		level := slog.LevelInfo
		if err != nil {
			msg := status.Convert(err).Message()
			if sr, ok := req.(*toolsearchv1.SearchRequest); ok {
				msg = mode.redact(msg, sr.GetQuery())
			}
			attrs = append(attrs, slog.String("error", msg))
			if !isClientError(err) {
				level = slog.LevelError
			}
		}
		log.LogAttrs(ctx, level, "rpc", attrs...)
		return resp, err
	}
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// DeadlineInterceptor gives a unary call without a deadline the deadline d,
// so that no call of a client that set none can run for ever. A call with
// its own deadline keeps it. d <= 0 disables the interceptor.
func DeadlineInterceptor(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if _, ok := ctx.Deadline(); ok || d <= 0 {
			return handler(ctx, req)
		}
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return handler(ctx, req)
	}
}
