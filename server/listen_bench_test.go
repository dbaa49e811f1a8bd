package server

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// BenchmarkGRPCSearch measures one gRPC Search, with GOMAXPROCS clients in
// parallel on one connection, through the three ways of serving the port:
//
//   - grpc-only: grpc.Server.Serve on the listener, as before JSON over HTTP;
//   - shared-port: Server.Serve, which sorts connections by protocol
//     (listen.go) and hands HTTP/2 ones to the same grpc.Server.Serve;
//   - servehttp: grpc.Server.ServeHTTP inside a net/http server (h2c)
//     beside a JSON handler, the design not taken.
//
// Run: go test -run '^$' -bench GRPCSearch -benchtime 3s -count 6 ./server
func BenchmarkGRPCSearch(b *testing.B) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		b.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ways := []struct {
		name  string
		serve func(s *Server, lis net.Listener) error
	}{
		{"grpc-only", func(s *Server, lis net.Listener) error { return s.grpc.Serve(lis) }},
		{"shared-port", func(s *Server, lis net.Listener) error { return s.Serve(lis) }},
		{"servehttp", func(s *Server, lis net.Listener) error {
			json := s.connectHandler()
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
					s.grpc.ServeHTTP(w, r)
					return
				}
				json.ServeHTTP(w, r)
			})
			var protocols http.Protocols // HTTP/1.1, and HTTP/2 without TLS (h2c)
			protocols.SetHTTP1(true)
			protocols.SetUnencryptedHTTP2(true)
			return (&http.Server{Handler: h, Protocols: &protocols}).Serve(lis)
		}},
	}
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			s := New(Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			s.Ready(e)
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			go func() { _ = way.serve(s, lis) }()
			defer func() { lis.Close(); s.grpc.Stop(); s.Shutdown(context.Background()) }()
			conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			c := toolsearchv1.NewToolSearchServiceClient(conn)
			req := &toolsearchv1.SearchRequest{Query: "send slack message"}
			if _, err := c.Search(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.Search(context.Background(), req); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
