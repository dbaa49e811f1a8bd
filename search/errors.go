package search

import "errors"

// Sentinel errors. Every error returned by the engine wraps exactly one of
// them; callers branch with errors.Is and show the error's text, which says
// what was wrong and what to do.
var (
	// ErrInvalidArgument marks a request the caller must change: a query or
	// pattern that is too long, a regular expression that does not parse, a
	// bad page token, an invalid tool in an upsert.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrNotFound marks names that are not in the catalog.
	ErrNotFound = errors.New("not found")
	// ErrCatalogFull marks an upsert that would take the catalog past
	// Config.MaxTools, or its estimated memory past Config.MemoryBudget.
	ErrCatalogFull = errors.New("catalog full")
	// ErrRateLimited marks a usage report (Engine.ReportToolUse) refused by
	// the per-session rate limit.
	ErrRateLimited = errors.New("rate limited")
)

// invalid wraps err as an ErrInvalidArgument while keeping err in the chain.
func invalid(err error) error {
	if err == nil {
		return nil
	}
	return &wrapped{kind: ErrInvalidArgument, err: err}
}

// notFound wraps err as an ErrNotFound while keeping err in the chain.
func notFound(err error) error {
	if err == nil {
		return nil
	}
	return &wrapped{kind: ErrNotFound, err: err}
}

// wrapped pairs a sentinel with the underlying error. Its message is the
// underlying error's message alone: the sentinel only classifies.
type wrapped struct {
	kind error
	err  error
}

func (w *wrapped) Error() string   { return w.err.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.kind, w.err} }
