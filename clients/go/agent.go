package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// SearchToolName is the name of the tool_search tool in every toolset: when
// the model calls a tool of this name, pass the call's arguments to
// [Agent.HandleToolCall].
const SearchToolName = "tool_search"

// Provider formats for [Agent.Tools].
const (
	// FormatOpenAIChat is the OpenAI Chat Completions tools array.
	FormatOpenAIChat = toolsearchv1.ToolFormat_TOOL_FORMAT_OPENAI_CHAT
	// FormatOpenAIResponses is the OpenAI Responses API tools array.
	FormatOpenAIResponses = toolsearchv1.ToolFormat_TOOL_FORMAT_OPENAI_RESPONSES
	// FormatAnthropic is the Anthropic Messages API tools array.
	FormatAnthropic = toolsearchv1.ToolFormat_TOOL_FORMAT_ANTHROPIC
	// FormatGemini is the Gemini tools array (one Tool with every function
	// declaration).
	FormatGemini = toolsearchv1.ToolFormat_TOOL_FORMAT_GEMINI
	// FormatMCP is the tools array of an MCP tools/list result.
	FormatMCP = toolsearchv1.ToolFormat_TOOL_FORMAT_MCP
)

// Agent does an agent's side of tool search, over a [Client]: before each
// model call, [Agent.Tools] returns the tool list to send (tool_search, the
// always-loaded tools, and the tools the session's searches revealed); when
// the model calls tool_search, [Agent.HandleToolCall] runs the search,
// which reveals the tools it finds to the session, and returns the result
// to hand back to the model. The sidecar keeps the session's state, so an
// Agent holds only its options and is safe for concurrent use, by any
// number of sessions.
type Agent struct {
	client *Client
	opts   agentOptions
}

// An AgentOption configures an [Agent].
type AgentOption func(*agentOptions)

type agentOptions struct {
	alwaysLoaded []string
	threshold    int32
	mode         toolsearchv1.DeferredToolMode
	search       []SearchOption
	searchMode   toolsearchv1.ToolSearchMode
	hosted       toolsearchv1.HostedToolSearch
	model        string
	support      []*toolsearchv1.ModelSupport
	servers      map[string]string
	resultFormat toolsearchv1.ToolFormat
}

// WithAlwaysLoaded names tools sent in full on every turn: exact names,
// "server:*", "category:NAME" or "prefix*" patterns, in the order given.
// Calls accumulate.
func WithAlwaysLoaded(names ...string) AgentOption {
	return func(o *agentOptions) { o.alwaysLoaded = append(o.alwaysLoaded, names...) }
}

// WithDeferralThreshold sets the number of catalog tools from which tools
// are deferred; below it every tool is sent. 0 (the default) means the
// sidecar's default, 15; 1 always defers.
func WithDeferralThreshold(n int) AgentOption {
	return func(o *agentOptions) { o.threshold = clampInt32(n) }
}

// WithDeferredMode sets how deferred tools appear: omitted (the default),
// named in a reminder in the system prompt addition, or listed as stubs.
func WithDeferredMode(m toolsearchv1.DeferredToolMode) AgentOption {
	return func(o *agentOptions) { o.mode = m }
}

// WithAgentSearchOptions adds options to every search HandleToolCall runs,
// e.g. [WithVisibleTools] to scope what the model may find (the tool lists
// of [Agent.Tools] are then built from the visible tools alone). The
// session id and the model's arguments are set by HandleToolCall itself.
func WithAgentSearchOptions(opts ...SearchOption) AgentOption {
	return func(o *agentOptions) { o.search = append(o.search, opts...) }
}

// NewAgent returns an agent helper calling the sidecar through c.
func NewAgent(c *Client, opts ...AgentOption) *Agent {
	a := &Agent{client: c}
	for _, opt := range opts {
		if opt != nil {
			opt(&a.opts)
		}
	}
	return a
}

// Toolset is the tool list for a model's next call.
type Toolset struct {
	// Tools is the JSON array to send as the request's tools.
	Tools json.RawMessage
	// SearchTool is the tool_search definition alone, in the same format.
	SearchTool json.RawMessage
	// SystemPrompt is the text to append to the system prompt; it does not
	// change from turn to turn. "" when nothing is deferred.
	SystemPrompt string
	// Loaded are the catalog names of the tools sent in full, in order.
	Loaded []string
	// Deferred is the number of catalog tools not sent in full.
	Deferred int
	// ProviderNames maps names the provider sees to catalog names, where
	// they differ; see [Toolset.CatalogName].
	ProviderNames map[string]string
	// CatalogVersion is the version of the catalog the list was built from.
	CatalogVersion uint64
	// SearchMode is the search mode used ([SearchAuto] resolved), and
	// SearchModeReason why.
	SearchMode       toolsearchv1.ToolSearchMode
	SearchModeReason string
	// Changes are the rewrites the sidecar made to definitions so that the
	// provider accepts them (schema dialect, $refs, description caps,
	// renamed tools, trimming for size).
	Changes []*toolsearchv1.ToolsetChange
	// Omitted are the tools left out by a provider's tool-count limit or
	// the sidecar's message size, and why.
	Omitted []*toolsearchv1.OmittedTool
}

// CatalogName returns the catalog name of a tool the model called by name:
// the same name unless the sidecar had to rewrite it for the provider.
func (t *Toolset) CatalogName(providerName string) string {
	if n, ok := t.ProviderNames[providerName]; ok {
		return n
	}
	return providerName
}

// Tools returns the tool list to send with the model's next call, for
// session (the id that HandleToolCall passes on; "" for a list without
// revealed tools) in a provider's format. Each call's list starts with the
// previous call's list, so a provider's prompt cache keeps its prefix.
func (a *Agent) Tools(ctx context.Context, session string, format toolsearchv1.ToolFormat) (*Toolset, error) {
	resp, err := a.client.raw.GetToolset(ctx, &toolsearchv1.GetToolsetRequest{
		SessionId:          session,
		Format:             format,
		AlwaysLoaded:       a.opts.alwaysLoaded,
		DeferralThreshold:  a.opts.threshold,
		DeferredMode:       a.opts.mode,
		SearchMode:         a.opts.searchMode,
		HostedSearch:       a.opts.hosted,
		Model:              a.opts.model,
		ModelSupport:       a.opts.support,
		ServerDescriptions: a.opts.servers,
		VisibleTools:       a.visible(),
	})
	if err != nil {
		return nil, err
	}
	return &Toolset{
		Tools:            json.RawMessage(resp.GetToolsJson()),
		SearchTool:       json.RawMessage(resp.GetToolSearchJson()),
		SystemPrompt:     resp.GetSystemPrompt(),
		Loaded:           resp.GetLoadedTools(),
		Deferred:         int(resp.GetDeferredCount()),
		ProviderNames:    resp.GetProviderNames(),
		CatalogVersion:   resp.GetCatalogVersion(),
		SearchMode:       resp.GetSearchMode(),
		SearchModeReason: resp.GetSearchModeReason(),
		Changes:          resp.GetChanges(),
		Omitted:          resp.GetOmittedTools(),
	}, nil
}

// visible is the visible set the agent's search options give: its tool
// lists are scoped to the same tools as its searches.
func (a *Agent) visible() []string {
	var r toolsearchv1.SearchRequest
	for _, o := range a.opts.search {
		if o != nil {
			o(&r)
		}
	}
	return r.VisibleTools
}

// Reset forgets the tools revealed to session; its next list holds only
// the always-loaded tools.
func (a *Agent) Reset(ctx context.Context, session string) error {
	_, err := a.client.raw.ResetSession(ctx, &toolsearchv1.ResetSessionRequest{SessionId: session})
	return err
}

// ToolCalled tells the sidecar that the model of session called tool (its
// catalog name: pass a provider's name through [Toolset.CatalogName]) and
// how the call went: callErr nil is a success, anything else a failure.
// Call it once for each tool call the application executes, after running
// it. A sidecar started with --learn learns from it which tools agents
// use for which queries and ranks them higher for similar queries; one
// without --learn ignores it. Calls of tool_search itself are not
// reported. The error is for the agent's logs only (the sidecar
// unreachable, or a session reporting faster than the sidecar allows,
// RESOURCE_EXHAUSTED): a report that fails changes nothing else.
func (a *Agent) ToolCalled(ctx context.Context, session, tool string, callErr error) error {
	if tool == SearchToolName {
		return nil
	}
	outcome := toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS
	if callErr != nil {
		outcome = toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_ERROR
	}
	_, err := a.client.ReportToolUse(ctx, session, tool, outcome)
	return err
}

// HandleToolCall answers the model's tool_search call: argumentsJSON is the
// call's arguments as the model sent them ({"query": …, "search_type": …,
// "max_results": …, "category_filter": …}). It searches with the session's
// id, so the tools found are revealed to the session and are in the next
// [Agent.Tools] list, and returns the reference-format JSON of
// [RenderResult] to hand back to the model as the tool result. With
// [WithResultFormat], the references name the tools as that provider sees
// them.
//
// Mistakes the model can fix — arguments that are not a JSON object, a
// missing query, an unknown search_type, a query the sidecar rejects
// (INVALID_ARGUMENT, such as a bad regular expression) — are not Go errors:
// the result is then {"error": "…what to change…"} for the model to read
// and retry. The error is for what the agent must handle: the sidecar
// unreachable, a deadline, an internal error.
func (a *Agent) HandleToolCall(ctx context.Context, session, argumentsJSON string) (string, error) {
	args, err := ParseSearchArguments([]byte(argumentsJSON))
	if err != nil {
		return errorResult(err.Error()), nil
	}
	resp, err := a.search(ctx, session, args)
	if err != nil {
		if c := status.Code(err); c == codes.InvalidArgument || c == codes.NotFound {
			return errorResult(status.Convert(err).Message()), nil
		}
		return "", err
	}
	if a.opts.resultFormat != toolsearchv1.ToolFormat_TOOL_FORMAT_UNSPECIFIED {
		if resp, err = a.providerNamed(ctx, session, resp); err != nil {
			return "", err
		}
	}
	return RenderResult(resp)
}

// errorResult is the tool result for a call the model should correct.
func errorResult(msg string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Error string `json:"error"`
	}{msg})
	return strings.TrimSuffix(buf.String(), "\n")
}
