package toolset

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/catalog"
)

// EntryKind is the role of one tool in a built list: how it is sent, and
// whether a limit (a provider's tool count, Options.MaxBytes) may leave it
// out. Limits leave tools out from the end of the list, never the search
// tool or a pinned tool.
type EntryKind uint8

// Entry kinds.
const (
	// EntrySearch is the search tool: tool_search, or in
	// SearchNativeHosted mode the provider's hosted search tool.
	EntrySearch EntryKind = iota + 1
	// EntryPinned is a tool sent in full on every turn: an always-loaded
	// tool, a tool annotated never to be deferred, or a tool not deferred
	// because the catalog is below the deferral threshold and the list
	// defers others. A limit never leaves it out.
	EntryPinned
	// EntryLoaded is a tool sent in full that a limit may leave out: a
	// tool the session's searches revealed, or any tool when nothing is
	// deferred.
	EntryLoaded
	// EntryStub is a deferred tool in DeferStub mode: its name, summary
	// and a note to load it through tool_search.
	EntryStub
	// EntryDeferred is a deferred tool of a native mode, sent in full with
	// defer_loading.
	EntryDeferred
	// EntryLearnedPin is a tool sent in full on every turn because
	// learning pinned it (Options.LearnedPinned: the scope's agents used it
	// in most of their sessions). It follows the pinned tools; unlike them,
	// a limit may leave it out (after the revealed tools and the deferred
	// ones), so learning never makes a list fail a provider's limit.
	EntryLearnedPin
)

// String is the kind's name: "search", "pinned", "loaded", "stub",
// "deferred" or "learned_pin".
func (k EntryKind) String() string {
	switch k {
	case EntrySearch:
		return "search"
	case EntryPinned:
		return "pinned"
	case EntryLoaded:
		return "loaded"
	case EntryStub:
		return "stub"
	case EntryDeferred:
		return "deferred"
	case EntryLearnedPin:
		return "learned_pin"
	}
	return fmt.Sprintf("EntryKind(%d)", uint8(k))
}

// fixed reports whether no limit may leave a tool of this kind out.
func (k EntryKind) fixed() bool { return k == EntrySearch || k == EntryPinned }

// full reports whether a tool of this kind is callable as sent: in full,
// without defer_loading.
func (k EntryKind) full() bool { return k == EntryPinned || k == EntryLoaded || k == EntryLearnedPin }

// entry is one tool of the list being built.
type entry struct {
	tool catalog.Tool // zero for the search tool
	def  Definition
	raw  json.RawMessage // the encoded value, once output.item made it
}

func (e *entry) kind() EntryKind { return e.def.Kind }

// builder accumulates the list's entries. It lives for one Build call.
type builder struct {
	enc   encoder
	rule  nameRule
	lim   limits
	cache *Cache
	// entries are the list, in order.
	entries []entry
	// names maps rewritten provider names to catalog names; used maps every
	// provider name in the list to its catalog name, to catch collisions.
	names, used map[string]string
	// changes are the rewrites made, each tool's once (changed).
	changes []Change
	changed map[string]bool
}

func newBuilder(enc encoder, f Format, cache *Cache) *builder {
	return &builder{enc: enc, rule: enc.names(), lim: limitsFor(f), cache: cache,
		names: map[string]string{}, used: map[string]string{}, changed: map[string]bool{}}
}

// definition returns t's normalized definition (a stub for EntryStub),
// under its provider name, recording the rewrites.
func (b *builder) definition(t catalog.Tool, kind EntryKind) (Definition, error) {
	name := b.rule.providerName(t.Name)
	if other, ok := b.used[name]; ok && other != t.Name {
		return Definition{}, fmt.Errorf("toolset: tools %q and %q both map to the provider name %q; rename one", other, t.Name, name)
	}
	b.used[name] = t.Name
	var changes []Change
	if name != t.Name {
		b.names[name] = t.Name
		changes = append(changes, Change{Tool: t.Name, Kind: ChangeNameRewritten, Detail: fmt.Sprintf("sent as %q (the provider rejects the catalog name)", name)})
	}
	var d Definition
	if kind == EntryStub {
		d = stubDefinition(t, name)
		d.Description, _ = normalizeDescription(t, d.Description, b.lim.description)
	} else {
		n := b.cache.normalized(t, b.lim.description)
		d = Definition{Name: name, Description: n.description, InputSchema: n.schema, Annotations: modelAnnotations(t.Annotations),
			Title: t.Title, OutputSchema: t.OutputSchema}
		changes = append(changes, n.changes...)
	}
	d.Kind, d.Tool = kind, t.Name
	if !b.changed[t.Name] && len(changes) > 0 {
		b.changed[t.Name] = true
		b.changes = append(b.changes, changes...)
	}
	return d, nil
}

// add appends a catalog tool as kind.
func (b *builder) add(t catalog.Tool, kind EntryKind) error {
	d, err := b.definition(t, kind)
	if err != nil {
		return err
	}
	b.entries = append(b.entries, entry{tool: t, def: d})
	return nil
}

// addSearch appends the search tool, defined as d.
func (b *builder) addSearch(d Definition) {
	d.Kind = EntrySearch
	b.entries = append(b.entries, entry{def: d})
	b.used[SearchToolName] = SearchToolName
}

// applyCountLimits leaves out tools past the format's tool-count limits,
// from the end of the list (the stubs, then the latest revealed tools,
// then the learned pins), and reports them. Past the cap on deferred tools
// (native modes), it keeps the deferred tools with the most learned
// evidence (use, the scope's), the first in catalog order on ties, and
// reports the rest with the rule in DeferredLimit.
func (b *builder) applyCountLimits(f Format, use map[string]float64) ([]Omission, DeferredLimit) {
	var omitted []Omission
	if b.lim.tools > 0 {
		n := 0
		for i := range b.entries {
			if b.entries[i].kind() != EntryDeferred {
				n++
			}
		}
		for i := len(b.entries) - 1; i >= 0 && n > b.lim.tools; i-- {
			if e := &b.entries[i]; e.kind() != EntryDeferred && !e.kind().fixed() {
				omitted = append(omitted, Omission{Tool: e.tool.Name, Reason: fmt.Sprintf("tool_count_limit: %s accepts at most %d tools in full per request", f, b.lim.tools)})
				b.entries = slices.Delete(b.entries, i, i+1)
				n--
			}
		}
	}
	slices.Reverse(omitted)
	var dl DeferredLimit
	if b.lim.deferred > 0 {
		var deferred []int // positions, in list (catalog) order
		for i := range b.entries {
			if b.entries[i].kind() == EntryDeferred {
				deferred = append(deferred, i)
			}
		}
		if len(deferred) > b.lim.deferred {
			dl = DeferredLimit{Limit: b.lim.deferred, Omitted: len(deferred) - b.lim.deferred, Rule: DeferredByOrder}
			if len(use) > 0 {
				dl.Rule = DeferredByUse
			}
			// Stable: equal evidence keeps catalog order.
			slices.SortStableFunc(deferred, func(x, y int) int {
				return cmp.Compare(use[b.entries[y].tool.Name], use[b.entries[x].tool.Name])
			})
			drop := make(map[int]bool, dl.Omitted)
			for _, i := range deferred[b.lim.deferred:] {
				drop[i] = true
			}
			reason := fmt.Sprintf("deferred_count_limit: %s's tool search accepts at most %d tools per request; kept by %s", f, b.lim.deferred, dl.Rule)
			kept := b.entries[:0]
			for i := range b.entries {
				if drop[i] {
					omitted = append(omitted, Omission{Tool: b.entries[i].tool.Name, Reason: reason})
					continue
				}
				kept = append(kept, b.entries[i])
			}
			clear(b.entries[len(kept):])
			b.entries = kept
		}
	}
	return omitted, dl
}

// loadEntries are the full definitions of the named tools, for
// Toolset.LoadedTools: each catalog tool once, in the order named; names
// the catalog does not have are skipped.
func (b *builder) loadEntries(tools []catalog.Tool, names []string) ([]entry, error) {
	if len(names) == 0 {
		return nil, nil
	}
	byName := make(map[string]catalog.Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	var load []entry
	seen := map[string]bool{}
	for _, n := range names {
		t, ok := byName[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		def, err := b.definition(t, EntryLoaded)
		if err != nil {
			return nil, err
		}
		load = append(load, entry{tool: t, def: def})
	}
	return load, nil
}

// modelAnnotations are a tool's annotations as a model may see them:
// without catalog.KeywordsAnnotation, the search-only text (nil when
// nothing else is left). Annotations without it are returned as they are.
func modelAnnotations(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(catalog.KeywordsAnnotation)) {
		return raw
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	delete(m, catalog.KeywordsAnnotation)
	if len(m) == 0 {
		return nil
	}
	out, err := marshal(m)
	if err != nil {
		return nil
	}
	return out
}
