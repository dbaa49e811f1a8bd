package search_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/search"
)

// fakeClock is a settable clock for session TTL tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// reveal runs a select: search in session id, revealing names.
func reveal(t testing.TB, e *search.Engine, id string, names ...string) {
	t.Helper()
	_, err := e.Search(context.Background(), search.Request{Query: "select:" + strings.Join(names, ","), SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
}

func revealedNames(t testing.TB, e *search.Engine, id string) []string {
	t.Helper()
	_, tools, err := e.Revealed(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tool := range tools {
		out = append(out, tool.Name)
	}
	return out
}

// Reveal order is first-reveal order, append-only: a tool revealed again
// keeps its place, and nothing is re-sorted by name or score.
func TestSessionRevealOrder(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{})
	reveal(t, e, "s", "slack__send_message", "git__log")
	reveal(t, e, "s", "git__log", "calendar__create_event", "slack__send_message")
	if _, err := e.Search(context.Background(), search.Request{Query: "create github issue", Mode: search.ModeKeyword, MaxResults: 1, SessionID: "s"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"slack__send_message", "git__log", "calendar__create_event", "github__create_issue"}
	if diff := cmp.Diff(want, revealedNames(t, e, "s")); diff != "" {
		t.Errorf("revealed (-want +got):\n%s", diff)
	}
	// Other sessions, the empty session and browse listings see nothing.
	if got := revealedNames(t, e, "other"); len(got) != 0 {
		t.Errorf("another session has %v", got)
	}
	if _, err := e.Search(context.Background(), search.Request{Query: "", SessionID: "browse"}); err != nil {
		t.Fatal(err)
	}
	if got := revealedNames(t, e, "browse"); len(got) != 0 {
		t.Errorf("a browse listing revealed %v", got)
	}
	reveal(t, e, "", "git__log")
	if got := revealedNames(t, e, ""); len(got) != 0 {
		t.Errorf("the empty session id revealed %v", got)
	}
}

// A revealed tool the catalog no longer has is dropped, for good: inserted
// again, it must be revealed again and goes to the end.
func TestSessionDeletedTools(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{})
	ctx := context.Background()
	reveal(t, e, "s", "slack__send_message", "git__log", "git__add")
	_, tools, err := e.Revealed("s")
	if err != nil {
		t.Fatal(err)
	}
	gitLog := tools[1]
	if _, err := e.Delete(ctx, []string{"git__log"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slack__send_message", "git__add"}, revealedNames(t, e, "s")); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
	if _, err := e.Upsert(ctx, []search.Tool{gitLog}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slack__send_message", "git__add"}, revealedNames(t, e, "s")); diff != "" {
		t.Errorf("after re-insert (-want +got):\n%s", diff)
	}
	reveal(t, e, "s", "git__log")
	if diff := cmp.Diff([]string{"slack__send_message", "git__add", "git__log"}, revealedNames(t, e, "s")); diff != "" {
		t.Errorf("after revealing again (-want +got):\n%s", diff)
	}
	// An updated tool keeps its place and reads as the new definition.
	upd := gitLog
	upd.Description = "Show the commit log, newest first."
	if _, err := e.Upsert(ctx, []search.Tool{upd}); err != nil {
		t.Fatal(err)
	}
	_, tools, _ = e.Revealed("s")
	if got := tools[2].Description; got != upd.Description {
		t.Errorf("updated tool reads %q", got)
	}
}

// Far more sessions than the limit, from many goroutines: the store never
// holds more than the limit, and the most recently used survive.
func TestSessionsBounded(t *testing.T) {
	const limit, sessions, workers = 50, 5000, 16
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{Sessions: search.SessionConfig{MaxSessions: limit}})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < sessions; i += workers {
				id := fmt.Sprintf("s%d", i)
				if _, err := e.Search(context.Background(), search.Request{Query: "select:slack__send_message,git__log", SessionID: id}); err != nil {
					t.Error(err)
					return
				}
				if i%7 == 0 {
					if _, _, err := e.Revealed(id); err != nil {
						t.Error(err)
						return
					}
				}
				if n := e.Sessions(); n > limit {
					t.Errorf("%d sessions live, limit %d", n, limit)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := e.Sessions(); n != limit {
		t.Errorf("%d sessions live after the run, want the limit %d", n, limit)
	}
	// LRU: touching the oldest keeps it; the next new session evicts the
	// least recently used instead.
	reveal(t, e, "a", "git__log")
	for i := range limit - 1 {
		reveal(t, e, fmt.Sprintf("b%d", i), "git__log")
	}
	_ = revealedNames(t, e, "a") // "a" is now the most recently used
	reveal(t, e, "c", "git__log")
	if got := revealedNames(t, e, "a"); len(got) != 1 {
		t.Errorf("the recently used session was evicted")
	}
	if got := revealedNames(t, e, "b0"); len(got) != 0 {
		t.Errorf("the least recently used session survived: %v", got)
	}
}

// Idle sessions expire after the TTL; use (a search or Revealed) renews it.
func TestSessionTTL(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{
		Sessions: search.SessionConfig{IdleTTL: time.Minute, Now: clock.Now},
	})
	reveal(t, e, "idle", "git__log")
	reveal(t, e, "busy", "git__log")
	for range 3 {
		clock.Advance(40 * time.Second)
		_ = revealedNames(t, e, "busy")
	}
	if got := revealedNames(t, e, "idle"); len(got) != 0 {
		t.Errorf("idle session outlived its TTL: %v", got)
	}
	if got := revealedNames(t, e, "busy"); len(got) != 1 {
		t.Errorf("a session in use expired")
	}
	if n := e.Sessions(); n != 1 {
		t.Errorf("%d sessions live, want 1", n)
	}
	clock.Advance(time.Minute + time.Second)
	if n := e.Sessions(); n != 0 {
		t.Errorf("%d sessions live after the TTL, want 0", n)
	}
}

// One session holds at most MaxRevealed tools; the oldest go first.
func TestSessionMaxRevealed(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{Sessions: search.SessionConfig{MaxRevealed: 3}})
	reveal(t, e, "s", "git__log", "git__add", "git__status")
	reveal(t, e, "s", "git__diff", "git__log")
	if diff := cmp.Diff([]string{"git__add", "git__status", "git__diff"}, revealedNames(t, e, "s")); diff != "" {
		t.Errorf("revealed (-want +got):\n%s", diff)
	}
}

func TestResetSession(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, "../examples/catalog.json"), search.Config{})
	reveal(t, e, "s", "git__log")
	if existed, err := e.ResetSession("s"); err != nil || !existed {
		t.Errorf("ResetSession(s) = %v, %v; want true", existed, err)
	}
	if got := revealedNames(t, e, "s"); len(got) != 0 {
		t.Errorf("after reset: %v", got)
	}
	if existed, err := e.ResetSession("s"); err != nil || existed {
		t.Errorf("ResetSession(s) again = %v, %v; want false", existed, err)
	}
	long := strings.Repeat("x", search.MaxSessionIDLength+1)
	for name, err := range map[string]error{
		"reset empty": second(e.ResetSession("")),
		"reset long":  second(e.ResetSession(long)),
		"search long": second(e.Search(context.Background(), search.Request{Query: "git", SessionID: long})),
		"revealed":    third(e.Revealed(long)),
	} {
		if !errors.Is(err, search.ErrInvalidArgument) {
			t.Errorf("%s: err = %v, want ErrInvalidArgument", name, err)
		}
	}
}

func second[T any](_ T, err error) error        { return err }
func third[A, B any](_ A, _ B, err error) error { return err }
