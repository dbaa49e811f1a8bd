package catalog

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/pvec"
)

// sortOrderPast is the size of a change (tools upserted plus deleted) past
// which the new snapshot's name order is sorted again from scratch
// (O(n log n)) instead of edited entry by entry (O(n) memmove each).
const sortOrderPast = 64

// change builds the snapshot after one Apply: it edits copies of the
// parent's tools and name order, keeping IDs stable (see Snapshot). It is
// used by one goroutine.
type change struct {
	prev  *Snapshot
	tools pvec.Vec[Tool] // a copy from Edit
	// order is the name order, kept edited unless resort is set; then it is
	// sorted again at the end.
	order  []int32
	resort bool
	// moved maps the names of tools this change inserted, moved or removed
	// to their ID in tools (-1: removed); other tools keep prev's ID.
	moved  map[string]int
	edited map[int]bool
	counts map[string]int // tools per server
}

func newChange(prev *Snapshot, size int) *change {
	ch := &change{
		prev:   prev,
		tools:  prev.tools.Edit(),
		resort: size > sortOrderPast,
		moved:  map[string]int{},
		edited: map[int]bool{},
		counts: make(map[string]int, len(prev.servers)),
	}
	if !ch.resort {
		ch.order = slices.Clone(prev.order)
	}
	for _, sc := range prev.servers {
		ch.counts[sc.Name] = sc.Tools
	}
	return ch
}

// lookup returns the ID a tool has so far in the change.
func (ch *change) lookup(name string) (int, bool) {
	if id, ok := ch.moved[name]; ok {
		return id, id >= 0
	}
	return ch.prev.Lookup(name)
}

// position returns the position in the name order of the tool named name,
// which must be there.
func (ch *change) position(name string) int {
	return searchOrder(ch.order, ch.tools.At, name)
}

// remove deletes the named tool, moving the last tool into its ID; it
// reports false if the change has no such tool (a name deleted twice).
func (ch *change) remove(name string) bool {
	id, ok := ch.lookup(name)
	if !ok {
		return false
	}
	last := ch.tools.Len() - 1
	if !ch.resort {
		k := ch.position(name)
		ch.order = slices.Delete(ch.order, k, k+1)
	}
	countServer(ch.counts, *ch.tools.At(id), -1)
	if id != last {
		mt := *ch.tools.At(last)
		if !ch.resort {
			ch.order[ch.position(mt.Name)] = int32(id)
		}
		*ch.tools.Mut(id) = mt
		ch.moved[mt.Name] = id
		ch.edited[id] = true
	}
	ch.tools.Truncate(last)
	delete(ch.edited, last)
	ch.moved[name] = -1
	return true
}

// insert adds a new tool under the next ID.
func (ch *change) insert(t Tool) {
	id := ch.tools.Len()
	if !ch.resort {
		ch.order = slices.Insert(ch.order, ch.position(t.Name), int32(id))
	}
	ch.tools.Append(t)
	ch.moved[t.Name] = id
	ch.edited[id] = true
	countServer(ch.counts, t, 1)
}

// set replaces the tool with ID id by t, of the same name.
func (ch *change) set(id int, t Tool) {
	countServer(ch.counts, *ch.tools.At(id), -1)
	countServer(ch.counts, t, 1)
	*ch.tools.Mut(id) = t
	ch.edited[id] = true
}

// snapshot returns the changed snapshot at version.
func (ch *change) snapshot(version uint64) *Snapshot {
	ch.tools.Done()
	tools := ch.tools
	order := ch.order
	if ch.resort {
		order = make([]int32, tools.Len())
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(tools.At(int(a)).Name, tools.At(int(b)).Name) })
	}
	return &Snapshot{version: version, tools: tools, order: order, servers: serverCounts(ch.counts)}
}

// edits returns the edited IDs, ascending.
func (ch *change) edits() []int {
	out := make([]int, 0, len(ch.edited))
	for id := range ch.edited {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
