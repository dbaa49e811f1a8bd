package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// healthCheckMethod is the one method exempt from authentication:
// Kubernetes' gRPC probes call it and send no token. The health service's
// Watch (a stream held open) and List need the token like any other call.
const healthCheckMethod = "/grpc.health.v1.Health/Check"

// errNoToken and errBadToken are the UNAUTHENTICATED answers. Neither says
// anything about the expected token.
var (
	errNoToken  = status.Error(codes.Unauthenticated, `missing bearer token: send the metadata "authorization: Bearer <token>" (the sidecar runs with --auth-token-file)`)
	errBadToken = status.Error(codes.Unauthenticated, "invalid bearer token: send the token of the sidecar's --auth-token-file")
)

// tokenChecker compares a call's bearer token with the configured one in
// constant time (over SHA-256 digests, so the length does not leak either).
type tokenChecker struct{ want [sha256.Size]byte }

func (t tokenChecker) check(ctx context.Context, method string) error {
	if method == healthCheckMethod {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	values := md.Get("authorization")
	if len(values) == 0 {
		return errNoToken
	}
	scheme, token, ok := strings.Cut(values[0], " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return errBadToken
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	if subtle.ConstantTimeCompare(got[:], t.want[:]) != 1 {
		return errBadToken
	}
	return nil
}

// AuthUnaryInterceptor rejects unary calls without "authorization: Bearer
// <token>" with UNAUTHENTICATED; health Check is exempt. token must not be
// empty.
func AuthUnaryInterceptor(token string) grpc.UnaryServerInterceptor {
	t := tokenChecker{want: sha256.Sum256([]byte(token))}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := t.check(ctx, info.FullMethod); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// AuthStreamInterceptor is AuthUnaryInterceptor for streaming calls (server
// reflection, health Watch).
func AuthStreamInterceptor(token string) grpc.StreamServerInterceptor {
	t := tokenChecker{want: sha256.Sum256([]byte(token))}
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := t.check(ss.Context(), info.FullMethod); err != nil {
			return err
		}
		return handler(srv, ss)
	}
}
