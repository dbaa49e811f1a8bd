package search

import (
	"github.com/toolsearch/toolsearch/learn"
)

// Learned pinning (LearnConfig.Pin): the tools a learning scope uses in
// most sessions are sent in full on every turn of that scope's tool lists,
// and a provider's cap on deferred tools keeps the tools the scope used
// most. The decision is package learn's (learn.View.Pinned); this file
// keeps its result per scope, rebuilt with the learned index, and hands a
// tool list the part of it inside the list's visible tools.

// learnedPins are the pinned tools and learned evidence of every scope of
// one learn.View; immutable.
type learnedPins struct {
	byScope map[string]scopePins
}

// scopePins are one scope's pinned tools (most sessions first) and its
// tools' learned evidence.
type scopePins struct {
	pinned   []string
	evidence map[string]float64
}

// pinsOf computes the pins and evidence of every scope of v; pins only
// with cfg.Pin.
func pinsOf(v *learn.View, cfg LearnConfig) *learnedPins {
	p := &learnedPins{byScope: make(map[string]scopePins, len(v.Scopes()))}
	for _, sc := range v.Scopes() {
		var s scopePins
		for _, t := range v.Tools(sc) {
			if ev := v.Tool(sc, t).Evidence; ev > 0 {
				if s.evidence == nil {
					s.evidence = map[string]float64{}
				}
				s.evidence[t] = ev
			}
		}
		if cfg.Pin {
			for _, tv := range v.Pinned(sc, cfg.PinRule) {
				s.pinned = append(s.pinned, tv.Tool)
			}
		}
		p.byScope[sc] = s
	}
	return p
}

// ToolsetLearning is what learning contributes to one tool list. Each call
// of Engine.ToolsetLearning returns slices and a map of its own, which the
// caller may keep or modify.
type ToolsetLearning struct {
	// Scope is the learning scope of the list's visible tools.
	Scope string
	// Pinned are the tools learning pins in Scope (LearnConfig.Pin), most
	// sessions first, among the list's tools only; nil with pinning off.
	Pinned []string
	// Evidence is the learned evidence (learn.ToolView.Evidence) of the
	// list's tools in Scope, by name; tools without any are absent. A
	// provider's cap on deferred tools keeps the tools with the most.
	Evidence map[string]float64
}

// ToolsetLearning returns what learning contributes to a tool list built
// over tools, the visible tools of visible (as Scoped returns them): the
// pins and evidence of the learning scope a search with the same visible
// set (and no category filter) learns in, as of the last rebuild of the
// learned index. Nothing outside tools is returned. The zero value with
// learning off. Safe for concurrent use.
func (e *Engine) ToolsetLearning(visible []string, tools []Tool) ToolsetLearning {
	l := e.learner
	if l == nil {
		return ToolsetLearning{}
	}
	scope := e.learnScope(Request{Visible: visible})
	out := ToolsetLearning{Scope: scope}
	p := l.pins.Load()
	if p == nil {
		return out
	}
	sp := p.byScope[scope]
	if len(sp.pinned) == 0 && len(sp.evidence) == 0 {
		return out
	}
	in := make(map[string]bool, len(tools))
	for _, t := range tools {
		in[t.Name] = true
	}
	for _, n := range sp.pinned {
		if in[n] {
			out.Pinned = append(out.Pinned, n)
		}
	}
	for n, ev := range sp.evidence {
		if in[n] {
			if out.Evidence == nil {
				out.Evidence = map[string]float64{}
			}
			out.Evidence[n] = ev
		}
	}
	return out
}

// LearnedPinnedFor returns the tools learning pins in the learning scope
// of a search with visible set visible (and no category filter), most
// sessions first, as of the last rebuild of the learned index; nil with
// pinning or learning off. With LearnConfig.Shared every visible set
// shares one scope, so it may name tools outside visible: a caller lists
// only its visible tools (toolset.Build over them ignores the others).
// Unlike ToolsetLearning its cost does not grow with the catalog. Safe
// for concurrent use.
func (e *Engine) LearnedPinnedFor(visible []string) []string {
	if e.learner == nil {
		return nil
	}
	return e.LearnedPinned(e.learnScope(Request{Visible: visible}))
}

// LearnedPinned returns the tools learning pins in scope (a learning
// scope, as in learn.ToolView.Scope), most sessions first, as of the last
// rebuild of the learned index; nil with pinning or learning off. The
// slice is shared with every caller until the next rebuild: read it, never
// modify it (LearnedPinnedFor returns the same). Safe for concurrent use.
func (e *Engine) LearnedPinned(scope string) []string {
	if e.learner == nil {
		return nil
	}
	if p := e.learner.pins.Load(); p != nil {
		return p.byScope[scope].pinned
	}
	return nil
}
