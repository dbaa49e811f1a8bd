// Package servertest runs the real toolsearch gRPC server on a loopback
// port for the tests of packages that call it (the server itself, the
// command-line tool), so that they exercise the real server through the
// real client rather than a fake.
package servertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

// Serve runs srv on 127.0.0.1 (a free port) until the test ends, then
// shuts it down gracefully and checks that serving ended cleanly. It
// returns the address to dial.
func Serve(t testing.TB, srv *server.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Shutdown(context.Background())
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return lis.Addr().String()
}

// Start serves e with a new server whose log is discarded, ready (health
// SERVING) from the start, until the test ends. It returns the address.
func Start(t testing.TB, e *search.Engine) string {
	t.Helper()
	srv := server.New(server.Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv.Ready(e)
	return Serve(t, srv)
}
