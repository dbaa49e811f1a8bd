package learn

import (
	"cmp"
	"math"
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

// DefaultPinShare is the default share of a scope's sessions that a tool
// must be shown to be used by, with PinConfidenceLevel, for learning to pin
// it: half ("most sessions", inclusive). What is compared with it is not
// the observed share but its lower confidence bound (PinShareBound), so
// "most sessions" means most with confidence: 19 of 36 sessions (53 %,
// bound 0.42) is not most, 6 of 8 (75 %, bound 0.52) and 30 of 36 (bound
// 0.74) are. Measured on the dev-set replays with a scope per server
// (docs/benchmarks.md, "Learned pinning"): with this share,
// DefaultPinMinSessions and the bound, 89 % (bfcl, 40 of 45) and 75 %
// (stabletoolbench) of the pinned definitions sent to a held-out session
// were used by it; comparing the observed share instead, bfcl's were used
// in 61 % (57 of 94: gorilla_file_system__cd was used in 19 of its scope's
// 36 learned sessions, 11 of 41 held-out ones). Share 0.25 with 3 sessions
// pins 4 times more tools, used in 49 % / 71 %; share 0.1 with 2 sessions,
// 17–19 times more, used in 27 % / 66 %. With every session in one scope
// the default pins nothing on any dev set.
const DefaultPinShare = 0.5

// PinConfidenceLevel is the confidence with which a tool's share of its
// scope's sessions must be shown to reach the rule's share (a one-sided
// bound), and PinConfidenceZ its normal quantile: Φ(1.2816) = 0.90.
//
// A scope's sessions so far are a sample of those to come; a pin sent to
// a session that does not use the tool costs its definition on every turn,
// and a pin not made costs a session that needs the tool one search turn.
// Pinning on a share that could as well be a coin toss's (19 of 36) costs
// more than it saves; demanding near certainty delays every pin. 90 % is
// the usual "reasonably sure" for a decision that undoes itself (a tool is
// unpinned once its bound falls under the share). Measured on the replays
// (bfcl with a scope per server; stabletoolbench pins the same 2 tools,
// 75 %, for every z up to 1.96): z 0.84–1.0 pins 5 tools, used in 87 % of
// held-out session-pins (46 / 53); 1.28, 4 in 89 % (40 / 45); 1.645, 3 in
// 94 % (33 / 35); 1.96, 2 in 100 % (29 / 29). Counting a search turn saved
// (~230 tokens) per held-out session that used a pin against the
// definitions sent to those that did not, over three turns a session,
// every z from 0.84 to 1.645 nets +6,700 to +6,900 tokens and the observed
// share −3,200: the result is flat across that range, and 90 % is taken
// as the convention, not to pin or unpin one tool.
const (
	PinConfidenceLevel = 0.90
	PinConfidenceZ     = 1.2816
)

// PinShareBound is the lower bound of the Wilson score interval, at
// PinConfidenceZ, of the share of a scope's sessions that use a tool, given
// that sessions of scopeSessions used it: the share learned pinning
// compares with PinRule.Share. (Wilson's rather than the normal
// approximation's, which is the observed share itself at 5 of 5, or the
// exact Clopper–Pearson bound's, stricter than its level and without a
// closed form.) It is 0 without sessions, grows towards the
// observed share as sessions accumulate (never above it), and for a tool
// every session used is n/(n+z²): 0.75 for 5 of 5, 0.92 for 20 of 20, so a
// share of s can be shown from z²·s/(1−s) sessions all using the tool (2
// for 0.5, 15 for 0.9), and a share of 1 never.
func PinShareBound(sessions, scopeSessions int) float64 {
	return wilsonLower(sessions, scopeSessions, PinConfidenceZ)
}

// wilsonLower is the lower bound of the Wilson score interval at z of the
// share k of n (z ≤ 0: the share itself).
func wilsonLower(k, n int, z float64) float64 {
	if n <= 0 || k <= 0 {
		return 0
	}
	k = min(k, n)
	p := float64(k) / float64(n)
	if !(z > 0) {
		return p
	}
	nf, z2 := float64(n), z*z
	lo := (p + z2/(2*nf) - z*math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))) / (1 + z2/nf)
	return max(0, min(lo, p))
}

// DefaultPinMinSessions is the default least number of distinct sessions
// that must have used a tool for learning to pin it. The confidence bound
// (PinShareBound) already discounts a share of few sessions (2 of 3 is
// 67 %, bound 0.30), but would pin a tool 2 of 2 sessions used (bound
// 0.55): the minimum is the guard the bound is not, against sessions that
// are no sample — it keeps one session, or four colluding ones, from
// pinning anything (a session is one vote per tool however many uses it
// reports, Store.Record).
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
	// Share is the least share of the scope's sessions, in (0, 1), that
	// must be shown to use a tool: its lower confidence bound
	// (PinShareBound) must reach Share. 0 means DefaultPinShare; 1 (or
	// more) pins nothing, as no count of sessions shows that every
	// session to come uses a tool.
	Share float64
	// MinSessions is the least number of distinct sessions that used a
	// tool; 0 means DefaultPinMinSessions. Values below 2 count as 2: one
	// session never pins a tool.
	MinSessions int
	// Max bounds the pinned tools per scope; 0 (or more than
	// MaxPinnedPerScope) means MaxPinnedPerScope.
	Max int
	// Z is the confidence of the bound, a one-sided normal quantile: 0
	// means PinConfidenceZ, and a negative Z compares the observed share
	// itself (the rule before the bound, kept for the replays that
	// measure it).
	Z float64
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
	if r.Z == 0 || math.IsNaN(r.Z) {
		r.Z = PinConfidenceZ
	}
	return r
}

// Pins reports whether a tool that sessions of the scope's scopeSessions
// used is pinned under r (defaults applied), before the bound on pins per
// scope: at least r.MinSessions sessions, and a lower confidence bound of
// its share (at r.Z) that reaches r.Share.
func (r PinRule) Pins(sessions, scopeSessions int) bool {
	r = r.WithDefaults()
	return sessions >= r.MinSessions && wilsonLower(sessions, scopeSessions, r.Z) >= r.Share
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
// scope's sessions with confidence (PinRule.Pins); at most r.Max of them,
// the most sessions first (then by name). A nil view pins nothing.
func (v *View) Pinned(scope string, r PinRule) []*ToolView {
	if v == nil {
		return nil
	}
	r = r.WithDefaults()
	total := v.ScopeSessions(scope)
	var out []*ToolView
	for _, t := range v.names[scope] {
		tv := v.tools[toolKey{scope, t}]
		if tv.Evidence > 0 && r.Pins(tv.Sessions, total) {
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
