package search

import "sync"

// broadcast wakes every waiter at once: wait returns a channel that the
// next notify closes. The zero value is ready; safe for concurrent use.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns the channel the next notify closes.
func (b *broadcast) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

// notify closes the channel of the current waiters (if any).
func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// CatalogChanged returns a channel that is closed when the catalog next
// changes: when a change (Apply, Upsert, Delete, a live source's update)
// swaps in a new snapshot. Take the channel before reading Snapshot, so
// that no change falls between the two:
//
//	for {
//		changed := e.CatalogChanged()
//		snap := e.Snapshot()
//		// … act on snap …
//		<-changed
//	}
//
// Each call after a change returns a new channel; the channel is never
// closed by Close. Safe for concurrent use.
func (e *Engine) CatalogChanged() <-chan struct{} { return e.catalogChanged.wait() }
