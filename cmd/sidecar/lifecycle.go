package main

import (
	"context"
	"log/slog"
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
type lifecycle struct {
	log   *slog.Logger
	stops []namedStop
}

type namedStop struct {
	name string
	stop func()
}

// start runs steps in order and stops at the first that fails, returning
// its error. What started, the failed step's part included, is stopped by
// stop, which the caller defers.
func (l *lifecycle) start(ctx context.Context, steps []step) error {
	for _, s := range steps {
		stop, err := s.start(ctx)
		if stop != nil {
			l.stops = append(l.stops, namedStop{s.name, stop})
		}
		if err != nil {
			return err
		}
	}
	return nil
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
