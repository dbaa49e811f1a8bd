package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Config configures a Store. Only URL is required; every other field has
// a documented default.
type Config struct {
	// URL is the database's connection string, postgres://user:pass@host:port/db?...
	// or key=value form; TLS and passwords are set the way pgx reads them:
	// sslmode (disable, require, verify-ca, verify-full), sslrootcert,
	// sslcert, sslkey, password, passfile, and the PG* environment
	// variables.
	URL string
	// MaxConns bounds the connection pool (one connection more is held for
	// LISTEN). 0 means DefaultMaxConns.
	MaxConns int32
	// PollInterval is how often changes of other pods are read when no
	// notification came (the fallback when LISTEN is lost or a NOTIFY is
	// missed). 0 means DefaultPollInterval.
	PollInterval time.Duration
	// FlushInterval is how often buffered writes are sent. 0 means
	// DefaultFlushInterval.
	FlushInterval time.Duration
	// BufferLimit bounds the writes (uses, resets, catalog changes) held
	// in memory while PostgreSQL is unreachable; past it new ones are
	// counted as dropped. 0 means DefaultBufferLimit.
	BufferLimit int
	// Retention is how long learned uses are kept in the log; older ones
	// are deleted. 0 means DefaultRetention.
	Retention time.Duration
	// MaxEvents bounds the learned-use log's rows; the oldest past it are
	// deleted. 0 means DefaultMaxEvents.
	MaxEvents int64
	// CallTimeout bounds one call to PostgreSQL (a read of the embedding
	// cache, a flush, a poll). 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// Log receives connection state changes and dropped writes; nil means
	// slog.Default().
	Log *slog.Logger
}

// Defaults of Config.
const (
	// DefaultMaxConns: the store's work is a few batched statements a
	// second; 4 connections per pod keep 1,000 pods under 5,000
	// connections (use a pooler such as PgBouncer past that).
	DefaultMaxConns = 4
	// DefaultPollInterval is the fallback read interval: a change missed
	// by LISTEN reaches the pod within 5 s.
	DefaultPollInterval = 5 * time.Second
	// DefaultFlushInterval batches writes: a report reaches the database
	// within 200 ms and one busy pod writes 5 batches a second.
	DefaultFlushInterval = 200 * time.Millisecond
	// DefaultBufferLimit is 10,000 writes, about 2 MB.
	DefaultBufferLimit = 10000
	// DefaultRetention keeps 6 learning half-lives (180 days): a use older
	// than that has decayed below 1/64 and is forgotten anyway.
	DefaultRetention = 180 * 24 * time.Hour
	// DefaultMaxEvents bounds the learned-use log to 1,000,000 rows (about
	// 200 MB with indexes).
	DefaultMaxEvents = 1000000
	// DefaultCallTimeout bounds one call; a slow database delays the
	// fleet's sharing, never a search.
	DefaultCallTimeout = 5 * time.Second
	// retryMin and retryMax bound the reconnection backoff.
	retryMin = 500 * time.Millisecond
	retryMax = 30 * time.Second
)

func (c Config) withDefaults() Config {
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.FlushInterval <= 0 {
		c.FlushInterval = DefaultFlushInterval
	}
	if c.BufferLimit <= 0 {
		c.BufferLimit = DefaultBufferLimit
	}
	if c.Retention <= 0 {
		c.Retention = DefaultRetention
	}
	if c.MaxEvents <= 0 {
		c.MaxEvents = DefaultMaxEvents
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// State is the store's connection state.
type State int32

// States.
const (
	// StateConnecting: not connected yet since start-up.
	StateConnecting State = iota
	// StateReady: connected, schema current; writes and reads flow.
	StateReady
	// StateDown: the database is unreachable (or refused the schema);
	// writes are buffered and the store retries with backoff.
	StateDown
)

func (s State) String() string {
	switch s {
	case StateConnecting:
		return "connecting"
	case StateReady:
		return "ready"
	case StateDown:
		return "down"
	}
	return fmt.Sprintf("State(%d)", int32(s))
}

// ErrUnavailable means the store is not connected; callers go on without
// it (the local cache, the local state).
var ErrUnavailable = errors.New("the shared store is unavailable")

// Handlers receive what other pods shared. They are called from the
// store's one background goroutine, in order, and should not block long.
type Handlers struct {
	// Catalog receives shared catalog updates in sequence order.
	Catalog func(context.Context, CatalogUpdate)
	// Learn receives other pods' learned uses and resets in sequence
	// order.
	Learn func(context.Context, []Event)
}

// Store is a fleet's shared state in PostgreSQL. It is safe for
// concurrent use. Open returns it at once; it connects and migrates in the
// background, and follows other pods' changes from Follow until Close.
type Store struct {
	cfg  Config
	pool *pgxpool.Pool
	pod  string
	log  *slog.Logger

	state    atomic.Int32 // a State
	lastErr  atomic.Pointer[string]
	tried    chan struct{} // closed after the first connection attempt
	triedOne sync.Once

	mu      sync.Mutex
	pending []write // buffered writes, in order
	stats   Stats

	catalogSeq atomic.Int64 // the shared catalog's sequence applied
	// learnSeq and catalogSynced are owned by the run goroutine.
	learnSeq      int64
	catalogSynced bool
	handlers      atomic.Pointer[Handlers]

	stop context.CancelFunc
	done chan struct{}
}

// Stats counts what the store did since Open.
type Stats struct {
	// Written is the number of writes (uses, resets, catalog changes)
	// sent; Buffered the number waiting; Dropped the number dropped because
	// the buffer was full.
	Written  int `json:"written"`
	Buffered int `json:"buffered"`
	Dropped  int `json:"dropped"`
	// Received is the number of learned events and catalog changes read
	// from other pods.
	Received int `json:"received"`
	// VectorsRead and VectorsWritten count the shared embedding cache's
	// traffic; VectorsInvalid the rows it dropped as unusable.
	VectorsRead    int `json:"vectors_read"`
	VectorsWritten int `json:"vectors_written"`
	VectorsInvalid int `json:"vectors_invalid"`
	// Reconnects counts reconnections after the store went down.
	Reconnects int `json:"reconnects"`
}

// Open parses cfg and returns a Store that connects, migrates and flushes
// writes in the background from now until Close; Follow starts reading
// other pods' changes. An unparsable URL is an error; an unreachable
// database is not (the store retries with backoff).
func Open(cfg Config) (*Store, error) {
	cfg = cfg.withDefaults()
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("store: parse the connection string: %w", err)
	}
	pc.MaxConns = cfg.MaxConns
	if pc.ConnConfig.ConnectTimeout == 0 || pc.ConnConfig.ConnectTimeout > cfg.CallTimeout {
		pc.ConnConfig.ConnectTimeout = cfg.CallTimeout
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	s := &Store{
		cfg: cfg, pool: pool, pod: hex.EncodeToString(id[:]), log: cfg.Log.With("store", "postgres"),
		tried: make(chan struct{}),
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan struct{})
	go s.run(ctx)
	return s, nil
}

// Pod is this store's random instance ID, recorded with every write.
func (s *Store) Pod() string { return s.pod }

// State returns the connection state.
func (s *Store) State() State { return State(s.state.Load()) }

// LastError returns the last connection or write error, "" if none since
// the store was last ready.
func (s *Store) LastError() string {
	if p := s.lastErr.Load(); p != nil {
		return *p
	}
	return ""
}

// CatalogSeq returns the shared catalog's sequence number this pod has
// applied: equal on every pod that is up to date.
func (s *Store) CatalogSeq() int64 { return s.catalogSeq.Load() }

// Stats returns the counters since Open.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Buffered = len(s.pending)
	return st
}

// Follow starts handing other pods' changes to h: the first read (the
// whole shared catalog, the learned-use log) happens once the store is
// connected. Call it at most once, once the receiver (the engine) exists.
func (s *Store) Follow(h Handlers) { s.handlers.Store(&h) }

// Close stops the background work, flushes what is buffered if the
// database is reachable (within one CallTimeout), and closes the pool.
// Close is idempotent.
func (s *Store) Close() {
	if s.stop != nil {
		s.stop()
		<-s.done
		s.stop = nil
		if s.State() == StateReady {
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.CallTimeout)
			_ = s.flush(ctx)
			cancel()
		}
	}
	s.triedOne.Do(func() { close(s.tried) })
	s.pool.Close()
}

// waitTried waits until the first connection attempt ended (or ctx).
func (s *Store) waitTried(ctx context.Context) {
	select {
	case <-s.tried:
	case <-ctx.Done():
	}
}

func (s *Store) setState(st State, err error) {
	prev := State(s.state.Swap(int32(st)))
	if err != nil {
		msg := err.Error()
		s.lastErr.Store(&msg)
	} else if st == StateReady {
		s.lastErr.Store(nil)
	}
	switch {
	case st == StateReady && prev != StateReady:
		s.log.Info("shared store connected", "pod", s.pod, "schema_version", SchemaVersion)
	case st == StateDown && prev != StateDown:
		s.log.Warn("shared store unreachable; searches go on, writes are buffered, retrying with backoff", "error", msg(err))
	}
}

func msg(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// run is the store's one background goroutine: connect and migrate, then
// loop over LISTEN, flushing writes and (once Follow gave handlers)
// reading other pods' changes; on an error, mark the store down and
// reconnect with backoff.
func (s *Store) run(ctx context.Context) {
	defer close(s.done)
	backoff := retryMin
	connected := false
	for ctx.Err() == nil {
		err := s.session(ctx, &connected)
		s.triedOne.Do(func() { close(s.tried) })
		if ctx.Err() != nil {
			return
		}
		s.setState(StateDown, err)
		if connected {
			backoff = retryMin
			connected = false
			s.mu.Lock()
			s.stats.Reconnects++
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, retryMax)
	}
}

// session runs one connection's life: migrate, LISTEN, then serve until an
// error.
func (s *Store) session(ctx context.Context, connected *bool) error {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	conn, err := s.pool.Acquire(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Release()
	mctx, cancel := context.WithTimeout(ctx, 4*s.cfg.CallTimeout)
	err = migrate(mctx, conn.Conn())
	cancel()
	if err != nil {
		if errors.Is(err, ErrSchemaTooNew) {
			s.log.Error("shared store refused", "error", err.Error())
		}
		return err
	}
	if _, err := conn.Exec(ctx, `LISTEN toolsearch_catalog; LISTEN toolsearch_learn`); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Read everything missed while disconnected before saying ready.
	needPull := true
	if h := s.handlers.Load(); h != nil {
		if err := s.pull(ctx, *h); err != nil {
			return err
		}
		needPull = false
	}
	*connected = true
	s.setState(StateReady, nil)
	s.triedOne.Do(func() { close(s.tried) })
	lastPoll, lastPrune := time.Now(), time.Time{}
	for {
		if err := s.flush(ctx); err != nil {
			return err
		}
		if time.Since(lastPrune) >= time.Hour {
			if err := s.prune(ctx); err != nil {
				return err
			}
			lastPrune = time.Now()
		}
		if h := s.handlers.Load(); h != nil && (needPull || time.Since(lastPoll) >= s.cfg.PollInterval) {
			lastPoll = time.Now()
			if err := s.pull(ctx, *h); err != nil {
				return err
			}
			needPull = false
		}
		wctx, cancel := context.WithTimeout(ctx, s.cfg.FlushInterval)
		_, err := conn.Conn().WaitForNotification(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err == nil:
			// A notification: drain the others that came with it, then read.
			needPull = true
			for {
				dctx, cancel := context.WithTimeout(ctx, time.Millisecond)
				_, err := conn.Conn().WaitForNotification(dctx)
				cancel()
				if err != nil {
					break
				}
			}
		case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
			// No notification within FlushInterval: flush, and poll when due.
		default:
			return fmt.Errorf("wait for notifications: %w", err)
		}
		if conn.Conn().IsClosed() {
			return errors.New("the LISTEN connection closed")
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// pull reads the catalog changes and learned events past what this pod
// has seen and hands them to h.
func (s *Store) pull(ctx context.Context, h Handlers) error {
	if err := s.pullCatalog(ctx, h); err != nil {
		return err
	}
	return s.pullLearn(ctx, h)
}

// query runs fn in a read-only transaction bounded by CallTimeout.
func (s *Store) readTx(ctx context.Context, fn func(pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

// prune bounds the learned-use log: rows older than Retention, and the
// oldest past MaxEvents, are deleted.
func (s *Store) prune(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	_, err := s.pool.Exec(ctx, `DELETE FROM toolsearch_learn_events WHERE at < now() - make_interval(secs => $1)
		OR seq <= (SELECT max(seq) FROM toolsearch_learn_events) - $2`, s.cfg.Retention.Seconds(), s.cfg.MaxEvents)
	if err != nil {
		return fmt.Errorf("prune the learned-use log: %w", err)
	}
	return nil
}
