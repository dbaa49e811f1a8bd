package embedtest

import (
	"context"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/embed"
)

// Faulty wraps a real embed.Embedder and injects failures on demand, to
// test how callers behave when the embedder is slow, down, or stuck: it
// delays or fails calls of one kind, or holds document calls until
// released. The zero value is not usable; set Inner. Faulty is safe for
// concurrent use; change its behaviour with the setters.
type Faulty struct {
	// Inner is the embedder that does the work.
	Inner embed.Embedder

	mu         sync.Mutex
	queryDelay time.Duration
	queryErr   error
	docErr     error
	hold       chan struct{}
}

var _ embed.Embedder = (*Faulty)(nil)

// SetQueryDelay makes query embeddings take d (or until the context ends).
func (f *Faulty) SetQueryDelay(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queryDelay = d
}

// SetErrors makes query and document embeddings fail with the given errors
// (nil restores them).
func (f *Faulty) SetErrors(query, document error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queryErr, f.docErr = query, document
}

// HoldDocuments makes document embeddings wait until the returned function
// is called (or their context ends).
func (f *Faulty) HoldDocuments() (release func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{})
	f.hold = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			if f.hold == ch {
				f.hold = nil
			}
			f.mu.Unlock()
			close(ch)
		})
	}
}

// Embed applies the injected behaviour for kind, then calls Inner.
func (f *Faulty) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	f.mu.Lock()
	delay, qerr, derr, hold := f.queryDelay, f.queryErr, f.docErr, f.hold
	f.mu.Unlock()
	if kind == embed.Query {
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if qerr != nil {
			return nil, qerr
		}
	} else {
		if hold != nil {
			select {
			case <-hold:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if derr != nil {
			return nil, derr
		}
	}
	return f.Inner.Embed(ctx, kind, texts)
}

// Dimensions returns Inner's dimensions.
func (f *Faulty) Dimensions() int { return f.Inner.Dimensions() }

// ModelID returns Inner's model ID.
func (f *Faulty) ModelID() string { return f.Inner.ModelID() }
