// Package testenv holds, once, what tests need of their environment: a
// dependency that is missing skips a test locally and fails it under CI,
// and a test waits for a condition with a hang guard, never with a
// deadline that decides its verdict on a slow machine.
//
// Only tests and test helper packages import it (make checkdeps).
package testenv

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// CI reports whether the tests run under CI (the environment has
// CI=true): there every dependency must be present.
func CI() bool { return os.Getenv("CI") == "true" }

// SkipOrFail ends tb because something it needs is missing (the message
// says what, and how to get it): a skip, or a failure under CI, where
// every test must run.
func SkipOrFail(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		tb.Fatalf("CI=true, and %s", msg)
	}
	tb.Skip(msg)
}

// hangGuard is how long a test waits for anything before it calls it a
// hang: far beyond what any step of a test takes on a loaded machine
// (2 cores, load average 25), so that it never decides a verdict, only
// turns a hang into a failure that says what hung. See Scale.
const hangGuard = 3 * time.Minute

// ScaleEnv names the environment variable that multiplies every hang
// guard (an integer, default 1), for a machine slower than any the
// guards were set for.
const ScaleEnv = "TOOLSEARCH_TEST_TIMEOUT_SCALE"

// Scale returns d multiplied by $TOOLSEARCH_TEST_TIMEOUT_SCALE: a hang
// guard that a test sets itself (e.g. a client's per-call timeout).
func Scale(d time.Duration) time.Duration {
	if n, err := strconv.Atoi(os.Getenv(ScaleEnv)); err == nil && n > 1 {
		return d * time.Duration(n)
	}
	return d
}

// HangGuard returns how long tb may wait for one thing: the scaled hang
// guard, or less when the test binary's -timeout comes first, so that
// the test fails saying what it waited for rather than being killed with
// a goroutine dump.
func HangGuard(tb testing.TB) time.Duration {
	d := Scale(hangGuard)
	if t, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := t.Deadline(); ok {
			d = min(d, max(time.Until(end)-10*time.Second, time.Second))
		}
	}
	return d
}

// Context returns a context for tb's calls that ends with tb or at its
// hang guard, whichever comes first: a call under it fails only if it
// hangs. Calls under a context with a deadline do not get a client's
// own default timeout either.
func Context(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(tb.Context(), HangGuard(tb))
	tb.Cleanup(cancel)
	return ctx
}

// pollEvery is how often WaitFor checks its condition.
const pollEvery = 5 * time.Millisecond

// WaitFor polls cond until it holds and returns how long that took; if it
// has not held within tb's hang guard, it fails tb saying what it waited
// for. cond runs on tb's goroutine.
func WaitFor(tb testing.TB, what string, cond func() bool) time.Duration {
	tb.Helper()
	start := time.Now()
	guard := HangGuard(tb)
	for !cond() {
		if time.Since(start) > guard {
			tb.Fatalf("still waiting for %s after %v (a hang guard, not a verdict: raise %s on a slower machine)", what, guard.Round(time.Second), ScaleEnv)
		}
		time.Sleep(pollEvery)
	}
	return time.Since(start)
}

// Receive waits for a value from ch, as WaitFor waits for a condition.
func Receive[T any](tb testing.TB, what string, ch <-chan T) T {
	tb.Helper()
	guard := HangGuard(tb)
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		tb.Fatalf("still waiting for %s after %v (a hang guard, not a verdict: raise %s on a slower machine)", what, guard.Round(time.Second), ScaleEnv)
		var zero T
		return zero
	}
}
