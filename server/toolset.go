package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/protobuf/proto"
)

// Agent integration: a session's tool list for the next model call, and
// resetting a session.

// toolFormats maps the API's formats to package toolset's.
var toolFormats = map[toolsearchv1.ToolFormat]toolset.Format{
	toolsearchv1.ToolFormat_TOOL_FORMAT_OPENAI_CHAT:      toolset.OpenAIChat,
	toolsearchv1.ToolFormat_TOOL_FORMAT_OPENAI_RESPONSES: toolset.OpenAIResponses,
	toolsearchv1.ToolFormat_TOOL_FORMAT_ANTHROPIC:        toolset.Anthropic,
	toolsearchv1.ToolFormat_TOOL_FORMAT_GEMINI:           toolset.Gemini,
	toolsearchv1.ToolFormat_TOOL_FORMAT_MCP:              toolset.MCP,
}

// deferModes maps the API's deferral modes to package toolset's.
var deferModes = map[toolsearchv1.DeferredToolMode]toolset.DeferMode{
	toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_UNSPECIFIED: toolset.DeferOmit,
	toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_OMIT:        toolset.DeferOmit,
	toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_REMINDER:    toolset.DeferReminder,
	toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_STUB:        toolset.DeferStub,
}

// searchModes maps the API's search modes to package toolset's, both ways.
var searchModes = map[toolsearchv1.ToolSearchMode]toolset.SearchMode{
	toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_UNSPECIFIED:   toolset.SearchPortable,
	toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_PORTABLE:      toolset.SearchPortable,
	toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT: toolset.SearchNativeClient,
	toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_HOSTED: toolset.SearchNativeHosted,
	toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_AUTO:          toolset.SearchAuto,
}

var searchModesOut = map[toolset.SearchMode]toolsearchv1.ToolSearchMode{
	toolset.SearchPortable:     toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_PORTABLE,
	toolset.SearchNativeClient: toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT,
	toolset.SearchNativeHosted: toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_HOSTED,
}

var hostedSearches = map[toolsearchv1.HostedToolSearch]toolset.HostedSearch{
	toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_UNSPECIFIED: toolset.HostedBM25,
	toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_BM25:        toolset.HostedBM25,
	toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_REGEX:       toolset.HostedRegex,
}

// toolsetOptions converts a GetToolsetRequest's options; an unknown or
// unspecified format and an unknown mode are INVALID_ARGUMENT.
func toolsetOptions(in *toolsearchv1.GetToolsetRequest, maxResults int) (toolset.Options, error) {
	format, ok := toolFormats[in.GetFormat()]
	if !ok {
		return toolset.Options{}, statusf(errBadRequest,
			"format %v is not supported; set TOOL_FORMAT_OPENAI_CHAT, TOOL_FORMAT_OPENAI_RESPONSES, TOOL_FORMAT_ANTHROPIC, TOOL_FORMAT_GEMINI or TOOL_FORMAT_MCP", in.GetFormat())
	}
	mode, ok := deferModes[in.GetDeferredMode()]
	if !ok {
		return toolset.Options{}, statusf(errBadRequest,
			"deferred_mode %d is not known; use DEFERRED_TOOL_MODE_OMIT, DEFERRED_TOOL_MODE_REMINDER or DEFERRED_TOOL_MODE_STUB", in.GetDeferredMode())
	}
	if in.GetDeferredMode() == toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_UNSPECIFIED {
		mode = "" // the sidecar's default (--deferral-mode), else omit
	}
	search, ok := searchModes[in.GetSearchMode()]
	if !ok {
		return toolset.Options{}, statusf(errBadRequest,
			"search_mode %d is not known; use TOOL_SEARCH_MODE_PORTABLE, TOOL_SEARCH_MODE_NATIVE_CLIENT, TOOL_SEARCH_MODE_NATIVE_HOSTED or TOOL_SEARCH_MODE_AUTO", in.GetSearchMode())
	}
	hosted, ok := hostedSearches[in.GetHostedSearch()]
	if !ok {
		return toolset.Options{}, statusf(errBadRequest,
			"hosted_search %d is not known; use HOSTED_TOOL_SEARCH_BM25 or HOSTED_TOOL_SEARCH_REGEX", in.GetHostedSearch())
	}
	var support []toolset.SupportRule
	for i, r := range in.GetModelSupport() {
		m, ok := searchModes[r.GetMode()]
		if !ok || m == toolset.SearchAuto || r.GetMode() == toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_UNSPECIFIED || r.GetModelPrefix() == "" {
			return toolset.Options{}, statusf(errBadRequest,
				"model_support[%d] needs a model_prefix and a mode of TOOL_SEARCH_MODE_PORTABLE, TOOL_SEARCH_MODE_NATIVE_CLIENT or TOOL_SEARCH_MODE_NATIVE_HOSTED", i)
		}
		support = append(support, toolset.SupportRule{Format: format, Prefix: r.GetModelPrefix(),
			Client: m == toolset.SearchNativeClient, Hosted: m == toolset.SearchNativeHosted})
	}
	return toolset.Options{
		Format:             format,
		AlwaysLoaded:       in.GetAlwaysLoaded(),
		DeferralThreshold:  int(in.GetDeferralThreshold()),
		Defer:              mode,
		MaxResults:         maxResults,
		Search:             search,
		Hosted:             hosted,
		Model:              in.GetModel(),
		Support:            support,
		ServerDescriptions: in.GetServerDescriptions(),
		Load:               in.GetLoadTools(),
	}, nil
}

// toolsetReserve is the part of the message size GetToolset keeps for what
// toolset.Build does not count (protobuf framing of every field, the
// loaded-tool names, the catalog version): 16 KiB is several times what
// a 500-tool native list's framing takes.
const toolsetReserve = 16 << 10

// GetToolset returns the session's tool list for the next model call.
func (s *Service) GetToolset(ctx context.Context, in *toolsearchv1.GetToolsetRequest) (*toolsearchv1.GetToolsetResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	opts, err := toolsetOptions(in, e.MaxResultsCap())
	if err != nil {
		return nil, err
	}
	opts = s.toolsetDefaults.Apply(opts)
	opts.MaxBytes = max(s.maxMessageSize-toolsetReserve, s.maxMessageSize/2)
	opts.Cache = s.toolsets
	snap, tools, revealed, err := e.Scoped(in.GetSessionId(), in.GetVisibleTools())
	if err != nil {
		return nil, toStatus(ctx, s.log, "GetToolset", err)
	}
	// Learning's part, inside the visible tools only: the tools pinned in
	// this scope (with --learn-pin), and the use that picks the deferred
	// tools kept under a provider's cap.
	learned := e.ToolsetLearning(in.GetVisibleTools(), tools)
	opts.LearnedPinned, opts.Use = learned.Pinned, learned.Evidence
	ts, err := toolset.Build(tools, revealed, opts)
	if errors.Is(err, toolset.ErrTooLarge) {
		err = fmt.Errorf("%w; the sidecar's message limit is %d bytes: raise --max-message-size on the sidecar (and the client's receive limit), or ask for fewer always_loaded tools", err, s.maxMessageSize)
	}
	if err != nil {
		return nil, toStatus(ctx, s.log, "GetToolset", err)
	}
	resp := &toolsearchv1.GetToolsetResponse{
		ToolsJson:          string(ts.Tools),
		ToolSearchJson:     string(ts.SearchTool),
		SystemPrompt:       ts.SystemPrompt,
		LoadedTools:        ts.Loaded,
		DeferredCount:      int32(ts.Deferred),
		Deferring:          ts.Deferring,
		ProviderNames:      ts.Names,
		CatalogVersion:     snap.Version(),
		SearchMode:         searchModesOut[ts.Search],
		SearchModeReason:   ts.SearchReason,
		LoadedToolsJson:    string(ts.LoadedTools),
		LearnedPinnedTools: ts.LearnedPinned,
	}
	if dl := ts.DeferredLimit; dl.Omitted > 0 {
		resp.DeferredLimit = &toolsearchv1.DeferredLimit{Limit: int32(dl.Limit), Omitted: int32(dl.Omitted), Rule: dl.Rule}
	}
	for _, c := range ts.Changes {
		resp.Changes = append(resp.Changes, &toolsearchv1.ToolsetChange{ToolName: c.Tool, Kind: string(c.Kind), Detail: c.Detail})
	}
	for _, o := range ts.Omitted {
		resp.OmittedTools = append(resp.OmittedTools, &toolsearchv1.OmittedTool{ToolName: o.Tool, Reason: o.Reason})
	}
	if n := proto.Size(resp); n > s.maxMessageSize { // toolset.Build kept under MaxBytes; this is the last check
		return nil, tooLarge(toolsearchv1.ToolSearchService_GetToolset_FullMethodName, n, s.maxMessageSize)
	}
	logToolset(ctx, s.log, in, ts)
	return resp, nil
}

// logToolset logs what GetToolset changed or left out, one line per call
// that changed anything: counts by kind and the first tools.
func logToolset(ctx context.Context, log *slog.Logger, in *toolsearchv1.GetToolsetRequest, ts toolset.Toolset) {
	if len(ts.Changes) == 0 && len(ts.Omitted) == 0 {
		return
	}
	kinds := map[string]int{}
	for _, c := range ts.Changes {
		kinds[string(c.Kind)]++
	}
	var first []string
	for _, c := range ts.Changes {
		if len(first) == logFirstChanges {
			break
		}
		first = append(first, fmt.Sprintf("%s: %s (%s)", c.Tool, c.Kind, c.Detail))
	}
	var omitted []string
	for _, o := range ts.Omitted {
		if len(omitted) == logFirstChanges {
			break
		}
		omitted = append(omitted, o.Tool+": "+o.Reason)
	}
	log.InfoContext(ctx, "toolset adapted for the provider", "format", in.GetFormat().String(), "search_mode", string(ts.Search),
		"session_id", in.GetSessionId(), "changes", len(ts.Changes), "changes_by_kind", kinds, "first_changes", first,
		"omitted", len(ts.Omitted), "first_omitted", omitted)
}

// logFirstChanges is how many changes (and omissions) a GetToolset log
// line spells out; the response carries all of them.
const logFirstChanges = 5

// ResetSession forgets a session's revealed tools.
func (s *Service) ResetSession(ctx context.Context, in *toolsearchv1.ResetSessionRequest) (*toolsearchv1.ResetSessionResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	existed, err := e.ResetSession(in.GetSessionId())
	if err != nil {
		return nil, toStatus(ctx, s.log, "ResetSession", err)
	}
	return &toolsearchv1.ResetSessionResponse{Existed: existed}, nil
}
