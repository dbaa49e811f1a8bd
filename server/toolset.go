package server

import (
	"context"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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

// toolsetOptions converts a GetToolsetRequest's options; an unknown or
// unspecified format and an unknown mode are INVALID_ARGUMENT.
func toolsetOptions(in *toolsearchv1.GetToolsetRequest, maxResults int) (toolset.Options, error) {
	format, ok := toolFormats[in.GetFormat()]
	if !ok {
		return toolset.Options{}, status.Errorf(codes.InvalidArgument,
			"format %v is not supported; set TOOL_FORMAT_OPENAI_CHAT, TOOL_FORMAT_OPENAI_RESPONSES, TOOL_FORMAT_ANTHROPIC, TOOL_FORMAT_GEMINI or TOOL_FORMAT_MCP", in.GetFormat())
	}
	mode, ok := deferModes[in.GetDeferredMode()]
	if !ok {
		return toolset.Options{}, status.Errorf(codes.InvalidArgument,
			"deferred_mode %d is not known; use DEFERRED_TOOL_MODE_OMIT, DEFERRED_TOOL_MODE_REMINDER or DEFERRED_TOOL_MODE_STUB", in.GetDeferredMode())
	}
	return toolset.Options{
		Format:            format,
		AlwaysLoaded:      in.GetAlwaysLoaded(),
		DeferralThreshold: int(in.GetDeferralThreshold()),
		Defer:             mode,
		MaxResults:        maxResults,
	}, nil
}

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
	snap, revealed, err := e.Revealed(in.GetSessionId())
	if err != nil {
		return nil, toStatus(ctx, s.log, "GetToolset", err)
	}
	ts, err := toolset.Build(snap.Tools(), revealed, opts)
	if err != nil {
		return nil, toStatus(ctx, s.log, "GetToolset", err)
	}
	return &toolsearchv1.GetToolsetResponse{
		ToolsJson:      string(ts.Tools),
		ToolSearchJson: string(ts.SearchTool),
		SystemPrompt:   ts.SystemPrompt,
		LoadedTools:    ts.Loaded,
		DeferredCount:  int32(ts.Deferred),
		Deferring:      ts.Deferring,
		ProviderNames:  ts.Names,
		CatalogVersion: snap.Version(),
	}, nil
}

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
