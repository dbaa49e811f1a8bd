package main

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/store/postgres"
)

// fleetStore is the sidecar's shared store (--store): opened before the
// embedders (it is the embedding cache's shared tier) and following the
// fleet's catalog changes and learning once the engine runs. A nil
// *fleetStore is a sidecar without --store. Safe for concurrent use.
type fleetStore struct {
	store  *postgres.Store
	log    *slog.Logger
	engine atomic.Pointer[search.Engine]
	// shared is the set of names the shared catalog put into the engine;
	// only the store's goroutine (applyCatalog) uses it.
	shared map[string]bool
}

// openStore opens --store (nil without it). The database is not reached
// here: the store connects in the background, so a database that is down
// at start-up delays nothing.
func openStore(cfg config, log *slog.Logger) (*fleetStore, error) {
	if cfg.store == "" {
		return nil, nil
	}
	st, err := postgres.Open(postgres.Config{URL: cfg.store, MaxConns: int32(cfg.storeMaxConns), Log: log})
	if err != nil {
		return nil, err
	}
	log.Info("shared store: PostgreSQL; connecting in the background", "pod", st.Pod(), "max_conns", cfg.storeMaxConns)
	return &fleetStore{store: st, log: log.With("store", "postgres"), shared: map[string]bool{}}, nil
}

// fleet is the engine's Config.Fleet: nil without --store.
func (f *fleetStore) fleet() search.Fleet {
	if f == nil {
		return nil
	}
	return f.store
}

// cache is the embedding cache's shared tier: nil without --store.
func (f *fleetStore) cache() embed.SharedCache {
	if f == nil {
		return nil
	}
	return f.store
}

// start follows the fleet: the shared catalog into e (Apply), the other
// pods' learned uses into its learning (LearnFromFleet).
func (f *fleetStore) start(e *search.Engine) {
	f.engine.Store(e)
	f.store.Follow(postgres.Handlers{Catalog: f.applyCatalog, Learn: f.learn})
}

// close flushes what is buffered (if the database is reachable) and
// disconnects.
func (f *fleetStore) close() { f.store.Close() }

// applyCatalog applies a shared catalog update to the engine as one
// change. Deletes of names the engine does not have are dropped; on a full
// update, shared tools this pod had that the fleet no longer has are
// deleted. A batch the engine refuses (a row an operator wrote that is not
// a valid tool) is applied tool by tool, logging each refused one.
func (f *fleetStore) applyCatalog(ctx context.Context, u postgres.CatalogUpdate) {
	e := f.engine.Load()
	snap := e.Snapshot()
	var del []string
	for _, name := range u.Delete {
		if _, ok := snap.Lookup(name); ok {
			del = append(del, name)
		}
	}
	if u.Full {
		keep := make(map[string]bool, len(u.Upsert))
		for _, t := range u.Upsert {
			keep[t.Name] = true
		}
		for name := range f.shared {
			if _, ok := snap.Lookup(name); ok && !keep[name] {
				del = append(del, name)
			}
		}
		clear(f.shared)
	}
	res, err := e.Apply(ctx, u.Upsert, del)
	if err != nil && (errors.Is(err, search.ErrInvalidArgument) || errors.Is(err, search.ErrCatalogFull)) {
		f.log.Warn("shared catalog: the engine refused the change as a whole; applying it tool by tool", "seq", u.Seq, "error", err.Error())
		var applied []search.Tool
		for _, t := range u.Upsert {
			if _, err := e.Apply(ctx, []search.Tool{t}, nil); err != nil {
				f.log.Warn("shared catalog: tool refused", "seq", u.Seq, "tool", t.Name, "error", err.Error())
				continue
			}
			applied = append(applied, t)
		}
		u.Upsert = applied
		res, err = e.Apply(ctx, nil, del)
	}
	if err != nil {
		f.log.Warn("shared catalog: applying the change failed; the next change or full resync brings it", "seq", u.Seq, "error", err.Error())
		return
	}
	for _, t := range u.Upsert {
		f.shared[t.Name] = true
	}
	for _, name := range del {
		delete(f.shared, name)
	}
	if len(u.Upsert)+len(del) > 0 {
		f.log.Info("shared catalog change applied", "seq", u.Seq, "full", u.Full, "upserted", len(u.Upsert), "deleted", len(del),
			"invalid_rows", u.Invalid, "catalog_version", res.CatalogVersion, "tools", res.ToolCount)
	}
}

// learn records other pods' learned uses and resets.
func (f *fleetStore) learn(ctx context.Context, evs []postgres.Event) {
	e := f.engine.Load()
	fe := make([]search.FleetEvent, len(evs))
	for i, ev := range evs {
		fe[i] = search.FleetEvent{Reset: ev.Reset, Session: ev.Session, Scope: ev.Scope, Tool: ev.Tool, Query: ev.Query, Weight: ev.Weight, Miss: ev.Miss, At: ev.At}
	}
	st, err := e.LearnFromFleet(ctx, fe)
	if err != nil {
		f.log.Warn("learning from the fleet failed", "events", len(evs), "error", err.Error())
	}
	if st.Refused > 0 {
		f.log.Warn("learning from the fleet: events not recorded", "refused", st.Refused)
	}
	f.log.Debug("learned from the fleet", "recorded", st.Recorded, "counted", st.Counted, "resets", st.Resets, "ignored", st.Ignored)
}

// storeStatus is the store's part of /statusz.
type storeStatus struct {
	State      string `json:"state"`
	Pod        string `json:"pod"`
	LastError  string `json:"last_error,omitempty"`
	CatalogSeq int64  `json:"catalog_seq"`
	postgres.Stats
}

func (f *fleetStore) status() *storeStatus {
	if f == nil {
		return nil
	}
	return &storeStatus{State: f.store.State().String(), Pod: f.store.Pod(), LastError: f.store.LastError(),
		CatalogSeq: f.store.CatalogSeq(), Stats: f.store.Stats()}
}

// register adds the store's metrics to the sidecar's (nil metrics: none).
func (f *fleetStore) register(m *server.Metrics) {
	if f == nil || m == nil {
		return
	}
	st := f.store
	stat := func(get func(postgres.Stats) int) func() float64 {
		return func() float64 { return float64(get(st.Stats())) }
	}
	m.Registry().MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "toolsearch_store_up",
			Help: "1 when the shared store (--store) is connected and its schema current, else 0 (searches go on; writes are buffered)."},
			func() float64 {
				if st.State() == postgres.StateReady {
					return 1
				}
				return 0
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "toolsearch_store_buffered_writes",
			Help: "Writes (learned uses, resets, catalog changes) waiting to be sent to the shared store."},
			stat(func(s postgres.Stats) int { return s.Buffered })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "toolsearch_store_written_total",
			Help: "Writes sent to the shared store."}, stat(func(s postgres.Stats) int { return s.Written })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "toolsearch_store_dropped_writes_total",
			Help: "Writes dropped because the buffer was full while the shared store was unreachable."},
			stat(func(s postgres.Stats) int { return s.Dropped })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "toolsearch_store_received_total",
			Help: "Learned events and catalog changes read from other pods."}, stat(func(s postgres.Stats) int { return s.Received })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "toolsearch_store_reconnects_total",
			Help: "Reconnections to the shared store after it went down."}, stat(func(s postgres.Stats) int { return s.Reconnects })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "toolsearch_store_catalog_seq",
			Help: "The shared catalog's sequence number this pod applied; equal on every pod that is up to date."},
			func() float64 { return float64(st.CatalogSeq()) }),
	)
}
