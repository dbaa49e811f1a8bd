package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Errors the server raises itself, around the engine: in request decoding
// and conversion, paging, size limits, authentication, and before the
// catalog is loaded. Like the engine's, they are in errorCodes, the one
// place where errors become status codes.
var (
	// errBadRequest: a request the caller must change.
	errBadRequest = errors.New("bad request")
	// errTooLarge: an answer or a request over a size limit.
	errTooLarge = errors.New("too large")
	// errNotReady: the sidecar cannot answer yet (the catalog is loading).
	errNotReady = errors.New("not ready")
	// errUnauthenticated: a missing or wrong bearer token.
	errUnauthenticated = errors.New("unauthenticated")
	// errInternal: a failure the caller cannot fix (a recovered panic); its
	// details are logged, not sent.
	errInternal = errors.New("internal")
)

// errorCodes is the one table mapping errors to gRPC status codes. An error
// matching an entry is sent with its own message, which says what to
// change; any other error is sent as Internal with a generic message and
// logged in full.
var errorCodes = []struct {
	err  error
	code codes.Code
}{
	{errBadRequest, codes.InvalidArgument},
	{errTooLarge, codes.ResourceExhausted},
	{errNotReady, codes.Unavailable},
	{errUnauthenticated, codes.Unauthenticated},
	{errInternal, codes.Internal},
	{search.ErrInvalidArgument, codes.InvalidArgument},
	{search.ErrNotFound, codes.NotFound},
	{search.ErrCatalogFull, codes.ResourceExhausted},
	{search.ErrRateLimited, codes.ResourceExhausted},
	{toolset.ErrInvalidOption, codes.InvalidArgument},
	{toolset.ErrTooLarge, codes.ResourceExhausted},
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

// codeOf returns the status code of kind, one of errorCodes' errors.
func codeOf(kind error) codes.Code {
	for _, e := range errorCodes {
		if e.err == kind {
			return e.code
		}
	}
	return codes.Internal
}

// statusf returns a status error of kind (one of errorCodes' errors) with
// the formatted message, which says what to change. For code that must
// return status errors itself: interceptors, codecs, request conversion.
func statusf(kind error, format string, args ...any) error {
	return status.Error(codeOf(kind), fmt.Sprintf(format, args...))
}

// statusMsg is statusf with a message that is not a format.
func statusMsg(kind error, msg string) error {
	return status.Error(codeOf(kind), msg)
}
