package server

import (
	"context"
	"errors"
	"log/slog"

	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// errorCodes is the one table mapping engine errors to gRPC status codes.
// An error matching an entry is sent with its own message, which says what
// to change; any other error is sent as Internal with a generic message and
// logged in full.
var errorCodes = []struct {
	err  error
	code codes.Code
}{
	{search.ErrInvalidArgument, codes.InvalidArgument},
	{search.ErrNotFound, codes.NotFound},
	{search.ErrCatalogFull, codes.ResourceExhausted},
	{toolset.ErrInvalidOption, codes.InvalidArgument},
	{context.DeadlineExceeded, codes.DeadlineExceeded},
	{context.Canceled, codes.Canceled},
}

// toStatus converts an engine error into a gRPC status error.
func toStatus(ctx context.Context, log *slog.Logger, method string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	for _, e := range errorCodes {
		if errors.Is(err, e.err) {
			return status.Error(e.code, err.Error())
		}
	}
	log.ErrorContext(ctx, "internal error", "method", method, "error", err.Error())
	return status.Error(codes.Internal, "internal error; the sidecar's log has the details")
}
