package mcp

import "time"

// Observer receives the manager's measurements, for metrics. Its methods
// are called from the manager's goroutines, concurrently for different
// servers, and must be safe for concurrent use. A nil Observer in Config
// records nothing.
type Observer interface {
	// ServerUp reports whether the server is connected.
	ServerUp(server string, up bool)
	// ServerTools reports how many of the server's tools are in the catalog.
	ServerTools(server string, tools int)
	// ListDuration reports how long one complete tools/list (every page) took.
	ListDuration(server string, d time.Duration)
	// Reconnect counts a reconnection attempt after the server went away
	// (for a stdio server, a restart of its process).
	Reconnect(server string)
	// ToolsChanged counts tools applied to the catalog from the server, by
	// kind: "inserted", "updated" or "deleted".
	ToolsChanged(server, kind string, n int)
	// InvalidTools counts tools the server listed that failed validation
	// and were left out.
	InvalidTools(server string, n int)
}

// nopObserver records nothing.
type nopObserver struct{}

func (nopObserver) ServerUp(string, bool)              {}
func (nopObserver) ServerTools(string, int)            {}
func (nopObserver) ListDuration(string, time.Duration) {}
func (nopObserver) Reconnect(string)                   {}
func (nopObserver) ToolsChanged(string, string, int)   {}
func (nopObserver) InvalidTools(string, int)           {}
