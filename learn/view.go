package learn

import "time"

// View is an immutable copy of a Store's learned state, safe for
// concurrent use by any number of readers. A nil *View has learned
// nothing.
type View struct {
	// Version is the store's Version when the view was taken.
	Version uint64
	scopes  []string
	names   map[string][]string // scope → tools, sorted
	tools   map[toolKey]*ToolView
	// scopeSessions are the sessions counted per scope (Store.scopes).
	scopeSessions map[string]int
}

// ToolView is what one tool has learned in one scope. It must not be
// modified.
type ToolView struct {
	// Scope is the learning scope ("" is the unscoped one).
	Scope string
	// Tool is the tool's full name.
	Tool string
	// Queries are its learned queries, heaviest first (then by text).
	Queries []Query
	// Weight is the sum of the queries' decayed weights.
	Weight float64
	// Sessions is the number of sessions behind them: counted live,
	// claimed by imported records.
	Sessions int
	// Live is true once a live session of this process taught the tool.
	Live bool
	// Evidence is the weight ranking may use: Weight, at most Sessions
	// (each session adds at most 1), and 0 for state that was only
	// imported with the claim of fewer than two sessions (the two-session
	// rule, minImportedSessions). Without imports it equals Weight.
	Evidence float64
}

// Query is one learned query.
type Query struct {
	// Text is the query, normalized (NormalizeQuery).
	Text string
	// Weight is its decayed weight: about the number of sessions whose
	// successful use it explains, discounted by age.
	Weight float64
	// LastUsed is when a use last reinforced it.
	LastUsed time.Time
}

// Scopes returns the scopes that learned something, sorted ("" first).
// The slice must not be modified.
func (v *View) Scopes() []string {
	if v == nil {
		return nil
	}
	return v.scopes
}

// Tools returns the names of the tools that learned something in scope,
// sorted. The slice must not be modified.
func (v *View) Tools(scope string) []string {
	if v == nil {
		return nil
	}
	return v.names[scope]
}

// Tool returns what tool learned in scope, or nil.
func (v *View) Tool(scope, tool string) *ToolView {
	if v == nil {
		return nil
	}
	return v.tools[toolKey{scope, tool}]
}

// Find returns what tool learned in every scope, by scope.
func (v *View) Find(tool string) []*ToolView {
	var out []*ToolView
	for _, sc := range v.Scopes() {
		if tv := v.Tool(sc, tool); tv != nil {
			out = append(out, tv)
		}
	}
	return out
}

// Len is the number of tools that learned something, counted once per
// scope.
func (v *View) Len() int {
	if v == nil {
		return 0
	}
	return len(v.tools)
}
