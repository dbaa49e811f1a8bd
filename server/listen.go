package server

import (
	"bufio"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"
)

// One port serves gRPC and JSON over HTTP (docs/api.md, "JSON over HTTP"):
// each accepted connection is sorted by the protocol it speaks, once, before
// any request is read. An HTTP/2 connection (the client preface "PRI * HTTP/2.0"
// in plaintext, or ALPN "h2" under TLS) goes to grpc-go's own transport, so
// the gRPC path is the same code as a gRPC-only server; an HTTP/1.x
// connection goes to net/http, which serves the JSON (Connect protocol)
// handler. Under TLS the server prefers "http/1.1" in ALPN: gRPC clients
// offer only "h2" and get it, while curl, browsers and fetch, which offer
// both, get HTTP/1.1 and so the JSON handler.
//
// The other design, grpc-go's Server.ServeHTTP beside the JSON handler in one
// net/http server, was measured slower on the gRPC path (docs/api.md has
// the numbers); it would also lose grpc-go's keepalive enforcement and
// stream limits, which net/http's HTTP/2 server does not apply.

// http2Preface is the start of an HTTP/2 connection's client preface
// (RFC 9113, 3.4); no HTTP/1.x request line starts with it.
const http2Preface = "PRI * HTTP/2.0"

// sniffTimeout bounds the TLS handshake and the wait for a new connection's
// first bytes: a client that connects and sends nothing is closed after it.
// gRPC and HTTP clients send at once; 10 s covers a loaded host.
const sniffTimeout = 10 * time.Second

// portMux accepts connections on one listener and hands each to the gRPC
// or the HTTP listener by protocol. It is safe for concurrent use.
type portMux struct {
	root      net.Listener
	tls       *tls.Config // nil: plaintext
	log       *slog.Logger
	grpc      *connListener
	http      *connListener
	closeOnce sync.Once
}

func newPortMux(root net.Listener, tc *tls.Config, log *slog.Logger) *portMux {
	if tc != nil {
		tc = tc.Clone()
		tc.NextProtos = []string{"http/1.1", "h2"}
	}
	return &portMux{root: root, tls: tc, log: log, grpc: newConnListener(root.Addr()), http: newConnListener(root.Addr())}
}

// serve accepts until the root listener fails or is closed, and returns
// that error.
func (m *portMux) serve() error {
	var tempDelay time.Duration
	for {
		c, err := m.root.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// Out of file descriptors and the like: back off, as net/http does.
				tempDelay = min(max(2*tempDelay, 5*time.Millisecond), time.Second)
				time.Sleep(tempDelay)
				continue
			}
			return err
		}
		tempDelay = 0
		go m.route(c)
	}
}

// route completes the TLS handshake, if any, finds the connection's
// protocol and hands it on; a connection that fails either is closed.
func (m *portMux) route(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(sniffTimeout))
	var conn net.Conn = c
	proto := ""
	if m.tls != nil {
		tc := tls.Server(c, m.tls)
		if err := tc.Handshake(); err != nil {
			m.log.Debug("tls handshake failed", "remote", c.RemoteAddr().String(), "error", err.Error())
			c.Close()
			return
		}
		conn, proto = tc, tc.ConnectionState().NegotiatedProtocol
	}
	if proto == "" { // plaintext, or TLS without ALPN: read the first bytes
		br := bufio.NewReaderSize(conn, len(http2Preface))
		head, err := br.Peek(len(http2Preface))
		if err != nil && len(head) == 0 {
			conn.Close()
			return
		}
		proto = "http/1.1"
		if string(head) == http2Preface {
			proto = "h2"
		}
		conn = &peekedConn{Conn: conn, r: br}
	}
	_ = c.SetDeadline(time.Time{})
	if proto == "h2" {
		if raw, ok := c.(syscall.Conn); ok {
			conn = sysConn{Conn: conn, raw: raw}
		}
		m.grpc.put(conn)
	} else {
		m.http.put(conn)
	}
}

// close closes the root listener and both protocol listeners.
func (m *portMux) close() {
	m.closeOnce.Do(func() {
		m.root.Close()
		m.grpc.Close()
		m.http.Close()
	})
}

// peekedConn is a connection whose first bytes were read into r, which
// reads them again before the rest.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// sysConn is a connection whose socket is raw's: grpc-go sets
// TCP_USER_TIMEOUT (from its keepalive timeout) on a connection that
// implements syscall.Conn, which the TLS and peeked wrappers do not.
type sysConn struct {
	net.Conn
	raw syscall.Conn
}

func (c sysConn) SyscallConn() (syscall.RawConn, error) { return c.raw.SyscallConn() }

// connListener is a net.Listener whose connections are handed to it by
// put. It is safe for concurrent use.
type connListener struct {
	addr   net.Addr
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newConnListener(addr net.Addr) *connListener {
	return &connListener{addr: addr, conns: make(chan net.Conn), closed: make(chan struct{})}
}

// put hands c to Accept, or closes it once the listener is closed.
func (l *connListener) put(c net.Conn) {
	select {
	case l.conns <- c:
	case <-l.closed:
		c.Close()
	}
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *connListener) Addr() net.Addr { return l.addr }
