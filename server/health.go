package server

import (
	"fmt"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// healthWatchMethod is the streaming method of the standard health service.
// Unlike Check, it holds a stream open for as long as the client wants.
const healthWatchMethod = "/grpc.health.v1.Health/Watch"

// MaxHealthWatches is the most health Watch streams the server holds open
// at once, over all connections: an agent pod needs one or two, and each
// costs a goroutine and buffers for as long as it lasts, so without a cap
// one client could hold thousands for ever. Further Watch calls are
// RESOURCE_EXHAUSTED until one ends.
const MaxHealthWatches = 64

// HealthWatchInterceptor refuses a health Watch stream while limit are
// open, with RESOURCE_EXHAUSTED saying to use Check. Other streams pass.
func HealthWatchInterceptor(limit int) grpc.StreamServerInterceptor {
	var open atomic.Int64
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if info.FullMethod != healthWatchMethod {
			return handler(srv, ss)
		}
		if open.Add(1) > int64(limit) {
			open.Add(-1)
			return status.Error(codes.ResourceExhausted, fmt.Sprintf(
				"%d health Watch streams are open, the sidecar's limit; close the ones you no longer need, or poll with grpc.health.v1.Health/Check (what Kubernetes probes use)", limit))
		}
		defer open.Add(-1)
		return handler(srv, ss)
	}
}
