package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// step is one part of the sidecar's start-up: start brings the part up and
// returns how to stop it (nil: nothing to stop). A start that fails may
// still return a stop for what it did bring up; it is called.
type step struct {
	name  string
	start func(ctx context.Context) (stop func(), err error)
}

// lifecycle starts the sidecar's parts in order and stops them in reverse,
// in one place: a part started later (the MCP endpoint, readiness) depends
// on the parts started before it (the engine, the listeners), so it stops
// first. Not safe for concurrent use: the goroutine of serve alone starts
// and stops it.
//
// A signal (ctx's end) always ends the start-up: a step that honours ctx
// returns and the start-up ends with errStopped; a step that does not (a
// read blocked on a hung mount) is given abandonAfter, then left behind
// (its goroutine ends with the process) and the parts started before it
// stop as usual.
type lifecycle struct {
	log *slog.Logger
	// abandonAfter is how long a step may go on after ctx ended; 0 means
	// defaultAbandonAfter.
	abandonAfter time.Duration
	stops        []namedStop
}

// defaultAbandonAfter is how long a start-up step that ignores a signal is
// waited for: a second, so that the sidecar still exits well within
// Kubernetes' grace period (30 s) after the drain of the parts started.
const defaultAbandonAfter = time.Second

type namedStop struct {
	name string
	stop func()
}

// start runs steps in order and stops at the first that fails, returning
// its error, or errStopped (naming the step) when ctx ended meanwhile.
// What started, the failed step's part included, is stopped by stop, which
// the caller defers.
func (l *lifecycle) start(ctx context.Context, steps []step) error {
	for _, s := range steps {
		if ctx.Err() != nil {
			return fmt.Errorf("%w before %s", errStopped, s.name)
		}
		r, ok := l.run(ctx, s)
		if !ok {
			l.log.Warn("stopping during start-up: a step did not return in time and is left behind", "step", s.name)
			return fmt.Errorf("%w while %s", errStopped, s.name)
		}
		if r.stop != nil {
			l.stops = append(l.stops, namedStop{s.name, r.stop})
		}
		if r.err != nil {
			if ctx.Err() != nil && !errors.Is(r.err, errStopped) {
				return fmt.Errorf("%w while %s: %w", errStopped, s.name, r.err)
			}
			return r.err
		}
	}
	return nil
}

// stepResult is what a step's start returned.
type stepResult struct {
	stop func()
	err  error
}

// run runs one step in a goroutine of its own; ok is false when ctx ended
// and the step did not return within abandonAfter.
func (l *lifecycle) run(ctx context.Context, s step) (r stepResult, ok bool) {
	done := make(chan stepResult, 1)
	go func() {
		stop, err := s.start(ctx)
		done <- stepResult{stop, err}
	}()
	select {
	case r := <-done:
		return r, true
	case <-ctx.Done():
	}
	wait := l.abandonAfter
	if wait <= 0 {
		wait = defaultAbandonAfter
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case r := <-done:
		return r, true
	case <-t.C:
		return stepResult{}, false
	}
}

// stop stops every started part, last started first. A second call does
// nothing.
func (l *lifecycle) stop() {
	for i := len(l.stops) - 1; i >= 0; i-- {
		l.log.Debug("stopping", "part", l.stops[i].name)
		l.stops[i].stop()
	}
	l.stops = nil
}
