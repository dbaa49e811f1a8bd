package server

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// DefaultMaxMessageSize is the largest message the server sends when
// Config.MaxMessageSize is 0: gRPC's own default receive limit, 4 MiB, so
// that a client with default settings can read every answer.
const DefaultMaxMessageSize = 4 << 20

// smallerRequest says, per method, what smaller request answers in less
// than the message limit.
var smallerRequest = map[string]string{
	"/toolsearch.v1.ToolSearchService/GetTools":   "ask for fewer names, or set page_size and follow next_page_token",
	"/toolsearch.v1.ToolSearchService/GetToolset": "load fewer tools in full (fewer always_loaded tools, or a session that revealed fewer), or use deferred_mode unspecified",
	"/toolsearch.v1.ToolSearchService/Search":     "lower max_results, or leave debug off",
	"/toolsearch.v1.ToolSearchService/ListTools":  "lower page_size",
}

// receiveLimit is the request size past which grpc-go refuses a request
// itself, with its own words ("received message larger than max"), which
// name neither the flag nor what to send instead: the message limit plus as
// much again, at most 64 MiB more. A request between the limit and this is
// read, then refused by the codec with requestTooLarge. The margin is
// memory one request may hold for a moment.
func receiveLimit(limit int) int { return limit + min(limit, 64<<20) }

// requestTooLarge says why a request of size bytes, over limit, is refused
// and what to send instead.
func requestTooLarge(size, limit int) string {
	return fmt.Sprintf("the request is %d bytes, over the sidecar's message limit of %d bytes (--max-message-size); "+
		"split it into smaller requests (for UpsertTools, fewer tools per call), or raise --max-message-size (and the client's send limit)",
		size, limit)
}

// tooLarge is the RESOURCE_EXHAUSTED of an answer of size bytes over limit,
// naming the flag and the smaller request to make.
func tooLarge(method string, size, limit int) error {
	what := smallerRequest[method]
	if what == "" {
		what = "make a smaller request"
	}
	return statusMsg(errTooLarge, fmt.Sprintf(
		"the answer to %s is %d bytes, over the sidecar's message limit of %d bytes (--max-message-size); %s, or raise --max-message-size (and the client's receive limit)",
		method, size, limit, what))
}

// SizeLimitInterceptor refuses an answer larger than limit bytes with
// RESOURCE_EXHAUSTED naming --max-message-size and the smaller request to
// make, instead of grpc-go's "trying to send message larger than max"
// (which names neither). limit <= 0 means DefaultMaxMessageSize.
func SizeLimitInterceptor(limit int) grpc.UnaryServerInterceptor {
	if limit <= 0 {
		limit = DefaultMaxMessageSize
	}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if m, ok := resp.(proto.Message); ok && err == nil {
			if n := proto.Size(m); n > limit {
				return nil, tooLarge(info.FullMethod, n, limit)
			}
		}
		return resp, err
	}
}
