package testenv

import (
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want time.Duration
	}{{"", time.Second}, {"1", time.Second}, {"4", 4 * time.Second}, {"x", time.Second}, {"-2", time.Second}} {
		t.Setenv(ScaleEnv, tc.env)
		if got := Scale(time.Second); got != tc.want {
			t.Errorf("%s=%q: Scale(1s) = %v, want %v", ScaleEnv, tc.env, got, tc.want)
		}
	}
}

func TestWaitFor(t *testing.T) {
	n := 0
	WaitFor(t, "the third poll", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Errorf("cond ran %d times, want 3", n)
	}
	ch := make(chan int, 1)
	ch <- 7
	if v := Receive(t, "a value", ch); v != 7 {
		t.Errorf("Receive = %d, want 7", v)
	}
}

func TestHangGuard(t *testing.T) {
	if d := HangGuard(t); d <= 0 || d > Scale(hangGuard) {
		t.Errorf("HangGuard = %v", d)
	}
	if end, ok := Context(t).Deadline(); !ok || time.Until(end) > Scale(hangGuard) {
		t.Errorf("Context deadline %v, %t", end, ok)
	}
}

func TestSkipOrFail(t *testing.T) {
	t.Setenv("CI", "")
	t.Run("local", func(t *testing.T) {
		defer func() {
			if !t.Skipped() {
				t.Error("not skipped")
			}
		}()
		SkipOrFail(t, "nothing here")
	})
	t.Setenv("CI", "true")
	if !CI() {
		t.Error("CI() false with CI=true")
	}
}
