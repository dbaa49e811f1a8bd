package main

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Rate limiting of repeated warnings (an Ollama outage must not write one
// WARN per query).
const (
	// logRepeatWindow and logRepeatBurst: a warning or error with the same
	// message is written at most logRepeatBurst times per logRepeatWindow;
	// further repeats in the window are counted, and the first one written
	// after it carries "repeated", how many were left out. Example: a query
	// embedding failing on every one of 50 searches a second writes 3 lines
	// per 10 s, the first of each window with "repeated":497. The indexer's
	// retries (1 s, 2 s, 4 s … 30 s apart) stay visible.
	logRepeatWindow = 10 * time.Second
	logRepeatBurst  = 3
	// logRepeatKeys caps the messages tracked; past it the tracking starts
	// afresh (messages are constant strings, so this is never reached in
	// practice).
	logRepeatKeys = 1024
)

// unlimitedMessages are logged every time: the request log writes one line
// per call by design.
var unlimitedMessages = map[string]bool{"rpc": true}

// rateLimited is a slog.Handler that writes records below WARN as they come
// and at most burst WARN or ERROR records per message per window, adding the
// count of the ones left out to the next one written. It is safe for concurrent use;
// handlers derived with WithAttrs and WithGroup share its counts.
type rateLimited struct {
	next   slog.Handler
	window time.Duration
	burst  int
	state  *repeatState
}

type repeatState struct {
	mu   sync.Mutex
	seen map[string]*repeat
}

type repeat struct {
	start   time.Time // when the current window began
	written int       // records written in it
	skipped int       // records left out since the last one written
}

func newRateLimited(next slog.Handler, window time.Duration, burst int) *rateLimited {
	return &rateLimited{next: next, window: window, burst: burst, state: &repeatState{seen: make(map[string]*repeat)}}
}

func (h *rateLimited) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *rateLimited) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn || unlimitedMessages[r.Message] {
		return h.next.Handle(ctx, r)
	}
	key := r.Level.String() + "\x00" + r.Message
	s := h.state
	s.mu.Lock()
	rep, ok := s.seen[key]
	if !ok {
		if len(s.seen) >= logRepeatKeys {
			s.seen = make(map[string]*repeat)
		}
		rep = &repeat{start: r.Time}
		s.seen[key] = rep
	}
	if r.Time.Sub(rep.start) >= h.window {
		rep.start, rep.written = r.Time, 0
	}
	if rep.written >= h.burst {
		rep.skipped++
		s.mu.Unlock()
		return nil
	}
	skipped := rep.skipped
	rep.written++
	rep.skipped = 0
	s.mu.Unlock()
	if skipped > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("repeated", skipped), slog.String("repeated_within", h.window.String()))
	}
	return h.next.Handle(ctx, r)
}

func (h *rateLimited) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &rateLimited{next: h.next.WithAttrs(attrs), window: h.window, burst: h.burst, state: h.state}
}

func (h *rateLimited) WithGroup(name string) slog.Handler {
	return &rateLimited{next: h.next.WithGroup(name), window: h.window, burst: h.burst, state: h.state}
}
