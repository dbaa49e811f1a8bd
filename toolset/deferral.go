package toolset

import (
	"bytes"
	"encoding/json"

	"github.com/toolsearch/toolsearch/catalog"
)

// DeferMode is how deferred tools (those neither always loaded nor
// revealed) appear in the next call.
type DeferMode string

// Deferral modes.
const (
	// DeferOmit leaves deferred tools out; the system prompt addition names
	// the catalog's servers and categories. The default, and the cheapest.
	DeferOmit DeferMode = "omit"
	// DeferReminder leaves them out of the tool list and names them in one
	// reminder text at the end of the system prompt addition (at most
	// ReminderMaxNames names). The reminder lists every deferrable tool of
	// the catalog, revealed or not, so it does not change from turn to turn.
	DeferReminder DeferMode = "reminder"
	// DeferStub sends each deferred tool with its name, its summary and a
	// parameter stub saying to load it through tool_search first. The stubs
	// come after the revealed tools, and a revealed tool leaves them; so
	// the list's prefix up to the stubs is stable, the stubs are not.
	DeferStub DeferMode = "stub"
)

// DeferModes lists every mode.
var DeferModes = []DeferMode{DeferOmit, DeferReminder, DeferStub}

// DefaultDeferralThreshold is the default number of tools from which a
// catalog is deferred: below 15 tools, sending every tool costs a few
// thousand tokens and the model still chooses well, so a search turn would
// cost more than it saves.
const DefaultDeferralThreshold = 15

// ReminderMaxNames caps the names in a DeferReminder text: 200 names cost
// about 2,000 tokens; past that, the model is better served by searching.
const ReminderMaxNames = 200

// NeverDeferAnnotation is the catalog annotation that keeps a tool loaded
// on every turn, like an always-loaded entry:
//
//	"annotations": {"toolsearch/neverDefer": true}
const NeverDeferAnnotation = "toolsearch/neverDefer"

// DeferAnnotation is the catalog annotation that sets a tool's deferral
// policy:
//
//	"annotations": {"toolsearch/defer": "never" | "automatic" | "always"}
//
// "never" keeps the tool loaded on every turn (like NeverDeferAnnotation
// and an always-loaded entry); "automatic", the default, defers it when
// the catalog reaches the deferral threshold; "always" defers it even
// below the threshold (a rarely used, expensive tool). An always-loaded
// entry naming the tool wins over "always". Other values are ignored (the
// catalog-load check reports them).
const DeferAnnotation = "toolsearch/defer"

// DeferPolicy is a DeferAnnotation value.
type DeferPolicy string

// Deferral policies.
const (
	DeferNever     DeferPolicy = "never"
	DeferAutomatic DeferPolicy = "automatic"
	DeferAlways    DeferPolicy = "always"
)

// annotation returns the raw value of key in t's annotations, nil if none.
func annotation(t catalog.Tool, key string) json.RawMessage {
	if len(t.Annotations) == 0 || !bytes.Contains(t.Annotations, []byte(key)) {
		return nil
	}
	var a map[string]json.RawMessage
	if json.Unmarshal(t.Annotations, &a) != nil {
		return nil
	}
	return a[key]
}

// neverDefer reports whether t's annotations carry NeverDeferAnnotation set
// to true, or DeferAnnotation set to "never".
func neverDefer(t catalog.Tool) bool {
	return string(bytes.TrimSpace(annotation(t, NeverDeferAnnotation))) == "true" || deferPolicy(t) == DeferNever
}

// deferPolicy is t's DeferAnnotation value; DeferAutomatic when absent or
// not one of the three.
func deferPolicy(t catalog.Tool) DeferPolicy {
	var s string
	if json.Unmarshal(annotation(t, DeferAnnotation), &s) != nil {
		return DeferAutomatic
	}
	switch p := DeferPolicy(s); p {
	case DeferNever, DeferAlways:
		return p
	}
	return DeferAutomatic
}

// CategoryPrefix starts an always-loaded entry that names a category:
// "category:human" keeps every tool whose category is "human" (ignoring
// case). It is catalog.CategoryPatternPrefix: always_loaded entries are
// catalog.Patterns.
const CategoryPrefix = catalog.CategoryPatternPrefix

// alwaysLoaded returns the indexes into tools of the always-loaded tools, in
// their fixed order: the entries' order (a pattern's tools in catalog
// order), then the tools annotated NeverDeferAnnotation in catalog order;
// each tool once. Names the catalog does not have match nothing.
func alwaysLoaded(tools []catalog.Tool, entries []string) ([]int, error) {
	matchers := make([]catalog.Pattern, len(entries))
	for i, e := range entries {
		m, err := catalog.ParsePattern(e)
		if err != nil {
			return nil, invalid("always_loaded %v", err)
		}
		matchers[i] = m
	}
	var out []int
	taken := make(map[int]bool)
	add := func(i int) {
		if !taken[i] {
			taken[i] = true
			out = append(out, i)
		}
	}
	for _, m := range matchers {
		for i, t := range tools {
			if m.Match(t) {
				add(i)
			}
		}
	}
	for i, t := range tools {
		if neverDefer(t) {
			add(i)
		}
	}
	return out, nil
}

// stubDefinition is a deferred tool in DeferStub mode: its name, its
// summary, and an empty parameter object whose description says how to
// load the real parameters.
func stubDefinition(t catalog.Tool, name string) Definition {
	desc := t.Summary()
	note := "(Not loaded: call " + SearchToolName + " with query \"select:" + t.Name + "\" before using it.)"
	if desc == "" {
		desc = note
	} else {
		desc += " " + note
	}
	return Definition{
		Name:        name,
		Description: desc,
		InputSchema: json.RawMessage(emptyObjectSchema),
	}
}
