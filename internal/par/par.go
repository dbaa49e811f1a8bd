// Package par runs independent work on every core.
package par

import (
	"runtime"
	"sync"
)

// minChunk is the fewest items one goroutine takes: below it the
// goroutines cost more than they save.
const minChunk = 256

// For calls f on consecutive ranges [lo, hi) that together cover [0, n),
// from up to GOMAXPROCS goroutines at once, and returns when every call
// has. f must be safe to call concurrently on disjoint ranges. With one
// core, or fewer than 2·minChunk items, it calls f(0, n) itself.
func For(n int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/minChunk)
	if workers <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}
