package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/toolset"
)

// mcpPath is the URL path of the streamable HTTP endpoint on --mcp-listen.
const mcpPath = "/mcp"

// mcpEndpoint is the running MCP endpoint: its HTTP listener (if any) and
// the end of its stdio session (if any).
type mcpEndpoint struct {
	srv *mcpserver.Server
	hs  *http.Server
	// httpDone is closed when the HTTP server stopped serving.
	httpDone chan struct{}
	// stdioDone receives the stdio session's end (nil channel without
	// --mcp-stdio, so a select on it blocks).
	stdioDone chan error
	addr      net.Addr
}

// startMCPEndpoint starts the MCP endpoint over engine: streamable HTTP on
// --mcp-listen (with the gRPC port's TLS and bearer token) and one stdio
// session with --mcp-stdio over the transport stdio makes (nil: the
// process's stdin and stdout). Without either it returns nil. caller
// forwards calls to live MCP servers (nil: none); metrics counts the
// endpoint's searches (nil: none); sessionBudget bounds the memory of its
// HTTP sessions (0: their number alone); lists are the tool lists'
// defaults.
func startMCPEndpoint(ctx context.Context, cfg config, engine *search.Engine, caller mcpserver.Caller, token string, log *slog.Logger,
	metrics *server.Metrics, sessionBudget int64, stdio func() mcp.Transport, lists toolset.Defaults) (*mcpEndpoint, error) {
	if cfg.mcpListen == "" && !cfg.mcpStdio {
		return nil, nil
	}
	var scopes map[string]mcpserver.Scope
	if cfg.mcpTokenScopes != "" {
		data, err := os.ReadFile(cfg.mcpTokenScopes)
		if err != nil {
			return nil, fmt.Errorf("--mcp-token-scopes: %w", err)
		}
		if scopes, err = mcpserver.ParseTokenScopes(data); err != nil {
			return nil, fmt.Errorf("--mcp-token-scopes %s: %w", cfg.mcpTokenScopes, err)
		}
	}
	srv, err := mcpserver.New(mcpserver.Config{
		Engine:         engine,
		Caller:         caller,
		Scope:          mcpserver.Scope{Visible: cfg.mcpVisible.values(), AlwaysLoaded: cfg.mcpAlwaysLoaded.values()},
		CallTimeout:    cfg.mcpCallTimeout,
		Toolset:        lists,
		MaxSessions:    cfg.maxSessions,
		SessionTimeout: cfg.sessionTTL,
		AuthToken:      token,
		TokenScopes:    scopes,
		SessionBudget:  sessionBudget,
		Version:        version,
		Log:            log,
		// MCP searches count with the gRPC ones, and log their query alike.
		OnSearch: metrics.ObserveSearch,
		LogQuery: cfg.queryLog.Attr,
	})
	if err != nil {
		return nil, err
	}
	ep := &mcpEndpoint{srv: srv}
	if cfg.mcpListen != "" {
		tc, err := tlsConfig(cfg)
		if err != nil {
			return nil, err
		}
		lis, err := net.Listen("tcp", cfg.mcpListen)
		if err != nil {
			return nil, fmt.Errorf("MCP listener on %s: %w (pick another address with --mcp-listen)", cfg.mcpListen, err)
		}
		mux := http.NewServeMux()
		mux.Handle(mcpPath, srv.Handler())
		ep.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, TLSConfig: tc,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		ep.httpDone = make(chan struct{})
		ep.addr = lis.Addr()
		go func() {
			defer close(ep.httpDone)
			var err error
			if tc != nil {
				err = ep.hs.ServeTLS(lis, "", "")
			} else {
				err = ep.hs.Serve(lis)
			}
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("MCP listener stopped", "error", err.Error())
			}
		}()
		scheme := "http"
		if tc != nil {
			scheme = "https"
		}
		log.Info("mcp listening", "url", fmt.Sprintf("%s://%s%s", scheme, lis.Addr(), mcpPath), "auth_token", token != "")
		if !isLoopback(cfg.mcpListen) && tc == nil && token == "" && len(scopes) == 0 {
			log.Warn("MCP endpoint beyond loopback in plaintext with no --auth-token-file: anything that reaches this address can search and call tools",
				"addr", lis.Addr().String())
		}
	}
	if cfg.mcpStdio {
		var t mcp.Transport = &mcp.StdioTransport{}
		if stdio != nil {
			t = stdio()
		}
		ep.stdioDone = make(chan error, 1)
		go func() { ep.stdioDone <- srv.Run(ctx, t) }()
		log.Info("mcp serving on stdio")
	}
	return ep, nil
}

// stop closes the endpoint: its sessions and the HTTP listener. Safe on a
// nil endpoint.
func (ep *mcpEndpoint) stop(timeout time.Duration) {
	if ep == nil {
		return
	}
	// Sessions hold open event streams that never go idle: close them
	// first, then the server drains the requests in flight.
	ep.srv.Close()
	if ep.hs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := ep.hs.Shutdown(ctx); err != nil {
		_ = ep.hs.Close()
	}
	<-ep.httpDone
}

// stdioEnded receives the stdio session's end; nil (blocks forever) on a
// nil endpoint or without --mcp-stdio.
func (ep *mcpEndpoint) stdioEnded() <-chan error {
	if ep == nil {
		return nil
	}
	return ep.stdioDone
}
