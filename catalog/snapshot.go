package catalog

import (
	"slices"
	"strconv"
	"strings"
)

// Snapshot is an immutable, versioned set of tools, sorted by name. Every
// change (Upsert, Delete, Apply) returns a new Snapshot and leaves the old one as
// it was, so readers that hold a *Snapshot see one consistent catalog for as
// long as they hold it. A Snapshot is safe for concurrent use; the zero value
// is not usable, build one with NewSnapshot.
type Snapshot struct {
	version uint64
	tools   []Tool         // sorted by name
	index   map[string]int // name → position in tools
	servers []ServerCount
}

// ServerCount is the number of tools a server has in a Snapshot.
type ServerCount struct {
	// Name is the server name (Tool.Server).
	Name string
	// Tools is how many tools have that server.
	Tools int
}

// NewSnapshot normalizes tools (see Normalize), validates them (see
// Validate; problems are positioned by index in tools) and returns them as
// version 1. The snapshot keeps its own copies: changing tools, or the bytes
// of their schemas, afterwards does not change it.
func NewSnapshot(tools []Tool) (*Snapshot, error) {
	normalized, err := normalizeAll(tools)
	if err != nil {
		return nil, err
	}
	return build(1, normalized), nil
}

// normalizeAll normalizes and validates a batch of tools.
func normalizeAll(tools []Tool) ([]Tool, error) {
	normalized := make([]Tool, len(tools))
	for i, t := range tools {
		normalized[i] = Normalize(t)
	}
	if err := Validate(normalized); err != nil {
		return nil, err
	}
	return normalized, nil
}

// build sorts tools, which it then owns, and indexes them.
func build(version uint64, tools []Tool) *Snapshot {
	slices.SortFunc(tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	s := &Snapshot{version: version, tools: tools, index: make(map[string]int, len(tools))}
	counts := map[string]int{}
	for i, t := range tools {
		s.index[t.Name] = i
		if t.Server != "" {
			counts[t.Server]++
		}
	}
	s.servers = make([]ServerCount, 0, len(counts))
	for name, n := range counts {
		s.servers = append(s.servers, ServerCount{Name: name, Tools: n})
	}
	slices.SortFunc(s.servers, func(a, b ServerCount) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// Version is 1 for a snapshot from NewSnapshot and one more than its parent
// for a snapshot from Upsert, Delete or Apply.
func (s *Snapshot) Version() uint64 { return s.version }

// Len is the number of tools.
func (s *Snapshot) Len() int { return len(s.tools) }

// Tools returns the tools sorted by name. The slice is the snapshot's own:
// callers must not modify it or the tools' schema and annotation bytes.
func (s *Snapshot) Tools() []Tool { return s.tools[:len(s.tools):len(s.tools)] }

// Tool returns the i-th tool in name order; it panics if i is out of range
// [0, Len()), as indexing a slice does. Callers must not modify the bytes of
// its schema and annotations.
func (s *Snapshot) Tool(i int) Tool { return s.tools[i] }

// Lookup returns the position of the tool with exactly this name, and
// whether there is one.
func (s *Snapshot) Lookup(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Get returns the named tools in the order asked (a name asked twice is
// returned twice). If any name is unknown it returns a *NotFoundError
// (wrapping ErrNotFound) listing every unknown name, and no tools.
func (s *Snapshot) Get(names ...string) ([]Tool, error) {
	tools := make([]Tool, 0, len(names))
	var missing unknownNames
	for _, name := range names {
		i, ok := s.index[name]
		if !ok {
			missing.add(name)
			continue
		}
		tools = append(tools, s.tools[i])
	}
	if err := missing.err(); err != nil {
		return nil, err
	}
	return tools, nil
}

// Servers returns how many tools each server has, sorted by server name.
// Tools without a server are not counted. The slice is the snapshot's own:
// callers must not modify it.
func (s *Snapshot) Servers() []ServerCount { return s.servers[:len(s.servers):len(s.servers)] }

// Upsert returns a new snapshot, at Version()+1, in which each tool of the
// batch replaces the tool of the same name or is added. The batch is
// normalized and validated on its own first (duplicate names inside it,
// empty or long names, schemas that are not objects, …); if it is invalid,
// Upsert returns a *ValidationError positioned by index in tools, and no
// snapshot. s itself never changes.
//
// inserted counts the tools that were new; updated counts the tools that
// replaced a different definition. A tool identical to the one it replaces
// counts as neither.
func (s *Snapshot) Upsert(tools []Tool) (next *Snapshot, inserted, updated int, err error) {
	next, c, err := s.Apply(tools, nil)
	return next, c.Inserted, c.Updated, err
}

// Delete returns a new snapshot, at Version()+1, without the named tools.
// If any name is unknown it returns a *NotFoundError (wrapping ErrNotFound)
// listing every unknown name, deletes nothing and returns no snapshot. A name
// listed twice is deleted once. s itself never changes.
func (s *Snapshot) Delete(names []string) (next *Snapshot, err error) {
	next, _, err = s.Apply(nil, names)
	return next, err
}

// Counts says what a change did to a snapshot.
type Counts struct {
	// Inserted counts tools that were new; Updated, tools that replaced a
	// different definition (an identical one counts as neither); Deleted,
	// tools removed.
	Inserted, Updated, Deleted int
}

// Apply returns a new snapshot, at Version()+1, with the tools of upsert
// inserted or replacing the tools of the same name, and the tools named in
// del removed: both in one step, so a reader sees the catalog before or
// after the whole change, never half of it. upsert is normalized and
// validated on its own first (a *ValidationError positioned by index in
// upsert); an unknown name in del is a *NotFoundError (wrapping
// ErrNotFound) listing every unknown name; a name both upserted and
// deleted is a *ValidationError. On any error nothing changes and no
// snapshot is returned. A name listed twice in del is deleted once. s
// itself never changes.
func (s *Snapshot) Apply(upsert []Tool, del []string) (next *Snapshot, c Counts, err error) {
	batch, err := normalizeAll(upsert)
	if err != nil {
		return nil, Counts{}, err
	}
	drop := make(map[string]bool, len(del))
	var missing unknownNames
	for _, name := range del {
		if _, ok := s.index[name]; !ok {
			missing.add(name)
		}
		drop[name] = true
	}
	if err := missing.err(); err != nil {
		return nil, Counts{}, err
	}
	var both []Problem
	for i, t := range batch {
		if drop[t.Name] {
			both = append(both, Problem{Position: "index " + strconv.Itoa(i), Tool: displayName(t.Name),
				Reason: "tool is both upserted and deleted in one change", Fix: "upsert it or delete it, not both"})
		}
	}
	if len(both) > 0 {
		return nil, Counts{}, &ValidationError{Problems: both}
	}
	merged := make([]Tool, 0, len(s.tools)+len(batch)-len(drop))
	for _, t := range s.tools {
		if !drop[t.Name] {
			merged = append(merged, t)
		}
	}
	c.Deleted = len(drop)
	// Positions shift when tools are dropped, so find upserts by name.
	pos := make(map[string]int, len(batch))
	if len(drop) > 0 {
		for i, t := range merged {
			pos[t.Name] = i
		}
	}
	for _, t := range batch {
		i, ok := s.index[t.Name]
		if ok && len(drop) > 0 {
			i = pos[t.Name]
		}
		switch {
		case !ok:
			merged = append(merged, t)
			c.Inserted++
		case !merged[i].equal(t):
			merged[i] = t
			c.Updated++
		}
	}
	return build(s.version+1, merged), c, nil
}

// Changed returns the positions in s of the tools that are not in prev or
// whose definition differs from prev's, in ascending order: the tools to
// re-embed after a reload. A nil prev means every tool changed.
func (s *Snapshot) Changed(prev *Snapshot) []int {
	var changed []int
	for i, t := range s.tools {
		if prev == nil {
			changed = append(changed, i)
			continue
		}
		j, ok := prev.index[t.Name]
		if !ok || !prev.tools[j].equal(t) {
			changed = append(changed, i)
		}
	}
	return changed
}

// String describes the snapshot for logs, e.g. "catalog v3 (2015 tools)".
func (s *Snapshot) String() string {
	unit := " tools)"
	if len(s.tools) == 1 {
		unit = " tool)"
	}
	return "catalog v" + strconv.FormatUint(s.version, 10) + " (" + strconv.Itoa(len(s.tools)) + unit
}

// unknownNames collects names not found, each once, in the order first met.
type unknownNames struct {
	names []string
	seen  map[string]bool
}

func (u *unknownNames) add(name string) {
	if u.seen[name] {
		return
	}
	if u.seen == nil {
		u.seen = map[string]bool{}
	}
	u.seen[name] = true
	u.names = append(u.names, name)
}

// err returns a *NotFoundError for the names, or nil if there are none.
func (u *unknownNames) err() error {
	if len(u.names) == 0 {
		return nil
	}
	return &NotFoundError{Names: u.names}
}
