package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
)

// CallTool forwards tools/call for the catalog tool named name (the
// namespaced catalog name, e.g. "everything__echo") to the live server it
// came from, with the server's own tool name. onProgress, when not nil,
// receives that call's progress notifications, one at a time, never after
// CallTool returns (a notification the SDK had not dispatched when the
// result arrived is dropped: the result supersedes it); cancelling ctx
// cancels the call at the server (notifications/cancelled). A W3C trace
// context in ctx (internal/tracecontext) is sent on in the request's _meta
// ("traceparent", "tracestate"), as MCP's trace propagation has it. Errors wrap
// ErrServerUnavailable (server down or not connected) or ErrUnknownTool (no
// live server provides that tool); a tool's own failure is a result with
// IsError set, not an error.
func (m *Manager) CallTool(ctx context.Context, name string, args map[string]any, onProgress func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	s, own, ok := m.lookup(name)
	if !ok {
		return nil, fmt.Errorf("tool %q: %w", name, ErrUnknownTool)
	}
	s.mu.Lock()
	sess, state := s.session, s.st.State
	s.mu.Unlock()
	if sess == nil {
		return nil, fmt.Errorf("tool %q: mcp server %q is %s: %w", name, s.cfg.Name, state, ErrServerUnavailable)
	}
	params := &mcp.CallToolParams{Name: own, Arguments: args}
	if tc, ok := tracecontext.FromContext(ctx); ok {
		for k, v := range tc.Fields() {
			params.Meta = setMeta(params.Meta, k, v)
		}
	}
	if onProgress != nil {
		token := "toolsearch-" + strconv.FormatUint(m.nextToken.Add(1), 10)
		params.SetProgressToken(token)
		var mu sync.Mutex
		returned := false
		m.progress.Store(token, func(p *mcp.ProgressNotificationParams) {
			mu.Lock()
			defer mu.Unlock()
			if !returned {
				onProgress(p)
			}
		})
		defer func() {
			m.progress.Delete(token)
			mu.Lock()
			returned = true
			mu.Unlock()
		}()
	}
	res, err := sess.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() == nil && (errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)) {
			return nil, fmt.Errorf("tool %q: mcp server %q went away during the call: %w (%v)", name, s.cfg.Name, ErrServerUnavailable, err)
		}
		return nil, fmt.Errorf("tool %q on mcp server %q: %w", name, s.cfg.Name, err)
	}
	return res, nil
}

// setMeta sets key in meta, allocating it when nil.
func setMeta(meta mcp.Meta, key string, v any) mcp.Meta {
	if meta == nil {
		meta = mcp.Meta{}
	}
	meta[key] = v
	return meta
}

// Serves reports whether a live MCP server known to the manager (connected
// or not: a server in its grace period still counts) provides the catalog
// tool name.
func (m *Manager) Serves(name string) bool {
	_, _, ok := m.lookup(name)
	return ok
}

// lookup finds the server of a catalog tool name and the server's own name
// for the tool.
func (m *Manager) lookup(name string) (*server, string, bool) {
	prefix, _, ok := strings.Cut(name, catalog.NamespaceSeparator)
	if !ok {
		return nil, "", false
	}
	s, ok := m.servers[prefix]
	if !ok {
		return nil, "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	own, ok := s.tools[name]
	return s, own, ok
}
