// Package learn holds what the sidecar learns from use: per tool, the query
// texts that led agents to call it successfully, weighted, bounded and
// decayed with age (store.go, decay.go), attributed carefully to the
// searches that revealed the tool (attribution.go), rate limited per
// session (ratelimit.go), saved crash-safely (persist.go) and shared as
// JSONL (jsonl.go, pull.go).
//
// Everything is keyed by tool name and query text: the package knows
// nothing of the catalog, of search internals or of gRPC. Package search
// reads an immutable View and turns it into ranking boosts.
package learn
