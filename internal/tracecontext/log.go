package tracecontext

import (
	"context"
	"log/slog"
)

// Log attribute keys written by LogHandler.
const (
	TraceIDKey  = "trace_id"
	ParentIDKey = "parent_id"
)

// LogHandler wraps h so that every record logged with a context carrying a
// trace context (slog's …Context methods) gets the attributes trace_id and
// parent_id (lower-case hex, as in the traceparent). Records without one
// are passed on unchanged. It is safe for concurrent use when h is.
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	if tc, ok := FromContext(ctx); ok {
		r = r.Clone()
		r.AddAttrs(slog.String(TraceIDKey, tc.Parent.TraceIDString()), slog.String(ParentIDKey, tc.Parent.ParentIDString()))
	}
	return l.Handler.Handle(ctx, r)
}

func (l logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{l.Handler.WithAttrs(attrs)}
}

func (l logHandler) WithGroup(name string) slog.Handler {
	return logHandler{l.Handler.WithGroup(name)}
}
