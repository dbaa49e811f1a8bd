package mcp

import "time"

// State is a server's connection state.
type State string

// Server states.
const (
	// StateConnecting: starting or connecting for the first time.
	StateConnecting State = "connecting"
	// StateUp: connected, and its tools are in the catalog.
	StateUp State = "up"
	// StateDown: gone; reconnecting with backoff. Its tools stay in the
	// catalog until the grace period ends.
	StateDown State = "down"
	// StateFailed: the server cannot start as configured (its executable
	// does not exist) and is no longer retried: fix its command and
	// restart. LastError says why.
	StateFailed State = "failed"
	// StateStopped: the manager was closed.
	StateStopped State = "stopped"
)

// ServerStatus describes one server, for the status endpoint and logs.
type ServerStatus struct {
	// Name is the server's namespace.
	Name string `json:"name"`
	// Transport is "stdio" or "http".
	Transport string `json:"transport"`
	// State is the connection state.
	State State `json:"state"`
	// Since is when the server entered State.
	Since time.Time `json:"since"`
	// Server is the name and version the server reported, "" before the
	// first connection.
	Server string `json:"server,omitempty"`
	// Description is what the server says it is for: its initialize
	// instructions, else its title; "" before the first connection or if
	// it gives neither.
	Description string `json:"description,omitempty"`
	// Tools is the number of the server's tools in the catalog.
	Tools int `json:"tools"`
	// InvalidTools is the number of tools the last listing left out
	// because they failed validation.
	InvalidTools int `json:"invalid_tools"`
	// LastList is when the last complete listing ended; zero if none.
	LastList time.Time `json:"last_list,omitzero"`
	// ListMillis is how long the last complete listing took.
	ListMillis int64 `json:"list_ms"`
	// Pages is how many tools/list pages the last listing read.
	Pages int `json:"pages"`
	// Reconnects counts reconnection attempts (restarts of a stdio server).
	Reconnects int `json:"reconnects"`
	// LastError is the last connection, listing or catalog error, "" if none
	// since the last successful listing.
	LastError string `json:"last_error,omitempty"`
	// RemoveAt is, while the server is down with tools in the catalog,
	// when its grace period ends and they are removed.
	RemoveAt time.Time `json:"remove_at,omitzero"`
	// PID is a stdio server's process id while it runs, 0 otherwise.
	PID int `json:"pid,omitempty"`
}
