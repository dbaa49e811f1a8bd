package mcp

import (
	"context"
	"log/slog"
	"testing"
	"time"
)

// The restart rate: restartBurst starts within restartWindow make the next
// start wait until the oldest leaves the window; older starts do not count.
func TestRestartRateIsBounded(t *testing.T) {
	m := &Manager{log: slog.New(slog.DiscardHandler), obs: nopObserver{}}
	s := newServer(m, ServerConfig{Name: "s", Command: []string{"true"}})
	now := time.Now()
	for i := range restartBurst {
		s.starts = append(s.starts, now.Add(-time.Duration(i)*time.Second))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if s.waitStartAllowed(ctx) {
		t.Fatalf("a start was allowed after %d starts within %v", restartBurst, restartWindow)
	}
	s.starts = []time.Time{now.Add(-2 * restartWindow), now.Add(-restartWindow - time.Second)}
	for range restartBurst - 1 {
		s.starts = append(s.starts, now)
	}
	if !s.waitStartAllowed(context.Background()) {
		t.Fatal("a start was refused though only restartBurst-1 starts are within the window")
	}
	if len(s.starts) != restartBurst {
		t.Errorf("%d starts recorded, want the %d recent ones", len(s.starts), restartBurst)
	}
}
