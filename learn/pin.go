package learn

import (
	"cmp"
	"slices"
	"strings"
)

// Learned pinning: the tools a learning scope uses in most of its sessions
// become always-loaded for that scope (opt-in: the sidecar's --learn-pin),
// so that its agents stop paying a search on turn one for tools they
// always need. The decision reads only what the store already keeps: per
// tool, the distinct sessions that used it (ToolView.Sessions, one vote per
// session), and per scope the distinct sessions that used any of its tools
// (View.ScopeSessions).

// DefaultPinShare is the default share of a scope's sessions that must have
// used a tool for learning to pin it: half ("most sessions", inclusive).
// Measured on the dev-set replays with a scope per server
// (docs/benchmarks.md, "Learned pinning"): with this share and
// DefaultPinMinSessions, 61 % (bfcl) and 75 % (stabletoolbench) of the
// pinned definitions sent to a held-out session were used by it (bfcl
// 87 % while sessions past a tool's bound on misses went uncounted; a
// share of 0.6 pins what 0.5 did then); share
// 0.25 with 3 sessions pins 4–5 times more tools, used in 38 % / 71 %;
// share 0.1 with 2 sessions, 19 times more, used in 21 % / 66 %. With
// every session in one scope the default pins nothing on any dev set.
const DefaultPinShare = 0.5

// DefaultPinMinSessions is the default least number of distinct sessions
// that must have used a tool for learning to pin it. Below five sessions a
// share is noise (2 of 3 sessions is 67 %), and it keeps one session — or
// four colluding ones — from pinning anything: a session is one vote per
// tool however many uses it reports (Store.Record).
const DefaultPinMinSessions = 5

// MaxPinnedPerScope bounds the tools learning pins in one scope: each
// pinned tool's full definition is sent on every turn (about 150–400
// tokens for a typical tool, docs/benchmarks.md), and a model chooses
// worse among many loaded tools; eight pinned tools cost at most a few
// thousand tokens a turn. Past it, the tools with the most sessions (then
// the first by name) are pinned.
const MaxPinnedPerScope = 8

// PinRule decides which tools learning pins. The zero value of each field
// means its default. A PinRule is a plain value, safe to copy and to share
// between goroutines.
type PinRule struct {
	// Share is the least share of the scope's sessions, in (0, 1], that
	// used a tool; 0 means DefaultPinShare.
	Share float64
	// MinSessions is the least number of distinct sessions that used a
	// tool; 0 means DefaultPinMinSessions. Values below 2 count as 2: one
	// session never pins a tool.
	MinSessions int
	// Max bounds the pinned tools per scope; 0 (or more than
	// MaxPinnedPerScope) means MaxPinnedPerScope.
	Max int
}

// WithDefaults returns r with its zero fields set to their defaults and
// every field within its bounds.
func (r PinRule) WithDefaults() PinRule {
	if !(r.Share > 0) {
		r.Share = DefaultPinShare
	}
	r.Share = min(r.Share, 1)
	if r.MinSessions <= 0 {
		r.MinSessions = DefaultPinMinSessions
	}
	r.MinSessions = max(r.MinSessions, 2)
	if r.Max <= 0 || r.Max > MaxPinnedPerScope {
		r.Max = MaxPinnedPerScope
	}
	return r
}

// ScopeSessions is the number of distinct sessions that used a tool of
// scope: counted live, claimed by imported records (their scope_sessions),
// and at least the sessions of each of the scope's tools (state saved
// before scope_sessions existed counts its most-used tool's, a lower
// bound).
func (v *View) ScopeSessions(scope string) int {
	if v == nil {
		return 0
	}
	n := v.scopeSessions[scope]
	for _, t := range v.names[scope] {
		n = max(n, v.tools[toolKey{scope, t}].Sessions)
	}
	return n
}

// Pinned returns the tools learning pins in scope under rule r (defaults
// applied): the tools with learned evidence (ToolView.Evidence > 0: live,
// or imported with the claim of two sessions) that at least
// r.MinSessions distinct sessions used, and at least r.Share of the
// scope's sessions; at most r.Max of them, the most sessions first (then
// by name). A nil view pins nothing.
func (v *View) Pinned(scope string, r PinRule) []*ToolView {
	if v == nil {
		return nil
	}
	r = r.WithDefaults()
	total := v.ScopeSessions(scope)
	var out []*ToolView
	for _, t := range v.names[scope] {
		tv := v.tools[toolKey{scope, t}]
		if tv.Evidence > 0 && tv.Sessions >= r.MinSessions && float64(tv.Sessions) >= r.Share*float64(total) {
			out = append(out, tv)
		}
	}
	slices.SortFunc(out, func(a, b *ToolView) int {
		if c := cmp.Compare(b.Sessions, a.Sessions); c != 0 {
			return c
		}
		return strings.Compare(a.Tool, b.Tool)
	})
	return out[:min(len(out), r.Max)]
}
