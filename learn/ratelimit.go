package learn

import (
	"sync"
	"time"
)

// Limiter is a per-session token bucket for usage reports: each session
// may report Burst uses at once and Rate uses per second after that. It is
// safe for concurrent use. It holds at most maxSessionKeys sessions; past
// that it starts over (every session gets a full bucket: bounded memory
// rather than exact limits).
type Limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// DefaultReportRate and DefaultReportBurst are the default report limits
// per session: an agent calls at most a few tools per model turn, and a
// turn takes seconds, so 30 reports at once and 1 per second after that
// never limit a real agent, while a runaway loop is stopped at once.
const (
	DefaultReportRate  = 1.0
	DefaultReportBurst = 30
)

// NewLimiter returns a limiter of rate reports per second with burst;
// rate ≤ 0 or burst ≤ 0 use the defaults. now is the clock (nil:
// time.Now).
func NewLimiter(rate float64, burst int, now func() time.Time) *Limiter {
	if rate <= 0 {
		rate = DefaultReportRate
	}
	if burst <= 0 {
		burst = DefaultReportBurst
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// Allow takes one token from session's bucket and reports whether there
// was one.
func (l *Limiter) Allow(session string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[session]
	if b == nil {
		if len(l.buckets) >= maxSessionKeys {
			clear(l.buckets)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[session] = b
	}
	if el := now.Sub(b.at); el > 0 {
		b.tokens = min(l.burst, b.tokens+el.Seconds()*l.rate)
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
