package main

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

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

// A signal ends the start-up: a step that honours ctx returns errStopped
// at once, one that ignores it is left behind after abandonAfter; the
// parts started before it stop either way.
func TestLifecycleStoppedDuringStartup(t *testing.T) {
	release := make(chan struct{})
	defer close(release) // the abandoned step's goroutine ends with the test
	tests := []struct {
		name  string
		block func(ctx context.Context) (func(), error)
	}{
		{"a step that honours ctx", func(ctx context.Context) (func(), error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		{"a step that ignores ctx (a read on a hung mount)", func(context.Context) (func(), error) {
			<-release
			return nil, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var stopped []string
			lc := &lifecycle{log: slog.New(slog.DiscardHandler), abandonAfter: time.Millisecond}
			err := lc.start(ctx, []step{
				{"first", func(context.Context) (func(), error) { return func() { stopped = append(stopped, "first") }, nil }},
				{"blocked", func(ctx context.Context) (func(), error) { cancel(); return tt.block(ctx) }},
				{"never", func(context.Context) (func(), error) { t.Error("a step after the signal ran"); return nil, nil }},
			})
			if !errors.Is(err, errStopped) {
				t.Errorf("start = %v, want errStopped", err)
			}
			lc.stop()
			if diff := cmp.Diff([]string{"first"}, stopped); diff != "" {
				t.Errorf("stopped (-want +got):\n%s", diff)
			}
		})
	}
}
