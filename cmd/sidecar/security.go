package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/internal/safefile"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// grpcOptions turns the limits into server options. TLS is not among
// them: the server terminates it for gRPC and JSON alike (server.Config.TLS).
func grpcOptions(cfg config) []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxSendMsgSize(cfg.maxMessageSize),
		grpc.MaxConcurrentStreams(uint32(cfg.maxConcurrentStreams)),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: cfg.keepaliveMinTime, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: cfg.keepaliveTime, Timeout: keepaliveTimeout}),
	}
}

// keepaliveTimeout is how long the sidecar waits for a keepalive ping's
// answer before closing the connection (gRPC's default).
const keepaliveTimeout = 20 * time.Second

// tlsConfig loads --tls-cert/--tls-key and --tls-client-ca; nil without
// TLS. TLS 1.2 is the minimum; with a client CA, clients must present a
// certificate that chains to it.
func tlsConfig(cfg config) (*tls.Config, error) {
	if cfg.tlsCert == "" {
		return nil, nil
	}
	// Read as regular files of bounded size (a FIFO or device is refused
	// by name, never waited on), then parsed as tls.LoadX509KeyPair would.
	certPEM, err := safefile.ReadFile(cfg.tlsCert, maxConfigFileBytes)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert: %w", err)
	}
	keyPEM, err := safefile.ReadFile(cfg.tlsKey, maxConfigFileBytes)
	if err != nil {
		return nil, fmt.Errorf("--tls-key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w (both must be PEM files, the key matching the certificate)", cfg.tlsCert, cfg.tlsKey, err)
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if cfg.tlsClientCA != "" {
		pem, err := safefile.ReadFile(cfg.tlsClientCA, maxConfigFileBytes)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-client-ca %s: no PEM certificate found in the file", cfg.tlsClientCA)
		}
		tc.ClientCAs = pool
		tc.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return tc, nil
}

// readToken reads --auth-token-file: the token is the file's content
// without surrounding whitespace (a trailing newline is common). "" when no
// file is configured.
func readToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := safefile.ReadFile(path, maxConfigFileBytes)
	if err != nil {
		return "", fmt.Errorf("--auth-token-file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("--auth-token-file %s is empty; write the token into it (e.g. openssl rand -hex 32 > %s)", path, path)
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return "", fmt.Errorf("--auth-token-file %s: the token contains whitespace; use one line of printable characters", path)
	}
	return token, nil
}

// minTokenLength is the shortest bearer token the sidecar takes without a
// warning, in bytes: 16 random hex characters are 64 bits, the least that
// resists guessing over a network (openssl rand -hex 32 gives 64).
const minTokenLength = 16

// isLoopback reports whether addr (host:port) listens on loopback only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// maxConfigFileBytes bounds the small files the flags name (a token, a CA
// bundle, --mcp-config): a larger one is not such a file. Like every file
// read at start-up, each must be a regular file: a FIFO or a device is
// refused by name, never waited on.
const maxConfigFileBytes = 1 << 20
