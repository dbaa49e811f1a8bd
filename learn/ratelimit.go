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
	b := l.bucketAt(session, l.now())
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Charge takes one token from session's bucket for a report the session
// made at time at elsewhere (another pod's, read from the fleet's log),
// leaving it empty when it has less than one; it never refuses: the other
// pod admitted the report under its own limit. The bucket refills up to
// at (never past now), so a backlog of reports made over an hour and read
// at once charges what the hour's rate refilled, not the burst alone; a
// report older than the bucket's last use refills nothing.
func (l *Limiter) Charge(session string, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); at.IsZero() || at.After(now) {
		at = now
	}
	b := l.bucketAt(session, at)
	b.tokens = max(0, b.tokens-1)
}

// bucketAt returns session's bucket refilled up to at, made full on first
// use. Callers hold mu.
func (l *Limiter) bucketAt(session string, at time.Time) *bucket {
	b := l.buckets[session]
	if b == nil {
		if len(l.buckets) >= maxSessionKeys {
			clear(l.buckets)
		}
		b = &bucket{tokens: l.burst, at: at}
		l.buckets[session] = b
	}
	if el := at.Sub(b.at); el > 0 {
		b.tokens = min(l.burst, b.tokens+el.Seconds()*l.rate)
		b.at = at
	}
	return b
}
