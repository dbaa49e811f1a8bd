package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// Provider-native tool search: the Anthropic Messages protocol
// (defer_loading + tool_reference) and the OpenAI Responses protocol
// (tool_search + namespaces, tool_search_call → tool_search_output), with
// the sidecar as the search behind them.

// Search modes for [WithSearchMode].
const (
	// SearchPortable reveals tools by appending them to the list (every
	// provider and model). The default.
	SearchPortable = toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_PORTABLE
	// SearchNativeClient is the provider's native protocol with the
	// sidecar's search: answer tool_search with [Agent.AnthropicToolResult]
	// or [Agent.OpenAIToolSearchOutput].
	SearchNativeClient = toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT
	// SearchNativeHosted is the provider's native protocol with the
	// provider's own search; the agent has nothing to answer.
	SearchNativeHosted = toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_HOSTED
	// SearchAuto picks native client search where the provider and the
	// model ([WithModel]) support it, and portable elsewhere.
	SearchAuto = toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_AUTO
)

// WithSearchMode sets how the model finds deferred tools (default
// [SearchPortable]).
func WithSearchMode(m toolsearchv1.ToolSearchMode) AgentOption {
	return func(o *agentOptions) { o.searchMode = m }
}

// WithHostedSearch picks Anthropic's hosted search variant for
// [SearchNativeHosted]: BM25 (the default) or regex.
func WithHostedSearch(h toolsearchv1.HostedToolSearch) AgentOption {
	return func(o *agentOptions) { o.hosted = h }
}

// WithModel names the model the lists are for; [SearchAuto] decides from it.
func WithModel(model string) AgentOption {
	return func(o *agentOptions) { o.model = model }
}

// WithModelSupport adds a rule that [SearchAuto] checks before the
// sidecar's table: models whose name starts with prefix get mode
// ([SearchPortable], [SearchNativeClient] or [SearchNativeHosted]). Calls
// accumulate, first match wins.
func WithModelSupport(prefix string, mode toolsearchv1.ToolSearchMode) AgentOption {
	return func(o *agentOptions) {
		o.support = append(o.support, &toolsearchv1.ModelSupport{ModelPrefix: prefix, Mode: mode})
	}
}

// WithServerDescriptions gives servers' own descriptions (by server name)
// for the OpenAI Responses namespaces.
func WithServerDescriptions(d map[string]string) AgentOption {
	return func(o *agentOptions) { o.servers = d }
}

// WithResultFormat makes [Agent.HandleToolCall] name the tools it returns
// as the provider of format sees them (where the sidecar had to rename a
// tool for it, e.g. Gemini's leading letter), so the model can call them.
func WithResultFormat(format toolsearchv1.ToolFormat) AgentOption {
	return func(o *agentOptions) { o.resultFormat = format }
}

// anthropicToolResult is a Messages API tool_result block.
type anthropicToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   any    `json:"content"`
	IsError   bool   `json:"is_error,omitempty"`
}

type anthropicContent struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ToolName string `json:"tool_name,omitempty"`
}

// AnthropicToolResult answers the model's tool_search tool_use block in
// Anthropic native client mode: inputJSON is the block's input. It runs
// the search (revealing the tools to session, as HandleToolCall does) and
// returns the tool_result block to put in the next user message:
//
//	{"type":"tool_result","tool_use_id":"toolu_…","content":[
//	  {"type":"text","text":"Found 2 tools for \"send slack message\"; they are loaded: …"},
//	  {"type":"tool_reference","tool_name":"slack__send_message"}, …]}
//
// Each tool_reference names the tool as the request's tools array does
// (the provider name). A mistake the model can fix (bad arguments, a bad
// regular expression) gives a tool_result with is_error and the text of
// what to change; the error is for what the agent must handle.
func (a *Agent) AnthropicToolResult(ctx context.Context, session, toolUseID string, inputJSON json.RawMessage) (json.RawMessage, error) {
	found, fix, err := a.searchAndLoad(ctx, session, string(inputJSON), FormatAnthropic)
	if err != nil {
		return nil, err
	}
	if fix != "" {
		return marshalCompact(anthropicToolResult{Type: "tool_result", ToolUseID: toolUseID, Content: fix, IsError: true})
	}
	content := []anthropicContent{{Type: "text", Text: found.text()}}
	for _, n := range found.names {
		content = append(content, anthropicContent{Type: "tool_reference", ToolName: n})
	}
	return marshalCompact(anthropicToolResult{Type: "tool_result", ToolUseID: toolUseID, Content: content})
}

// openAIToolSearchOutput is a Responses API tool_search_output input item.
type openAIToolSearchOutput struct {
	Type      string          `json:"type"`
	CallID    string          `json:"call_id"`
	Execution string          `json:"execution"`
	Status    string          `json:"status"`
	Tools     json.RawMessage `json:"tools"`
}

// OpenAIToolSearchOutput answers a tool_search_call output item in OpenAI
// Responses native client mode: callJSON is the item as the response
// carried it ({"type":"tool_search_call","call_id":…,"arguments":…}). It
// runs the search (revealing the tools to session) and returns the
// tool_search_output item to append to the next request's input, with the
// same call_id and the found tools in the Responses shape (namespaces by
// server, as in the request's tools array):
//
//	{"type":"tool_search_output","call_id":"call_…","execution":"client","status":"completed","tools":[{"type":"namespace",…}]}
//
// Arguments the model got wrong give an output with no tools (the item has
// no room for text); the error is for what the agent must handle, or a
// callJSON that is not a tool_search_call.
func (a *Agent) OpenAIToolSearchOutput(ctx context.Context, session string, callJSON json.RawMessage) (json.RawMessage, error) {
	var call struct {
		Type      string          `json:"type"`
		CallID    string          `json:"call_id"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(callJSON, &call); err != nil || call.Type != "tool_search_call" {
		return nil, fmt.Errorf("toolsearch: OpenAIToolSearchOutput: not a tool_search_call item: %.200s", callJSON)
	}
	args := string(call.Arguments)
	var s string
	if json.Unmarshal(call.Arguments, &s) == nil { // arguments sent as a JSON string
		args = s
	}
	found, _, err := a.searchAndLoad(ctx, session, args, FormatOpenAIResponses)
	if err != nil {
		return nil, err
	}
	tools := found.loaded
	if len(tools) == 0 {
		tools = json.RawMessage(`[]`)
	}
	return marshalCompact(openAIToolSearchOutput{Type: "tool_search_output", CallID: call.CallID, Execution: "client", Status: "completed", Tools: tools})
}

// searchResult is what a native search found.
type searchResult struct {
	query string
	// names are the found tools' provider names; summaries theirs.
	names, summaries []string
	// loaded is the loaded_tools_json of the found tools.
	loaded json.RawMessage
	hint   string
}

// text is the short text the model reads beside the tool references.
func (r searchResult) text() string {
	if len(r.names) == 0 {
		t := fmt.Sprintf("No tool matched %q.", r.query)
		if r.hint != "" {
			t += " " + r.hint
		}
		return t
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Found %d tools for %q; they are loaded and can be called now:", len(r.names), r.query)
	for i, n := range r.names {
		b.WriteString("\n- " + n)
		if r.summaries[i] != "" {
			b.WriteString(": " + r.summaries[i])
		}
	}
	return b.String()
}

// searchAndLoad runs a tool_search call's search for session and loads the
// found tools' definitions in format's native shape. fix is set (and the
// result empty) for a mistake the model can correct.
func (a *Agent) searchAndLoad(ctx context.Context, session, argumentsJSON string, format toolsearchv1.ToolFormat) (searchResult, string, error) {
	args, err := ParseSearchArguments([]byte(argumentsJSON))
	if err != nil {
		return searchResult{}, err.Error(), nil
	}
	resp, err := a.search(ctx, session, args)
	if err != nil {
		if c := status.Code(err); c == codes.InvalidArgument || c == codes.NotFound {
			return searchResult{}, status.Convert(err).Message(), nil
		}
		return searchResult{}, "", err
	}
	r := searchResult{query: args.Query, hint: resp.GetHint()}
	var catalogNames []string
	for _, ref := range resp.GetToolReferences() {
		catalogNames = append(catalogNames, ref.GetToolName())
		r.summaries = append(r.summaries, ref.GetSummary())
	}
	if len(catalogNames) == 0 {
		return r, "", nil
	}
	// The portable list is enough to load the found tools (their names and
	// definitions do not depend on the mode) and costs a fraction of the
	// native one, which holds the whole catalog.
	ts, err := a.client.raw.GetToolset(ctx, &toolsearchv1.GetToolsetRequest{
		SessionId:          session,
		Format:             format,
		SearchMode:         SearchPortable,
		DeferralThreshold:  1,
		ServerDescriptions: a.opts.servers,
		LoadTools:          catalogNames,
		VisibleTools:       a.visible(),
	})
	if err != nil {
		return searchResult{}, "", err
	}
	providerName := invert(ts.GetProviderNames())
	for _, n := range catalogNames {
		if p, ok := providerName[n]; ok {
			n = p
		}
		r.names = append(r.names, n)
	}
	r.loaded = json.RawMessage(ts.GetLoadedToolsJson())
	return r, "", nil
}

// search runs a parsed tool_search call for session.
func (a *Agent) search(ctx context.Context, session string, args SearchArguments) (*toolsearchv1.SearchResponse, error) {
	opts := append([]SearchOption{}, a.opts.search...)
	opts = append(opts,
		WithForModel(),
		WithSessionID(session),
		WithSearchType(args.SearchType),
		WithMaxResults(args.MaxResults),
		WithCategory(args.CategoryFilter),
		WithPageToken(args.PageToken),
	)
	return a.client.Search(ctx, args.Query, opts...)
}

// providerNamed renames resp's references to format's provider names, for
// HandleToolCall with WithResultFormat.
func (a *Agent) providerNamed(ctx context.Context, session string, resp *toolsearchv1.SearchResponse) (*toolsearchv1.SearchResponse, error) {
	var names []string
	for _, ref := range resp.GetToolReferences() {
		names = append(names, ref.GetToolName())
	}
	if len(names) == 0 {
		return resp, nil
	}
	ts, err := a.client.raw.GetToolset(ctx, &toolsearchv1.GetToolsetRequest{
		SessionId: session, Format: a.opts.resultFormat, DeferralThreshold: 1, LoadTools: names, VisibleTools: a.visible(),
	})
	if err != nil {
		return nil, err
	}
	providerName := invert(ts.GetProviderNames())
	if len(providerName) == 0 {
		return resp, nil
	}
	out := proto.Clone(resp).(*toolsearchv1.SearchResponse)
	for _, ref := range out.GetToolReferences() {
		if p, ok := providerName[ref.GetToolName()]; ok {
			ref.ToolName = p
		}
	}
	return out, nil
}

func invert(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

func marshalCompact(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("toolsearch: encode: %w", err)
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}
