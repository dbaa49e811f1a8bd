package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

func TestAuthUnaryInterceptor(t *testing.T) {
	auth := AuthUnaryInterceptor("s3cret")
	ok := func(context.Context, any) (any, error) { return "ok", nil }
	tests := []struct {
		name   string
		method string
		md     metadata.MD
		want   codes.Code
	}{
		{"no metadata", "/toolsearch.v1.ToolSearchService/Search", nil, codes.Unauthenticated},
		{"no token", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("x", "y"), codes.Unauthenticated},
		{"wrong token", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("authorization", "Bearer s3cre"), codes.Unauthenticated},
		{"wrong scheme", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("authorization", "Basic s3cret"), codes.Unauthenticated},
		{"bare token", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("authorization", "s3cret"), codes.Unauthenticated},
		{"right token", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("authorization", "Bearer s3cret"), codes.OK},
		{"scheme is case-insensitive", "/toolsearch.v1.ToolSearchService/Search", metadata.Pairs("authorization", "bearer s3cret"), codes.OK},
		{"health Check is exempt", "/grpc.health.v1.Health/Check", nil, codes.OK},
		{"health List is not", "/grpc.health.v1.Health/List", nil, codes.Unauthenticated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.md != nil {
				ctx = metadata.NewIncomingContext(ctx, tt.md)
			}
			_, err := auth(ctx, nil, &grpc.UnaryServerInfo{FullMethod: tt.method}, ok)
			if status.Code(err) != tt.want {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the token: %v", err)
			}
		})
	}
}

func TestDeadlineInterceptor(t *testing.T) {
	info := &grpc.UnaryServerInfo{FullMethod: "/x/y"}
	var got time.Time
	var has bool
	handler := func(ctx context.Context, _ any) (any, error) {
		got, has = ctx.Deadline()
		return nil, nil
	}
	start := time.Now()
	DeadlineInterceptor(time.Minute)(context.Background(), nil, info, handler)
	if !has || got.Before(start.Add(59*time.Second)) || got.After(time.Now().Add(time.Minute)) {
		t.Errorf("no deadline set: deadline %v, %v; want about a minute from now", got, has)
	}
	own, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	want, _ := own.Deadline()
	DeadlineInterceptor(time.Minute)(own, nil, info, handler)
	if !got.Equal(want) {
		t.Errorf("the client's deadline %v was replaced by %v", want, got)
	}
	DeadlineInterceptor(0)(context.Background(), nil, info, handler)
	if has {
		t.Error("a deadline with the interceptor disabled")
	}
}

func TestHTTPProbesFollowHealth(t *testing.T) {
	s := New(Config{Log: discard(), Metrics: NewMetrics("test")})
	h := s.HTTPHandler()
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code, strings.TrimSpace(rec.Body.String())
	}
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || body != "NOT_SERVING" {
		t.Errorf("before Ready: /readyz = %d %q, want 503 NOT_SERVING", code, body)
	}
	if code, _ := get("/healthz"); code != http.StatusOK {
		t.Errorf("before Ready: /healthz = %d, want 200 (alive while loading)", code)
	}
	if code, body := get("/metrics"); code != http.StatusOK || !strings.Contains(body, `toolsearch_build_info{version="test"} 1`) {
		t.Errorf("/metrics = %d, want 200 with toolsearch_build_info", code)
	}
	s.Shutdown(context.Background())
	if code, _ := get("/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("after Shutdown: /healthz = %d, want 503", code)
	}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
