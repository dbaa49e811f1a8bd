package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/search"
)

// callRecord is what a tools/call tells its log line beyond the call
// itself: the search it ran, or the catalog tool it forwarded to. The
// handlers fill it in through the call's context.
type callRecord struct {
	query  string
	result *search.Result
	target string
}

type callRecordKey struct{}

// record returns the call's record (a throwaway one outside logCall).
func record(ctx context.Context) *callRecord {
	if r, ok := ctx.Value(callRecordKey{}).(*callRecord); ok {
		return r
	}
	return &callRecord{}
}

// searched records a successful search for the call's log line and the
// sidecar's metrics (Config.OnSearch).
func (s *Server) searched(ctx context.Context, query string, res search.Result) {
	r := record(ctx)
	r.query, r.result = query, &res
	if s.cfg.OnSearch != nil {
		s.cfg.OnSearch(res)
	}
}

// logCall runs a tools/call and writes its request log line: mode
// ("session" or "stateless"), the tool called, the outcome (ok,
// tool_error, input_required, cancelled or error), the duration, and for a search the query
// as Config.LogQuery shows it, the mode that answered and the number of
// results; for call_tool, the tool it ran. At info level, error level for
// an error of the endpoint itself.
func (s *Server) logCall(ctx context.Context, mode string, req *mcp.CallToolRequest, call func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	start := time.Now()
	rec := &callRecord{}
	res, err := call(context.WithValue(ctx, callRecordKey{}, rec))
	outcome, level := "ok", slog.LevelInfo
	switch {
	case err != nil && (errors.Is(err, context.Canceled) || ctx.Err() != nil):
		outcome = "cancelled"
	case err != nil:
		outcome, level = "error", slog.LevelError
	case res != nil && res.IsError:
		outcome = "tool_error"
	case res != nil && res.NeedsInput():
		outcome = "input_required"
	}
	attrs := []slog.Attr{
		slog.String("mode", mode),
		slog.String("tool", req.Params.Name),
		slog.String("outcome", outcome),
		slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
	}
	if rec.target != "" {
		attrs = append(attrs, slog.String("target", rec.target))
	}
	if rec.result != nil {
		if s.cfg.LogQuery != nil {
			if a, ok := s.cfg.LogQuery(rec.query); ok {
				attrs = append(attrs, a)
			}
		}
		md := rec.result.Metadata
		attrs = append(attrs, slog.String("search_type", string(md.SearchType)), slog.Int("results", len(rec.result.References)))
		if md.FallbackReason != "" {
			attrs = append(attrs, slog.String("fallback_reason", md.FallbackReason))
		}
	}
	if err != nil && outcome == "error" {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	s.log.LogAttrs(ctx, level, "mcp tools/call", attrs...)
	return res, err
}
