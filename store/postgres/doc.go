// Package postgres holds a fleet's shared state in PostgreSQL, so that many
// sidecars act as one: the embedding cache (a tool's text is embedded once
// per fleet), the log of learned uses (every pod learns from every pod's
// traffic), and the shared catalog (a tool upserted on one pod reaches all).
//
// A Store connects in the background and never makes a caller wait on
// PostgreSQL beyond a bounded call: writes are buffered in memory up to a
// bound and flushed in batches; changes of other pods arrive through
// LISTEN/NOTIFY with a poll as the fallback. The search path does not touch
// it. Migrations run at start-up under an advisory lock, so that many pods
// starting at once apply them once; a schema newer than the binary is
// refused.
//
// The package implements interfaces that package embed (SharedCache) and
// package search (Fleet) declare where they consume them, and imports only
// catalog's types; cmd/sidecar wires it.
package postgres
