package server

import (
	"io"
	"log/slog"
	"net"
	"syscall"
	"testing"
)

// TestPortMuxRoutes: a plaintext connection goes to gRPC when it starts
// with the HTTP/2 preface and to HTTP otherwise, with its first bytes read
// again; the gRPC side keeps the socket (for TCP_USER_TIMEOUT).
func TestPortMuxRoutes(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := newPortMux(lis, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	go func() { _ = m.serve() }()
	defer m.close()
	tests := []struct {
		name, first string
		to          *connListener
	}{
		{"http/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", m.grpc},
		{"http/1.1 request", "POST /toolsearch.v1.ToolSearchService/Search HTTP/1.1\r\n", m.http},
		{"short first write", "GET", m.http},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", lis.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, tt.first); err != nil {
				t.Fatal(err)
			}
			if tt.to == m.http { // an HTTP/1 client may send less than the preface's length, then wait
				c.(*net.TCPConn).CloseWrite()
			}
			got, err := tt.to.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			b := make([]byte, len(tt.first))
			if _, err := io.ReadFull(got, b); err != nil || string(b) != tt.first {
				t.Errorf("read %q, %v; want the first bytes %q again", b, err, tt.first)
			}
			if _, ok := got.(syscall.Conn); tt.to == m.grpc && !ok {
				t.Errorf("the gRPC side got %T, which hides the socket", got)
			}
		})
	}
}
