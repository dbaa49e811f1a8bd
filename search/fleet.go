package search

import (
	"context"
	"time"

	"github.com/toolsearch/toolsearch/learn"
)

// Fleet shares what this engine changes with the other sidecars of a
// fleet (store/postgres implements it): catalog changes made through
// Upsert and Delete, uses learned through ReportToolUse, and resets. Its
// methods must not block — implementations buffer and write in the
// background — and must be safe for concurrent use. What other pods shared
// comes back through Apply (catalog) and LearnFromFleet (learning).
type Fleet interface {
	// PublishChange shares an Upsert (upsert) or a Delete (del).
	PublishChange(upsert []Tool, del []string)
	// PublishUse shares a use the engine learned (learn.Use's fields) at
	// time at.
	PublishUse(scope, tool, query, session string, weight float64, miss bool, at time.Time)
	// PublishReset shares ResetLearned(tool) ("" is everything).
	PublishReset(tool string, at time.Time)
}

// FleetEvent is a use or a reset another pod of the fleet learned.
type FleetEvent struct {
	// Reset marks a reset of Tool ("" resets everything); the other
	// fields but At are then empty.
	Reset bool
	// Session, Scope, Tool, Query, Weight and Miss are the use
	// (learn.Use): a miss counts toward the tool's bound on queries
	// learned by misses on this pod too.
	Session, Scope, Tool, Query string
	Weight                      float64
	Miss                        bool
	// At is when the other pod learned it.
	At time.Time
}

// FleetStats says what LearnFromFleet did with a batch of events.
type FleetStats struct {
	// Recorded counts uses that taught something and Resets the resets
	// applied.
	Recorded, Resets int
	// Counted counts uses that taught nothing but counted their session
	// among the tool's and its scope's (learn.Counted: a miss of a tool
	// that already learned all it may by misses), as on the pod that
	// learned them.
	Counted int
	// Ignored counts uses that taught nothing under the session bounds
	// (the session already gave its one vote, on this pod or another).
	Ignored int
	// Refused counts events learn.CheckRecord refuses (no tool, query or
	// time, a weight that is not positive, a time past
	// learn.MaxClockSkew in the future). A use's weight is clamped to one
	// session's, 1. (No use is refused for its session's report rate: the
	// pod that learned it admitted it under that rate.)
	Refused int
}

// LearnFromFleet records what other pods learned, in order, under the same
// rules as this pod's own reports: every event is checked with
// learn.CheckRecord (what a database row could hold that no pod writes is
// refused or clamped); one session is one vote per tool however many pods
// it reported to (learn.Store.Record keeps the count per session); and a
// session's reports on other pods take from its report rate here, so the
// rate limits count the fleet (each pod's view of it: a session spreading
// reports over n pods is limited once each pod has read the others').
// A replayed use is never refused for that rate — the pod that learned it
// admitted it, and a pod that dropped it would learn less than the others
// (a pod starting replays the whole log at once) — it charges the
// session's bucket at the time it was learned (learn.Limiter.Charge), one
// token per report (the uses of one report share their session and time,
// publishUse), so the limit falls on the session's next reports here.
// With learning off it does nothing. Safe for concurrent use.
func (e *Engine) LearnFromFleet(ctx context.Context, events []FleetEvent) (FleetStats, error) {
	var st FleetStats
	l := e.learner
	if l == nil || len(events) == 0 {
		return st, nil
	}
	now := l.now()
	// charged is the report last charged to its session's rate: the uses
	// of one report are published together, under one time.
	var charged struct {
		session string
		at      time.Time
	}
	for _, ev := range events {
		if ev.Reset {
			if ev.At.After(now.Add(learn.MaxClockSkew)) {
				st.Refused++
			} else {
				if ev.Tool == "" {
					l.store.ResetAll()
				} else {
					l.store.Reset(ev.Tool)
				}
				st.Resets++
			}
			continue
		}
		// The one validation of learned state from outside the live path.
		r, _, err := learn.CheckRecord(learn.Record{Scope: ev.Scope, Tool: ev.Tool, Query: ev.Query, Weight: ev.Weight, At: ev.At, Sessions: 1}, now)
		if err != nil {
			st.Refused++
			continue
		}
		if ev.Session != charged.session || !ev.At.Equal(charged.at) {
			charged.session, charged.at = ev.Session, ev.At
			l.limit.Charge(ev.Session, ev.At)
		}
		switch l.store.Record(learn.Use{Scope: r.Scope, Tool: r.Tool, Query: r.Query, Session: ev.Session, Weight: r.Weight, Miss: ev.Miss, At: r.At}) {
		case learn.Learned:
			st.Recorded++
		case learn.Counted:
			st.Counted++
		default:
			st.Ignored++
		}
	}
	if st.Recorded+st.Counted+st.Resets == 0 {
		return st, nil
	}
	return st, e.learnChanged(ctx)
}

// publishUse shares a use this engine learned or counted with the fleet,
// if any. Every use that changed this pod's store is published — a miss
// past the tool's bound counts its session though it teaches no query —
// and each pod replays it under the same rules, so every pod counts the
// sessions one pod that saw every use would (which queries a tool keeps
// past its bounds may depend on the order uses reach a pod; the counts do
// not).
//
// at is when the use was learned: every use of one report shares it, so
// the pods that replay them charge the session's report rate once.
func (e *Engine) publishUse(u learn.Use, at time.Time) {
	if e.cfg.Fleet != nil {
		e.cfg.Fleet.PublishUse(u.Scope, u.Tool, u.Query, u.Session, u.Weight, u.Miss, at)
	}
}

// now is the learner's clock (LearnConfig.Now, or time.Now).
func (l *learner) now() time.Time {
	if l.cfg.Now != nil {
		return l.cfg.Now()
	}
	return time.Now()
}
