package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
)

// The sidecar serves the MCP endpoint on --mcp-listen with the bearer token
// of --auth-token-file, and one session on stdio with --mcp-stdio; the
// go-sdk client sees tool_search first and a found tool after a search.
func TestSidecarMCPEndpoint(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("tok3n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	addrs := make(chan net.Addr, 1)
	h := hooks{mcpReady: addrs, stdioTransport: func() mcp.Transport { return serverSide }}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr logbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--mcp-listen", "127.0.0.1:0",
			"--mcp-stdio", "--auth-token-file", tokenFile, "--catalog", "../../examples/catalog.json"}, env(nil), &stderr, h)
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("sidecar exited with %d: %s", code, stderr.String())
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("MCP endpoint not serving (hang guard)")
	}

	// Over HTTP, with the token.
	hc := &http.Client{Transport: endpointBearer{"tok3n"}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr.String() + "/mcp", HTTPClient: hc}, sessionMode)
	if err != nil {
		t.Fatal(err)
	}
	checkEndpointFlow(t, cs)
	cs.Close()
	// The same endpoint in stateless mode (the go-sdk's default version).
	modern, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr.String() + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkStatelessFlow(t, modern)
	modern.Close()
	// Without the token: refused.
	if _, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr.String() + "/mcp", MaxRetries: -1}, nil); err == nil {
		t.Error("connected without the bearer token")
	}

	// Over stdio; the sidecar stops when the session ends.
	ss, err := c.Connect(ctx, clientSide, sessionMode)
	if err != nil {
		t.Fatal(err)
	}
	checkEndpointFlow(t, ss)
	ss.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after the stdio session ended: %s", code, stderr.String())
		}
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("sidecar still running 30 s after its stdio session ended")
	}
}

// checkEndpointFlow lists, searches and lists again.
func checkEndpointFlow(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	first, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Tools) != 1 || first.Tools[0].Name != "tool_search" {
		t.Fatalf("first tools/list has %d tools, want tool_search alone", len(first.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "send a slack message", "max_results": 1}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"tool_references":[{"tool_name":`) {
		t.Fatalf("tool_search = %+v, %v", res, err)
	}
	second, err := cs.ListTools(ctx, nil)
	if err != nil || len(second.Tools) != 2 {
		t.Fatalf("second tools/list = %+v, %v; want tool_search and the found tool", second, err)
	}
}

// sessionMode asks for the newest MCP version with sessions (the go-sdk's
// default is the stateless 2026-07-28).
var sessionMode = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// checkStatelessFlow lists, searches, calls and lists again in stateless
// mode: the list is the two meta-tools before and after.
func checkStatelessFlow(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	first, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Tools) != 3 || first.Tools[0].Name != "tool_search" || first.Tools[1].Name != "call_tool" || first.Tools[2].Name != "read_output" {
		t.Fatalf("stateless tools/list = %d tools, want tool_search, call_tool and read_output", len(first.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "send a slack message", "max_results": 1}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"inputSchema"`) {
		t.Fatalf("tool_search = %+v, %v; want the found tool's definition", res, err)
	}
}

type endpointBearer struct{ token string }

func (b endpointBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// With --tls-cert, the MCP endpoint serves HTTPS only, with the gRPC
// port's certificate.
func TestSidecarMCPEndpointTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, "toolsearch test CA")
	srvCert, srvKey := ca.issue(t, "toolsearch", true)
	certFile, keyFile := writeFile(t, dir, "server.pem", srvCert), writeFile(t, dir, "server-key.pem", srvKey)
	addrs := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr logbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--mcp-listen", "127.0.0.1:0",
			"--tls-cert", certFile, "--tls-key", keyFile, "--catalog", "../../examples/catalog.json"}, env(nil), &stderr, hooks{mcpReady: addrs})
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d: %s", code, stderr.String())
		}
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("sidecar exited with %d: %s", code, stderr.String())
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("MCP endpoint not serving (hang guard)")
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.pem)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "https://" + addr.String() + "/mcp", HTTPClient: hc}, sessionMode)
	if err != nil {
		t.Fatal(err)
	}
	checkEndpointFlow(t, cs)
	cs.Close()
	if _, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr.String() + "/mcp", MaxRetries: -1}, nil); err == nil {
		t.Error("a plaintext client connected to the TLS endpoint")
	}
}
