package learn

import "time"

// View is an immutable copy of a Store's learned state, safe for
// concurrent use by any number of readers.
type View struct {
	// Version is the store's Version when the view was taken.
	Version uint64
	names   []string
	tools   map[string]*ToolView
}

// ToolView is what one tool has learned. It must not be modified.
type ToolView struct {
	// Tool is the tool's full name.
	Tool string
	// Queries are its learned queries, heaviest first (then by text).
	Queries []Query
	// Weight is the sum of the queries' decayed weights: the evidence
	// behind the tool's learned signal.
	Weight float64
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

// Tools returns the names of the tools that learned something, sorted.
// The slice must not be modified.
func (v *View) Tools() []string {
	if v == nil {
		return nil
	}
	return v.names
}

// Tool returns what tool learned, or nil.
func (v *View) Tool(tool string) *ToolView {
	if v == nil {
		return nil
	}
	return v.tools[tool]
}

// Len is the number of tools that learned something.
func (v *View) Len() int {
	if v == nil {
		return 0
	}
	return len(v.names)
}
