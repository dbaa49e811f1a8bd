package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the schema version this binary writes and reads: the
// number of migrations.
const SchemaVersion = 2

// migrationLock is the advisory lock key under which migrations run, so
// that pods starting at once apply each migration once ("toolsearch" in
// ASCII, cut to 63 bits).
const migrationLock int64 = 0x746f6f6c736561

// catalogLock and learnLock serialize writers of the change logs within
// their transactions, so that sequence numbers commit in order and a reader
// that has seen seq N has seen every change below it.
const (
	catalogLock int64 = 0x746f6f6c736562
	learnLock   int64 = 0x746f6f6c736563
)

// ErrSchemaTooNew means the database's schema was written by a newer
// toolsearch than this binary.
var ErrSchemaTooNew = errors.New("the database schema is newer than this binary")

// migrations are applied in order; migration i brings the schema to
// version i+1. Never edit one that has shipped: append a new one.
var migrations = []string{
	// 1: the embedding cache, the learned-use log, the shared catalog.
	`
CREATE TABLE toolsearch_embeddings (
	model      text        NOT NULL,
	dims       integer     NOT NULL,
	key        bytea       NOT NULL,
	vec        bytea       NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (model, dims, key)
);
CREATE TABLE toolsearch_learn_events (
	seq     bigserial        PRIMARY KEY,
	pod     text             NOT NULL,
	kind    text             NOT NULL CHECK (kind IN ('use', 'reset')),
	session text             NOT NULL DEFAULT '',
	scope   text             NOT NULL DEFAULT '',
	tool    text             NOT NULL DEFAULT '',
	query   text             NOT NULL DEFAULT '',
	weight  double precision NOT NULL DEFAULT 0,
	at      timestamptz      NOT NULL
);
CREATE INDEX toolsearch_learn_events_at ON toolsearch_learn_events (at);
CREATE TABLE toolsearch_tools (
	name       text        PRIMARY KEY,
	definition json        NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE toolsearch_tool_changes (
	seq        bigserial   PRIMARY KEY,
	name       text        NOT NULL,
	definition json,
	at         timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION toolsearch_tools_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(` + fmt.Sprint(catalogLock) + `);
	IF TG_OP = 'DELETE' THEN
		INSERT INTO toolsearch_tool_changes (name, definition) VALUES (OLD.name, NULL);
	ELSE
		INSERT INTO toolsearch_tool_changes (name, definition) VALUES (NEW.name, NEW.definition);
	END IF;
	PERFORM pg_notify('toolsearch_catalog', '');
	RETURN NULL;
END $$;
CREATE TRIGGER toolsearch_tools_changed AFTER INSERT OR UPDATE OR DELETE ON toolsearch_tools
	FOR EACH ROW EXECUTE FUNCTION toolsearch_tools_changed();
`,
	// 2: a use credited to a search that did not return the tool (a miss,
	// learn.Use.Miss) says so, so that every pod bounds what a tool learns
	// by misses (learn.Config.MaxMissQueriesPerTool), not only the pod
	// that saw it.
	`ALTER TABLE toolsearch_learn_events ADD COLUMN miss boolean NOT NULL DEFAULT false;`,
}

// migrate brings the database's schema to SchemaVersion under the
// migration lock, or refuses a schema newer than it with ErrSchemaTooNew.
func migrate(ctx context.Context, conn *pgx.Conn) error {
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS toolsearch_schema (version integer NOT NULL)`); err != nil {
		return fmt.Errorf("create the schema table: %w", err)
	}
	var version int
	err := conn.QueryRow(ctx, `SELECT version FROM toolsearch_schema`).Scan(&version)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := conn.Exec(ctx, `INSERT INTO toolsearch_schema (version) VALUES (0)`); err != nil {
			return fmt.Errorf("initialize the schema table: %w", err)
		}
	case err != nil:
		return fmt.Errorf("read the schema version: %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("%w: it is at version %d and this binary knows versions up to %d; run a toolsearch release with schema version %d or later",
			ErrSchemaTooNew, version, SchemaVersion, version)
	}
	for v := version; v < SchemaVersion; v++ {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, migrations[v]); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE toolsearch_schema SET version = $1`, v+1); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
	}
	return nil
}
