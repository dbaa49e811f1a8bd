package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/store/postgres"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
	"go.uber.org/goleak"
)

// TestMain runs the tests on a shared server (pgtest) and fails them if a
// goroutine outlives them.
func TestMain(m *testing.M) { goleak.VerifyTestMain(pgtest.Runner{M: m}) }

// received collects what a store's handlers were given.
type received struct {
	mu      sync.Mutex
	updates []postgres.CatalogUpdate
	events  []postgres.Event
	changed chan struct{}
}

func newReceived() *received { return &received{changed: make(chan struct{}, 1)} }

func (r *received) handlers() postgres.Handlers {
	return postgres.Handlers{
		Catalog: func(_ context.Context, u postgres.CatalogUpdate) {
			r.mu.Lock()
			r.updates = append(r.updates, u)
			r.mu.Unlock()
			r.signal()
		},
		Learn: func(_ context.Context, evs []postgres.Event) {
			r.mu.Lock()
			r.events = append(r.events, evs...)
			r.mu.Unlock()
			r.signal()
		},
	}
}

func (r *received) signal() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// waitFor waits until cond holds over what r received.
func (r *received) waitFor(t *testing.T, what string, cond func(*received) bool) {
	t.Helper()
	deadline := time.After(testenv.HangGuard(t))
	for {
		r.mu.Lock()
		ok := cond(r)
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-deadline:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func open(t *testing.T, url string, h postgres.Handlers) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(postgres.Config{URL: url, PollInterval: 100 * time.Millisecond, FlushInterval: 20 * time.Millisecond,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	s.Follow(h)
	t.Cleanup(s.Close)
	return s
}

func waitReady(t *testing.T, s *postgres.Store) {
	t.Helper()
	testenv.WaitFor(t, "the store ready", func() bool { return s.State() == postgres.StateReady })
}

// Many pods starting at once migrate the schema once, and all end ready.
func TestMigrationsUnderConcurrentStart(t *testing.T) {
	url := pgtest.NewDB(t)
	var stores []*postgres.Store
	for range 6 {
		stores = append(stores, open(t, url, postgres.Handlers{}))
	}
	for _, s := range stores {
		waitReady(t, s)
	}
	conn := connect(t, url)
	var version int
	if err := conn.QueryRow(context.Background(), `SELECT version FROM toolsearch_schema`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version != postgres.SchemaVersion {
		t.Errorf("schema version %d, want %d", version, postgres.SchemaVersion)
	}
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// A database at schema version 1 (the first release) is migrated: its
// uses read back as uses that were not misses, and new misses say so.
func TestMigrationFromVersion1(t *testing.T) {
	url := pgtest.NewDB(t)
	conn := connect(t, url)
	ctx := context.Background()
	for _, sql := range []string{
		`CREATE TABLE toolsearch_schema (version integer NOT NULL)`,
		`INSERT INTO toolsearch_schema (version) VALUES (1)`,
		postgres.Migrations[0],
		`INSERT INTO toolsearch_learn_events (pod, kind, session, scope, tool, query, weight, at) VALUES ('old', 'use', 's0', '', 't', 'an old use', 1, now())`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%.40s: %v", sql, err)
		}
	}
	r := newReceived()
	s := open(t, url, r.handlers())
	waitReady(t, s)
	var version int
	if err := conn.QueryRow(ctx, `SELECT version FROM toolsearch_schema`).Scan(&version); err != nil || version != postgres.SchemaVersion {
		t.Fatalf("schema version %d (%v), want %d", version, err, postgres.SchemaVersion)
	}
	r.waitFor(t, "the old use", func(r *received) bool { return len(r.events) == 1 })
	r.mu.Lock()
	old := r.events[0]
	r.mu.Unlock()
	if old.Query != "an old use" || old.Miss {
		t.Errorf("old use read back as %+v, want a use that is not a miss", old)
	}
}

// A schema written by a newer binary is refused, saying which version.
func TestSchemaNewerThanBinaryRefused(t *testing.T) {
	url := pgtest.NewDB(t)
	waitReady(t, open(t, url, postgres.Handlers{}))
	conn := connect(t, url)
	if _, err := conn.Exec(context.Background(), `UPDATE toolsearch_schema SET version = $1`, postgres.SchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	s := open(t, url, postgres.Handlers{})
	testenv.WaitFor(t, "an error from a store over a newer schema", func() bool { return s.LastError() != "" })
	if s.State() == postgres.StateReady {
		t.Fatal("store ready over a newer schema")
	}
	want := fmt.Sprintf("run a toolsearch release with schema version %d or later", postgres.SchemaVersion+1)
	if got := s.LastError(); !strings.Contains(got, want) {
		t.Errorf("error %q does not say %q", got, want)
	}
}

func TestEmbeddingCacheRoundTrip(t *testing.T) {
	url := pgtest.NewDB(t)
	a := open(t, url, postgres.Handlers{})
	b := open(t, url, postgres.Handlers{})
	waitReady(t, a)
	waitReady(t, b)
	ctx := context.Background()
	keys := [][32]byte{{1}, {2}, {3}}
	vecs := [][]float32{{0.6, 0.8}, {1, 0}, {0, 1}}
	if err := a.StoreVectors(ctx, "m@digest", 2, keys[:2], vecs[:2]); err != nil {
		t.Fatal(err)
	}
	got, err := b.Vectors(ctx, "m@digest", 2, keys)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{vecs[0], vecs[1], nil}, got); diff != "" {
		t.Errorf("Vectors (-want +got):\n%s", diff)
	}
	// Another model identity, or dimension, shares nothing.
	for _, k := range []struct {
		model string
		dims  int
	}{{"m@other", 2}, {"m@digest", 3}} {
		got, err := b.Vectors(ctx, k.model, k.dims, keys)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(got, func(v []float32) bool { return v != nil }) {
			t.Errorf("%s/%d: got vectors of another model: %v", k.model, k.dims, got)
		}
	}
}

// Writes of one pod reach the others in order; a pod does not receive its
// own; the catalog arrives as one update per batch, in order.
func TestSharingBetweenPods(t *testing.T) {
	url := pgtest.NewDB(t)
	ra, rb := newReceived(), newReceived()
	a := open(t, url, ra.handlers())
	b := open(t, url, rb.handlers())
	waitReady(t, a)
	waitReady(t, b)
	at := time.Now().UTC().Truncate(time.Microsecond)
	a.PublishUse("", "github__create_issue", "open a bug", "s1", 1, false, at)
	a.PublishUse("", "github__create_issue", "file an issue", "s1", 0.5, true, at)
	a.PublishReset("slack__send", at)
	rb.waitFor(t, "a's three events on b", func(r *received) bool { return len(r.events) == 3 })
	want := []postgres.Event{
		{Pod: a.Pod(), Session: "s1", Tool: "github__create_issue", Query: "open a bug", Weight: 1, At: at},
		{Pod: a.Pod(), Session: "s1", Tool: "github__create_issue", Query: "file an issue", Weight: 0.5, Miss: true, At: at},
		{Pod: a.Pod(), Reset: true, Tool: "slack__send", At: at},
	}
	rb.mu.Lock()
	got := rb.events
	rb.mu.Unlock()
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) }),
		cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Seq" }, cmp.Ignore())); diff != "" {
		t.Errorf("b received (-want +got):\n%s", diff)
	}
	ra.mu.Lock()
	if len(ra.events) != 0 {
		t.Errorf("a received its own events: %+v", ra.events)
	}
	ra.mu.Unlock()

	tool := catalog.Tool{Name: "pager__page", Description: "Page the on-call engineer.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}
	a.PublishChange([]catalog.Tool{tool}, nil)
	for _, r := range []*received{ra, rb} {
		r.waitFor(t, "the upsert", func(r *received) bool {
			return len(r.updates) > 0 && len(r.updates[len(r.updates)-1].Upsert) == 1
		})
	}
	a.PublishChange(nil, []string{"pager__page"})
	rb.waitFor(t, "the delete", func(r *received) bool {
		return len(r.updates) > 0 && slices.Equal(r.updates[len(r.updates)-1].Delete, []string{"pager__page"})
	})
	rb.mu.Lock()
	defer rb.mu.Unlock()
	last := rb.updates[len(rb.updates)-1]
	if last.Seq < 2 {
		t.Errorf("last update seq %d, want ≥ 2", last.Seq)
	}
	// Both pods reach the same catalog sequence.
	testenv.WaitFor(t, "both pods at the last catalog sequence", func() bool { return a.CatalogSeq() == last.Seq && b.CatalogSeq() == last.Seq })
	var upserted *postgres.CatalogUpdate
	for i := range rb.updates {
		if len(rb.updates[i].Upsert) == 1 {
			upserted = &rb.updates[i]
		}
	}
	if upserted == nil || upserted.Upsert[0].Description != tool.Description || string(upserted.Upsert[0].InputSchema) != string(tool.InputSchema) {
		t.Errorf("upsert on b = %+v, want %+v", upserted, tool)
	}
}

// A store that cannot connect says so, buffers, and never blocks a caller.
func TestUnreachableStoreDoesNotBlock(t *testing.T) {
	s, err := postgres.Open(postgres.Config{URL: "postgres://nobody:x@127.0.0.1:1/none?sslmode=disable&connect_timeout=1", BufferLimit: 2})
	if err != nil {
		t.Fatal(err)
	}

	defer s.Close()
	for range 3 {
		s.PublishUse("", "t", "q", "s", 1, false, time.Now())
	}
	if st := s.Stats(); st.Buffered != 2 || st.Dropped != 1 {
		t.Errorf("stats %+v, want 2 buffered and 1 dropped", st)
	}
	if _, err := s.Vectors(context.Background(), "m", 2, [][32]byte{{1}}); !errors.Is(err, postgres.ErrUnavailable) {
		t.Errorf("Vectors on an unreachable store = %v, want ErrUnavailable", err)
	}
}

// TLS is set the way pgx reads it: sslmode=verify-full with the CA
// connects; a root that did not sign the server's certificate does not.
func TestTLS(t *testing.T) {
	srv := pgtest.StartTLS(t)
	base := strings.TrimSuffix(srv.URL("postgres"), "?sslmode=disable")
	ok := open(t, base+"?sslmode=verify-full&sslrootcert="+srv.CAFile(), postgres.Handlers{})
	waitReady(t, ok)
	conn := connect(t, base+"?sslmode=verify-full&sslrootcert="+srv.CAFile())
	var ssl bool
	if err := conn.QueryRow(context.Background(), `SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()`).Scan(&ssl); err != nil || !ssl {
		t.Fatalf("connection not over TLS: %v, %v", ssl, err)
	}

	other, err := pgtest.OtherCAFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bad := open(t, base+"?sslmode=verify-full&sslrootcert="+other, postgres.Handlers{})
	testenv.WaitFor(t, "an error connecting with the wrong CA", func() bool { return bad.LastError() != "" })
	if bad.State() == postgres.StateReady || !strings.Contains(bad.LastError(), "certificate") {
		t.Errorf("with the wrong CA: state %s, error %q; want down with a certificate error", bad.State(), bad.LastError())
	}
}

// Rows written without a NOTIFY (a lost notification) arrive through the
// poll; rows an operator writes into the shared catalog arrive, and a row
// that is not a tool of its name is counted and skipped.
func TestPollFallbackAndOperatorRows(t *testing.T) {
	url := pgtest.NewDB(t)
	r := newReceived()
	s := open(t, url, r.handlers())
	waitReady(t, s)
	conn := connect(t, url)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `INSERT INTO toolsearch_learn_events (pod, kind, session, tool, query, weight, at)
		VALUES ('another-pod', 'use', 's9', 'slack__send', 'post it', 1, now())`); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "the event written without NOTIFY", func(r *received) bool { return len(r.events) == 1 })
	if _, err := conn.Exec(ctx, `INSERT INTO toolsearch_tools (name, definition) VALUES
		('ops__tool', '{"name":"ops__tool","description":"Written by an operator."}'),
		('ops__bad', '{"name":"another_name"}')`); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "the operator's rows", func(r *received) bool {
		for _, u := range r.updates {
			if len(u.Upsert) == 1 && u.Upsert[0].Name == "ops__tool" && u.Invalid == 1 {
				return true
			}
		}
		return false
	})
}
