package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRecoverInterceptor(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	info := &grpc.UnaryServerInfo{FullMethod: "/toolsearch.v1.ToolSearchService/Search"}
	_, err := RecoverInterceptor(log)(context.Background(), nil, info, func(context.Context, any) (any, error) {
		panic("boom")
	})
	if status.Code(err) != codes.Internal || strings.Contains(status.Convert(err).Message(), "boom") {
		t.Errorf("err = %v, want Internal without the panic text", err)
	}
	if !strings.Contains(buf.String(), "boom") || !strings.Contains(buf.String(), "stack") {
		t.Errorf("log = %s, want the panic and its stack", buf.String())
	}
}

func TestToStatusHidesInternalErrors(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	err := toStatus(context.Background(), log, "Search", errSecret)
	if status.Code(err) != codes.Internal || strings.Contains(err.Error(), "secret") {
		t.Errorf("err = %v, want a generic Internal", err)
	}
	if !strings.Contains(buf.String(), "secret") {
		t.Errorf("log = %s, want the details", buf.String())
	}
}

var errSecret = secretError{}

type secretError struct{}

func (secretError) Error() string { return "secret database path /var/x" }
