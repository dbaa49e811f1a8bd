package main

import (
	"net"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/embed"
	"google.golang.org/grpc"
)

// hooks are what a test passes to run to observe and steer one sidecar,
// so that tests can run side by side; the zero value is production's.
type hooks struct {
	// ready, when not nil, receives the gRPC address once the sidecar
	// reports SERVING.
	ready chan<- net.Addr
	// mcpReady, when not nil, receives the MCP listener's address once it
	// serves.
	mcpReady chan<- net.Addr
	// serverOptions are added to the gRPC server's options (an interceptor
	// that holds searches in flight, to test draining).
	serverOptions []grpc.ServerOption
	// stdioTransport makes --mcp-stdio's transport; nil: the process's
	// stdin and stdout.
	stdioTransport func() mcp.Transport
	// readFile reads the cgroup's memory-limit files and /proc/self/status
	// (the file-backed pages, setGoMemoryLimit); nil: os.ReadFile.
	readFile func(string) ([]byte, error)
	// startPullTimeout bounds the start-up pull of --learn-from; 0:
	// learnStartPullTimeout.
	startPullTimeout time.Duration
	// wrapEmbedder, when not nil, wraps the embedding model inside the
	// caches (a slow embedder, for the fleet's start-up measurement).
	wrapEmbedder func(embed.Embedder) embed.Embedder
}
