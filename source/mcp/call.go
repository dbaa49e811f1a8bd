package mcp

import (
	"context"
	"encoding/json"
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

// CallOptions are the optional parts of one forwarded call; nil or the
// zero value is a plain call. CallTool reads them and never modifies them;
// they must not change while a call that was given them runs (OnProgress
// is called from the SDK's goroutines, one notification at a time).
type CallOptions struct {
	// OnProgress, when not nil, receives the call's progress
	// notifications, one at a time, never after CallTool returns (a
	// notification the SDK had not dispatched when the result arrived is
	// dropped: the result supersedes it).
	OnProgress func(*mcp.ProgressNotificationParams)
	// InputResponses and RequestState retry a call whose result asked for
	// input (MCP 2026-07-28 multi round trip, SEP-2322: a result with
	// NeedsInput): the answers to its InputRequests by their ids, and its
	// RequestState echoed as the server minted it. Both are sent as they
	// are; the server judges them.
	InputResponses mcp.InputResponseMap
	RequestState   string
	// ClientCapabilities, when not empty, is the JSON object of the
	// capabilities of the client the call is made for. A server of MCP
	// 2026-07-28 or newer gets it in the call's _meta
	// ("io.modelcontextprotocol/clientCapabilities") instead of the
	// manager's own (which declare no elicitation and no sampling), so
	// that it asks only for input that client can give. A server of an
	// older protocol read the capabilities once, at initialize, and is
	// sent nothing.
	ClientCapabilities json.RawMessage
}

// CallTool forwards tools/call for the catalog tool named name (the
// namespaced catalog name, e.g. "everything__echo") to the live server it
// came from, with the server's own tool name, and opts' progress callback
// and retry fields (opts may be nil). Cancelling ctx cancels the call at
// the server (notifications/cancelled). A W3C trace context in ctx
// (internal/tracecontext) is sent on in the request's _meta
// ("traceparent", "tracestate"), as MCP's trace propagation has it.
//
// A result that asks for input (NeedsInput: an MCP 2026-07-28 server's
// inputRequests — elicitation, sampling, roots — and its requestState) is
// returned as it is: the manager's client answers none of them itself
// (its SDK's automatic multi-round-trip middleware is off), so the caller
// passes them to its own client and retries with CallOptions (whose
// ClientCapabilities lets a 2026-07-28 server know what that client can
// answer). A server of
// an older protocol that sends elicitation or sampling requests during a
// call is told that this client does not support them (the manager's
// client declares neither capability); its roots/list gets the empty
// list of roots (the SDK's default client answer).
//
// Errors wrap ErrServerUnavailable (server down or not connected) or
// ErrUnknownTool (no live server provides that tool); a tool's own failure
// is a result with IsError set, not an error.
func (m *Manager) CallTool(ctx context.Context, name string, args map[string]any, opts *CallOptions) (*mcp.CallToolResult, error) {
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
	if opts == nil {
		opts = &CallOptions{}
	}
	params := &mcp.CallToolParams{Name: own, Arguments: args, InputResponses: opts.InputResponses, RequestState: opts.RequestState}
	if len(opts.ClientCapabilities) > 0 && sess.InitializeResult().ProtocolVersion >= StatelessProtocolVersion {
		params.Meta = setMeta(params.Meta, mcp.MetaKeyClientCapabilities, opts.ClientCapabilities)
	}
	if tc, ok := tracecontext.FromContext(ctx); ok {
		for k, v := range tc.Fields() {
			params.Meta = setMeta(params.Meta, k, v)
		}
	}
	if onProgress := opts.OnProgress; onProgress != nil {
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

// StatelessProtocolVersion is the first MCP version without sessions
// (2026-07-28, SEP-2575), whose requests carry the client's capabilities
// in _meta. The MCP endpoint (mcpserver.StatelessProtocolVersion) serves
// requests of this version or newer in stateless mode.
const StatelessProtocolVersion = "2026-07-28"

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
