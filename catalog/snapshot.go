package catalog

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/par"
	"github.com/toolsearch/toolsearch/internal/pvec"
)

// Snapshot is an immutable, versioned set of tools. Every change (Upsert,
// Delete, Apply) returns a new Snapshot and leaves the old one as it was, so
// readers that hold a *Snapshot see one consistent catalog for as long as
// they hold it. A Snapshot is safe for concurrent use; the zero value is not
// usable, build one with NewSnapshot.
//
// Each tool has an ID, its position in ID order (Tool, All, Lookup). IDs are
// what the search indexes are keyed by, and they are stable so that a change
// costs what it changes: NewSnapshot numbers the tools in name order; a
// change keeps every remaining tool's ID, gives new tools the next IDs, and
// moves the tool with the highest ID into the ID of each deleted tool.
// Counts.Edited lists the IDs a change touched. Name order is kept beside
// (Tools, NameOrder).
type Snapshot struct {
	version uint64
	tools   pvec.Vec[Tool] // by ID
	order   []int32        // IDs in name order
	servers []ServerCount

	sortedOnce sync.Once
	sorted     []Tool // Tools(), made on first use
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
// version 1, with IDs in name order. The snapshot keeps its own copies:
// changing tools, or the bytes of their schemas, afterwards does not change
// it.
func NewSnapshot(tools []Tool) (*Snapshot, error) {
	normalized, err := normalizeAll(tools)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(normalized, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	order := make([]int32, len(normalized))
	counts := map[string]int{}
	for i, t := range normalized {
		order[i] = int32(i)
		countServer(counts, t, 1)
	}
	return &Snapshot{version: 1, tools: pvec.Of(normalized), order: order, servers: serverCounts(counts)}, nil
}

// normalizeAll normalizes (on every core) and validates a batch of tools.
func normalizeAll(tools []Tool) ([]Tool, error) {
	normalized := make([]Tool, len(tools))
	par.For(len(tools), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			normalized[i] = Normalize(tools[i])
		}
	})
	if err := Validate(normalized); err != nil {
		return nil, err
	}
	return normalized, nil
}

// countServer adds d to the count of t's server, if it has one.
func countServer(counts map[string]int, t Tool, d int) {
	if t.Server == "" {
		return
	}
	if counts[t.Server] += d; counts[t.Server] == 0 {
		delete(counts, t.Server)
	}
}

// serverCounts returns counts sorted by server name.
func serverCounts(counts map[string]int) []ServerCount {
	out := make([]ServerCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, ServerCount{Name: name, Tools: n})
	}
	slices.SortFunc(out, func(a, b ServerCount) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Version is 1 for a snapshot from NewSnapshot and one more than its parent
// for a snapshot from Upsert, Delete or Apply.
func (s *Snapshot) Version() uint64 { return s.version }

// Len is the number of tools; IDs run from 0 to Len()-1.
func (s *Snapshot) Len() int { return s.tools.Len() }

// Tools returns the tools sorted by name. The slice is made on the first
// call (O(Len)) and then shared: callers must not modify it or the tools'
// schema and annotation bytes. Code that walks the catalog by ID uses All.
func (s *Snapshot) Tools() []Tool {
	s.sortedOnce.Do(func() {
		s.sorted = make([]Tool, 0, s.Len())
		for _, id := range s.order {
			s.sorted = append(s.sorted, *s.tools.At(int(id)))
		}
	})
	return s.sorted[:len(s.sorted):len(s.sorted)]
}

// All yields every tool with its ID, in ID order.
func (s *Snapshot) All() iter.Seq2[int, Tool] { return s.tools.All() }

// Tool returns the tool with ID id; it panics if id is out of range
// [0, Len()), as indexing a slice does. Callers must not modify the bytes of
// its schema and annotations.
func (s *Snapshot) Tool(id int) Tool { return *s.tools.At(id) }

// Name returns the name of the tool with ID id, as Tool(id).Name does
// without copying the tool (rankings compare names to break ties); it
// panics if id is out of range [0, Len()).
func (s *Snapshot) Name(id int) string { return s.tools.At(id).Name }

// NameOrder returns the ID of the k-th tool in name order, k in [0, Len()).
func (s *Snapshot) NameOrder(k int) int { return int(s.order[k]) }

// SearchName returns the position in name order of the first tool whose
// name is not before name (Len() if there is none), as sort.Search would.
func (s *Snapshot) SearchName(name string) int {
	return searchOrder(s.order, s.tools.At, name)
}

// searchOrder binary-searches IDs in name order for the first whose tool
// (tool) is named name or later.
func searchOrder(order []int32, tool func(int) *Tool, name string) int {
	lo, hi := 0, len(order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tool(int(order[m])).Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Lookup returns the ID of the tool with exactly this name, and whether
// there is one.
func (s *Snapshot) Lookup(name string) (int, bool) {
	k := s.SearchName(name)
	if k == s.Len() {
		return 0, false
	}
	id := s.NameOrder(k)
	return id, s.tools.At(id).Name == name
}

// Get returns the named tools in the order asked (a name asked twice is
// returned twice). If any name is unknown it returns a *NotFoundError
// (wrapping ErrNotFound) listing every unknown name, and no tools.
func (s *Snapshot) Get(names ...string) ([]Tool, error) {
	tools := make([]Tool, 0, len(names))
	var missing unknownNames
	for _, name := range names {
		id, ok := s.Lookup(name)
		if !ok {
			missing.add(name)
			continue
		}
		tools = append(tools, *s.tools.At(id))
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
	// Edited lists, ascending, the IDs below the new snapshot's Len whose
	// tool differs from the old snapshot's tool with that ID: updated and
	// new tools, and tools moved into a deleted tool's ID. Every other ID
	// holds the same tool as before; IDs from the new Len on are gone.
	Edited []int
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
//
// The cost is proportional to the change, plus O(Len) for a copy of the
// name order (IDs are stable, see Snapshot).
func (s *Snapshot) Apply(upsert []Tool, del []string) (next *Snapshot, c Counts, err error) {
	batch, err := normalizeAll(upsert)
	if err != nil {
		return nil, Counts{}, err
	}
	drop := make(map[string]bool, len(del))
	var missing unknownNames
	for _, name := range del {
		if _, ok := s.Lookup(name); !ok {
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
	ch := newChange(s, len(batch)+len(drop))
	for _, name := range del {
		if ch.remove(name) {
			c.Deleted++
		}
	}
	for _, t := range batch {
		switch id, ok := ch.lookup(t.Name); {
		case !ok:
			ch.insert(t)
			c.Inserted++
		case !ch.tools.At(id).equal(t):
			ch.set(id, t)
			c.Updated++
		}
	}
	c.Edited = ch.edits()
	return ch.snapshot(s.version + 1), c, nil
}

// String describes the snapshot for logs, e.g. "catalog v3 (2015 tools)".
func (s *Snapshot) String() string {
	unit := " tools)"
	if s.Len() == 1 {
		unit = " tool)"
	}
	return "catalog v" + strconv.FormatUint(s.version, 10) + " (" + strconv.Itoa(s.Len()) + unit
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
