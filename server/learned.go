package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// outcomes maps the API's tool-use outcomes to the engine's; unspecified
// is refused (a report says how the call went).
var outcomes = map[toolsearchv1.ToolUseOutcome]search.Outcome{
	toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS: search.OutcomeSuccess,
	toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_ERROR:   search.OutcomeError,
	toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_UNKNOWN: search.OutcomeUnknown,
}

// ReportToolUse records that a session's model called a tool (learning
// from use; a documented no-op when learning is off).
func (s *Service) ReportToolUse(ctx context.Context, in *toolsearchv1.ReportToolUseRequest) (*toolsearchv1.ReportToolUseResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	outcome, ok := outcomes[in.GetOutcome()]
	if !ok {
		return nil, toStatus(ctx, s.log, "ReportToolUse", fmt.Errorf("outcome %v: set SUCCESS, ERROR or UNKNOWN: %w", in.GetOutcome(), errBadRequest))
	}
	rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: in.GetSessionId(), Tool: in.GetToolName(), Outcome: outcome, Query: in.GetQuery()})
	if err != nil {
		return nil, toStatus(ctx, s.log, "ReportToolUse", err)
	}
	s.metrics.observeToolUse(rep)
	return &toolsearchv1.ReportToolUseResponse{Recorded: rep.Recorded, Queries: rep.Queries, Reason: rep.Reason, Miss: rep.Miss}, nil
}

// GetLearned lists what tools learned from use.
func (s *Service) GetLearned(ctx context.Context, in *toolsearchv1.GetLearnedRequest) (*toolsearchv1.GetLearnedResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	out := &toolsearchv1.GetLearnedResponse{Learning: e.Learning()}
	if e.Learning() {
		cfg := e.LearnConfig()
		r := cfg.PinRule.WithDefaults()
		out.Pin = &toolsearchv1.LearnPin{Enabled: cfg.Pin, Share: r.Share, MinSessions: int32(r.MinSessions), MaxPerScope: int32(r.Max)}
	}
	v := e.LearnedView()
	learnedTool := func(tv *learn.ToolView) *toolsearchv1.LearnedTool {
		t := learnedTool(tv)
		t.ScopeSessions = int32(v.ScopeSessions(tv.Scope))
		t.Pinned = slices.Contains(e.LearnedPinned(tv.Scope), tv.Tool)
		return t
	}
	if name := in.GetToolName(); name != "" {
		tvs := v.Find(name)
		if len(tvs) == 0 {
			return nil, toStatus(ctx, s.log, "GetLearned", fmt.Errorf("tool %q has learned nothing (check the name, and that the sidecar runs with --learn): %w", name, search.ErrNotFound))
		}
		for _, tv := range tvs {
			out.Tools = append(out.Tools, learnedTool(tv))
		}
		return out, nil
	}
	for _, sc := range v.Scopes() {
		for _, t := range v.Tools(sc) {
			out.Tools = append(out.Tools, learnedTool(v.Tool(sc, t)))
		}
	}
	return out, nil
}

func learnedTool(tv *learn.ToolView) *toolsearchv1.LearnedTool {
	t := &toolsearchv1.LearnedTool{ToolName: tv.Tool, Weight: tv.Weight, Scope: tv.Scope, Sessions: int32(tv.Sessions)}
	for _, q := range tv.Queries {
		t.Queries = append(t.Queries, &toolsearchv1.LearnedQuery{Query: q.Text, Weight: q.Weight, LastUsedUnix: q.LastUsed.Unix()})
	}
	return t
}

// ResetLearned forgets what one tool, or every tool, learned.
func (s *Service) ResetLearned(ctx context.Context, in *toolsearchv1.ResetLearnedRequest) (*toolsearchv1.ResetLearnedResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	if (in.GetToolName() == "") == !in.GetAll() {
		return nil, toStatus(ctx, s.log, "ResetLearned", fmt.Errorf("set tool_name to forget one tool's learned state, or all to forget everything, not both: %w", errBadRequest))
	}
	n, err := e.ResetLearned(ctx, in.GetToolName())
	if err != nil {
		return nil, toStatus(ctx, s.log, "ResetLearned", err)
	}
	return &toolsearchv1.ResetLearnedResponse{Tools: int32(n)}, nil
}
