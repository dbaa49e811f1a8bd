package search

import "testing"

func TestCommonDamp(t *testing.T) {
	for _, c := range []struct {
		sessions, scope int
		want            float64
	}{
		{4, 4, 1},     // too few sessions: a share is noise
		{5, 20, 1},    // a quarter of the scope's sessions
		{6, 20, 1},    // learnCommonShare exactly
		{10, 20, 0.6}, // half: 0.3 / 0.5
		{20, 20, learnCommonShare},
		{5, 0, 1},
	} {
		if got := commonDamp(c.sessions, c.scope); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("commonDamp(%d, %d) = %v, want %v", c.sessions, c.scope, got, c.want)
		}
	}
}
