package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
)

// catalogReadTimeout bounds reading one catalog file at start-up: a local
// file of hundreds of MB reads in about a second, so one still unread
// after 30 s is on a hung mount, and the start fails naming it.
const catalogReadTimeout = 30 * time.Second

// readCatalogs reads the --catalog files for the start-up: each a regular
// file (a FIFO or a device is refused by name), all together at most
// budget bytes (0: no budget), checked before any is read — each byte of a
// tool's text costs about four of memory (search.EstimateBytes), so files
// larger than the budget cannot fit — and each within catalogReadTimeout.
// ctx's end (a signal) ends the wait at once.
func readCatalogs(ctx context.Context, sources []catalog.Source, budget int64, timeout time.Duration) ([][]byte, error) {
	var total int64
	for _, src := range sources {
		fi, err := statWithin(ctx, src.Path, timeout)
		if err != nil {
			return nil, err
		}
		total += fi.Size()
	}
	if budget > 0 && total > budget {
		return nil, fmt.Errorf("the catalog files hold %d bytes (%.1f MiB), more than the whole memory budget of %.1f MiB (each byte of a tool's text costs about four in memory): raise --memory-limit (and the pod's memory limit), or load fewer tools",
			total, mib(total), mib(budget))
	}
	data := make([][]byte, len(sources))
	for i, src := range sources {
		var err error
		if data[i], err = within(ctx, src.Path, timeout, func() ([]byte, error) { return catalog.Read(src, budget) }); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// statWithin stats path within timeout (a hung mount blocks stat too).
func statWithin(ctx context.Context, path string, timeout time.Duration) (os.FileInfo, error) {
	return within(ctx, path, timeout, func() (os.FileInfo, error) { return os.Stat(path) })
}

// within runs f, which reads path, in a goroutine and waits for it at most
// timeout, or until ctx ends. A read that does not return is left behind:
// the start fails, and the process exits.
func within[T any](ctx context.Context, path string, timeout time.Duration, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var zero T
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		return zero, fmt.Errorf("catalog %s: not read after %v (a hung mount or a file that never ends?): fix the file system or remove it from --catalog", path, timeout)
	case <-ctx.Done():
		return zero, fmt.Errorf("catalog %s: %w", path, ctx.Err())
	}
}
