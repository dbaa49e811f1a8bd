package main

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The lifecycle starts steps in order, stops what started in reverse (the
// failed step's part included), and stops once.
func TestLifecycle(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		fail    string // the step that fails
		wantErr error
		want    []string
	}{
		{"all start", "", nil, []string{"start a", "start b", "start c", "stop c", "stop a"}},
		{"the second fails, its part stopped", "b", errBoom, []string{"start a", "start b", "stop b", "stop a"}},
		{"the first fails", "a", errBoom, []string{"start a", "stop a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			mk := func(name string, withStop bool) step {
				return step{name, func(context.Context) (func(), error) {
					got = append(got, "start "+name)
					var stop func()
					if withStop || tt.fail == name {
						stop = func() { got = append(got, "stop "+name) }
					}
					if tt.fail == name {
						return stop, errBoom
					}
					return stop, nil
				}}
			}
			lc := &lifecycle{log: slog.New(slog.DiscardHandler)}
			err := lc.start(context.Background(), []step{mk("a", true), mk("b", false), mk("c", true)})
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("start: %v, want %v", err, tt.wantErr)
			}
			lc.stop()
			lc.stop()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
