package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	mcpsource "github.com/toolsearch/toolsearch/source/mcp"
)

// Caller forwards tool calls to the live MCP servers the catalog's tools
// came from. Package source/mcp's *Manager implements it (errors wrapping
// its ErrServerUnavailable and ErrUnknownTool get their own messages).
// Implementations must be safe for concurrent use.
type Caller interface {
	// CallTool forwards tools/call for the catalog tool named name
	// (namespaced, e.g. "everything__echo") to the live server it came
	// from. opts (nil for none) holds a callback for the server's progress
	// notifications and, for the retry of a call whose result asked for
	// input, the answers and the server's requestState. A result that
	// asks for input (NeedsInput) is returned as the server sent it.
	// Cancelling ctx cancels the call.
	CallTool(ctx context.Context, name string, args map[string]any, opts *mcpsource.CallOptions) (*mcp.CallToolResult, error)
	// Serves reports whether a live MCP server provides the catalog tool
	// name.
	Serves(name string) bool
}

// DefaultCallTimeout is the default budget of one forwarded tool call:
// most MCP tools answer in seconds, and a minute lets slow ones (a web
// fetch, a build) finish while a hung server still frees the model's turn.
const DefaultCallTimeout = time.Minute

// forward calls the catalog tool name through the Caller and returns the
// server's result as is (content, structuredContent, isError). What the
// model must know (no server behind the tool, the server is down, the call
// timed out) comes back as a tool error; only the client's own
// cancellation is a protocol error.
//
// A result over Config.InlineOutput is kept for read_output and answered
// with a preview (keepLarge); kept reports it. proxied is set for
// call_tool, whose caller holds no outputSchema of the tool: a structured
// result of a tool called by its own name is never kept.
func (s *Server) forward(ctx context.Context, req *mcp.CallToolRequest, name string, proxied bool) (res *mcp.CallToolResult, kept bool, err error) {
	record(ctx).target = name
	res, err = s.forwardCall(ctx, req, name)
	if err != nil || res == nil || res.IsError || res.NeedsInput() {
		return res, false, err
	}
	structured := false
	if !proxied {
		snap := s.cfg.Engine.Snapshot()
		if i, ok := snap.Lookup(name); ok {
			structured = len(snap.Tool(i).OutputSchema) > 0
		}
	}
	out := s.keepLarge(req.Params.Name, res, structured)
	return out, out != res && !out.IsError, nil
}

// forwardCall is forward without keeping large results.
func (s *Server) forwardCall(ctx context.Context, req *mcp.CallToolRequest, name string) (*mcp.CallToolResult, error) {
	args, err := callArguments(req.Params.Arguments)
	if err != nil {
		return toolError("%s: %v", req.Params.Name, err), nil
	}
	if s.cfg.Caller == nil || !s.cfg.Caller.Serves(name) {
		return toolError("%s comes from a tool catalog file, not from a live MCP server, so this MCP endpoint cannot run it: "+
			"the agent must execute it itself (its definition is in the tool list).", req.Params.Name), nil
	}
	opts := &mcpsource.CallOptions{InputResponses: req.Params.InputResponses, ClientCapabilities: clientCapabilities(req)}
	if sealed := req.Params.RequestState; sealed != "" {
		state, err := s.openState(name, args, sealed, time.Now())
		if err != nil {
			return toolError("%s: this retry's requestState was refused: %v. Call the tool again without inputResponses "+
				"and requestState; if it needs input again, answer that and retry with the requestState it returns.", req.Params.Name, err), nil
		}
		opts.RequestState = state
	}
	tctx := withTrace(ctx, req)
	if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
		opts.OnProgress = func(p *mcp.ProgressNotificationParams) {
			if p == nil {
				return
			}
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: p.Progress, Total: p.Total, Message: p.Message,
			})
			if err != nil {
				s.log.Debug("mcp: passing progress on", "tool", name, "error", err.Error())
			}
		}
	}
	start := time.Now()
	// Each call of the live server has its own timeout; the client's
	// answers to its input requests (a person may be answering) do not
	// count against it.
	var res *mcp.CallToolResult
	timedOut := false
	for round := 1; ; round++ {
		cctx, cancel := context.WithTimeout(tctx, s.cfg.CallTimeout)
		res, err = s.cfg.Caller.CallTool(cctx, name, args, opts)
		timedOut = cctx.Err() != nil
		cancel()
		if err != nil || res == nil || !res.NeedsInput() {
			break
		}
		if clientTakesInput(req) {
			return s.asInputRequired(res, name, args), nil
		}
		// A session-mode client: ask it, then call again.
		switch {
		case len(res.InputRequests) == 0:
			return toolError("%s: its MCP server is busy (it asked to be called again later); try again in a moment.", req.Params.Name), nil
		case req.Session == nil:
			return toolError("%s needs input from the client (elicitation, sampling or roots), which this connection cannot ask for.", req.Params.Name), nil
		case round >= maxInputRounds:
			return toolError("%s: its MCP server kept asking for input (%d rounds); call it again, or with more detail in the arguments.",
				req.Params.Name, round), nil
		}
		answers, ferr := fulfilInput(ctx, req.Session, res.InputRequests)
		if ferr != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return toolError("%s needs input that your client could not give (%v): its MCP server asked for it "+
				"(elicitation, sampling or roots), and this client does not provide it.", req.Params.Name, ferr), nil
		}
		opts.InputResponses, opts.RequestState = answers, res.RequestState
	}
	switch {
	case err == nil && res == nil:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		// The client cancelled (notifications/cancelled) or went away.
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded) || timedOut:
		return toolError("%s did not answer within %v, so the call was cancelled; try again, or with less work per call.",
			req.Params.Name, s.cfg.CallTimeout), nil
	}
	s.log.Warn("mcp: forwarding a tool call failed", "tool", name, "elapsed", time.Since(start).String(), "error", err.Error())
	switch {
	case errors.Is(err, mcpsource.ErrServerUnavailable):
		return toolError("%s could not be called: its MCP server is down or restarting (%v). Try again in a minute, or search for another tool.",
			req.Params.Name, err), nil
	case errors.Is(err, mcpsource.ErrUnknownTool):
		return toolError("%s could not be called: its MCP server no longer provides it (%v). Search again for a tool that does this.",
			req.Params.Name, err), nil
	}
	return toolError("%s could not be called: %v. Its MCP server may be down or restarting; try again later, or search for another tool.",
		req.Params.Name, err), nil
}

// callArguments decodes a call's arguments: absent or null is no
// arguments, anything but a JSON object is an error.
func callArguments(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) == 0 || string(raw) == "null" {
		return args, nil
	}
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		return nil, errors.New("arguments must be a JSON object of the tool's parameters")
	}
	return args, nil
}

// toolError is a tool result with isError set and the formatted text: the
// model sees it and can correct itself.
func toolError(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}},
		IsError: true,
	}
}

// The Manager of package source/mcp is the sidecar's Caller.
var _ Caller = (*mcpsource.Manager)(nil)

// withTrace returns ctx carrying the W3C trace context of the request's
// _meta (traceparent, tracestate), when it has a valid one and ctx none
// yet: the Caller passes it on to the live server, so the forwarded call
// joins the host's trace.
func withTrace(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if _, ok := tracecontext.FromContext(ctx); ok {
		return ctx
	}
	meta := req.Params.GetMeta()
	tc, ok := tracecontext.FromHeaders(func(k string) string {
		v, _ := meta[k].(string)
		return v
	})
	if !ok {
		return ctx
	}
	return tracecontext.NewContext(ctx, tc)
}
