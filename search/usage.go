package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/query"
)

// The usage-report API of learning from use: how it is configured
// (LearnConfig), what an agent reports (ToolUse → UseReport), and the
// engine's learning methods. What is learned is indexed by the background
// learner (learner.go) and ranks in the learned stage (learned.go).

// LearnConfig turns learning from use on. The zero value (no Store) leaves
// it off.
type LearnConfig struct {
	// Store holds what is learned; nil turns learning off.
	Store *learn.Store
	// ReportRate and ReportBurst limit ReportToolUse per session (uses
	// per second, and at once); 0 means learn.DefaultReportRate and
	// learn.DefaultReportBurst.
	ReportRate  float64
	ReportBurst int
	// Sync rebuilds the learned index before ReportToolUse, ResetLearned
	// and ImportLearned return, instead of in the background (tests, and
	// eval's replay, which must see each report at once).
	Sync bool
	// Now is the rate limiter's clock, for tests; nil means time.Now.
	Now func() time.Time
	// Shared makes every scope learn together. By default each learning
	// scope — a request's visible set and category filter (learnScope) —
	// learns apart: one agent's usage never changes the ranking of an
	// agent configured with another scope.
	Shared bool
	// Pin turns learned pinning on: the tools a scope uses in most of its
	// sessions (PinRule) are sent in full on every turn of that scope's
	// tool lists (pin.go, ToolsetLearning).
	Pin bool
	// PinRule decides which tools are pinned; its zero value is the
	// learn package's defaults (learn.DefaultPinShare, shown with
	// learn.PinConfidenceLevel; learn.DefaultPinMinSessions,
	// learn.MaxPinnedPerScope).
	PinRule learn.PinRule
}

// maxScopeKey is the longest learning scope kept readable; a longer one
// (a large visible set) is replaced by a hash of it.
const maxScopeKey = 200

// learnScope is the learning scope of req: "" for a request without a
// visible set or category filter (or with LearnConfig.Shared), else
// "visible=NAMES;category=C" with the visible names sorted and
// deduplicated, or "sha256:" and 16 hex digits of it when longer than
// maxScopeKey. Requests with the same scope learn together.
func (e *Engine) learnScope(req Request) string {
	if e.learner == nil || e.learner.cfg.Shared || (len(req.Visible) == 0 && req.Category == "") {
		return ""
	}
	vis := slices.Clone(req.Visible)
	slices.Sort(vis)
	vis = slices.Compact(vis)
	key := "visible=" + strings.Join(vis, ",")
	if req.Category != "" {
		key += ";category=" + strings.ToLower(req.Category)
	}
	if len(key) > maxScopeKey {
		sum := sha256.Sum256([]byte(key))
		key = "sha256:" + hex.EncodeToString(sum[:8])
	}
	return key
}

// Outcome is how a reported tool call went.
type Outcome string

// Outcomes. A success teaches fully, an unknown outcome half, an error
// nothing.
const (
	OutcomeSuccess Outcome = "success"
	OutcomeError   Outcome = "error"
	OutcomeUnknown Outcome = "unknown"
)

// outcomeWeight is how much a use with outcome o teaches.
func outcomeWeight(o Outcome) float64 {
	switch o {
	case OutcomeSuccess:
		return 1
	case OutcomeUnknown, "":
		return 0.5
	}
	return 0
}

// ToolUse is one report that an agent's model called a tool.
type ToolUse struct {
	// SessionID is the session whose searches revealed the tool.
	SessionID string
	// Tool is the called tool's full name.
	Tool string
	// Outcome is how the call went ("" means OutcomeUnknown).
	Outcome Outcome
	// Query, when set, credits the use to the session's searches with this
	// query only; "" credits the latest searches that returned the tool.
	Query string
}

// UseReport says what a ToolUse taught.
type UseReport struct {
	// Recorded is set when the use taught the tool something.
	Recorded bool
	// Queries are the queries it was credited to, newest first.
	Queries []string
	// Miss is set when no search of the session returned the tool and the
	// use was credited to the session's newest search as a miss
	// (learn.Attribute): that wording should have found the tool.
	Miss bool
	// Reason says why nothing was recorded: "learning_disabled",
	// "unknown_session", "not_revealed" (no search of the session had a
	// query to credit, or the tool's earlier use in the session was
	// already credited as a miss), "error_outcome" or
	// "session_bound" (the session already taught this tool all it may) or
	// "miss_bound" (the use was a miss of a tool that already learned all
	// it may by misses, learn.Config.MaxMissQueriesPerTool: its session
	// still counts among the tool's and its scope's, for learned pinning);
	// "" when recorded.
	Reason string
}

// The reasons of UseReport.
const (
	ReasonLearningDisabled = "learning_disabled"
	ReasonUnknownSession   = "unknown_session"
	ReasonNotRevealed      = "not_revealed"
	ReasonErrorOutcome     = "error_outcome"
	ReasonSessionBound     = "session_bound"
	ReasonMissBound        = "miss_bound"
)

// Learning reports whether learning from use is on.
func (e *Engine) Learning() bool { return e.learner != nil }

// ReportToolUse records that the model of session u.SessionID called
// u.Tool.
// Bad input (empty session id or tool, unknown outcome) wraps
// ErrInvalidArgument; a tool the catalog does not have wraps ErrNotFound;
// a session over its report rate wraps ErrRateLimited. With learning off,
// an unknown or expired session, or a tool no search of the session
// returned, the report is a no-op that says why (UseReport.Reason). Safe
// for concurrent use.
func (e *Engine) ReportToolUse(ctx context.Context, u ToolUse) (UseReport, error) {
	switch {
	case u.SessionID == "":
		return UseReport{}, invalid(fmt.Errorf("session_id is empty; pass the session id the searches carried"))
	case u.Tool == "":
		return UseReport{}, invalid(fmt.Errorf("tool_name is empty; pass the full name of the tool the model called"))
	case len(u.Query) > MaxQueryLength:
		return UseReport{}, invalid(fmt.Errorf("query is %d bytes long; use at most %d", len(u.Query), MaxQueryLength))
	}
	switch u.Outcome {
	case "", OutcomeSuccess, OutcomeError, OutcomeUnknown:
	default:
		return UseReport{}, invalid(fmt.Errorf("outcome %q: use success, error or unknown", u.Outcome))
	}
	if err := checkSessionID(u.SessionID); err != nil {
		return UseReport{}, err
	}
	if _, ok := e.Snapshot().Lookup(u.Tool); !ok {
		return UseReport{}, notFound(fmt.Errorf("tool %q is not in the catalog; report the full name the search returned", u.Tool))
	}
	l := e.learner
	if l == nil {
		return UseReport{Reason: ReasonLearningDisabled}, nil
	}
	if !l.limit.Allow(u.SessionID) {
		return UseReport{}, fmt.Errorf("session %q reports tool uses faster than %.3g per second: %w", u.SessionID, l.rate, ErrRateLimited)
	}
	normalized := ""
	if u.Query != "" {
		q, err := query.Parse(u.Query)
		if err != nil {
			return UseReport{}, invalid(fmt.Errorf("query: %w", err))
		}
		normalized = learn.NormalizeQuery(q.RankingText())
	}
	w := outcomeWeight(u.Outcome)
	if w == 0 {
		// A failed call teaches nothing, and does not count as a use that
		// shares its query with the tools used after it.
		return UseReport{Reason: ReasonErrorOutcome}, nil
	}
	credits, found := e.sessions.attribute(u.SessionID, u.Tool, normalized)
	switch {
	case !found:
		return UseReport{Reason: ReasonUnknownSession}, nil
	case len(credits) == 0:
		return UseReport{Reason: ReasonNotRevealed}, nil
	}
	rep := UseReport{}
	changed, counted := false, false
	at := l.now()
	for _, c := range credits {
		use := learn.Use{Scope: c.Scope, Tool: u.Tool, Query: c.Query, Session: u.SessionID, Weight: w * c.Weight, Miss: c.Miss}
		switch l.store.Record(use) {
		case learn.Ignored:
			continue
		case learn.Learned:
			rep.Recorded = true
			rep.Queries = append(rep.Queries, c.Query)
			rep.Miss = rep.Miss || c.Miss
		case learn.Counted:
			counted = true
		}
		// Learned, or only Counted (a miss past the tool's bound on
		// queries learned by misses): either way the session now counts
		// among the tool's, so the fleet replays the use and counts it too.
		changed = true
		e.publishUse(use, at)
	}
	switch {
	case rep.Recorded:
	case counted:
		rep.Reason = ReasonMissBound
	default:
		rep.Reason = ReasonSessionBound
	}
	if !changed {
		return rep, nil
	}
	return rep, e.learnChanged(ctx)
}

// ResetLearned forgets what tool learned ("" forgets everything) and
// returns how many tools had learned something. Safe for concurrent use.
func (e *Engine) ResetLearned(ctx context.Context, tool string) (int, error) {
	if e.learner == nil {
		return 0, nil
	}
	n := 0
	if tool == "" {
		n = e.learner.store.ResetAll()
	} else if e.learner.store.Reset(tool) {
		n = 1
	}
	if e.cfg.Fleet != nil {
		e.cfg.Fleet.PublishReset(tool, e.learner.now())
	}
	return n, e.learnChanged(ctx)
}

// RefreshLearned rebuilds the learned index from the store now (it is
// otherwise rebuilt in the background after each change). Call it after
// changing Config.Learn.Store directly (Import, Pull, Load).
func (e *Engine) RefreshLearned(ctx context.Context) error {
	if e.learner == nil {
		return nil
	}
	return e.learner.rebuild(ctx, e)
}

// learnChanged rebuilds the learned index now (LearnConfig.Sync) or wakes
// the background rebuild.
func (e *Engine) learnChanged(ctx context.Context) error {
	if e.learner.cfg.Sync {
		return e.learner.rebuild(ctx, e)
	}
	e.learner.nudge()
	return nil
}

// recordSearch remembers a search, in learning scope scope, for
// attribution when learning is on — a dead end with no references too: a
// tool the session uses after it is credited to it as a miss.
func (e *Engine) recordSearch(req Request, p *plan, res Result, scope string) {
	if e.learner == nil || req.SessionID == "" || p == nil {
		return
	}
	switch res.Metadata.SearchType {
	case ModeBrowse, ModeSelect, ModeRegex:
		return // no query words to learn (a pattern is not a wording)
	}
	names := make([]string, len(res.References))
	for i, r := range res.References {
		names[i] = r.Name
	}
	e.sessions.recordSearch(req.SessionID, scope, learn.NormalizeQuery(p.query.RankingText()), names)
}

// LearnedView returns what the engine has learned, as of now (nil when
// learning is off). Safe for concurrent use.
func (e *Engine) LearnedView() *learn.View {
	if e.learner == nil {
		return nil
	}
	return e.learner.store.View()
}

// LearnConfig returns the engine's learning configuration (its Store is
// nil when learning is off).
func (e *Engine) LearnConfig() LearnConfig {
	if e.learner == nil {
		return LearnConfig{}
	}
	return e.learner.cfg
}
