package mcpserver

import (
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session mode's HTTP sessions are bounded by number (Config.MaxSessions)
// and by memory (Config.SessionBudget): the endpoint serves at most the
// smaller of the two counts. A new session past the bound takes the place
// of the least recently active idle one (evicted: its client reconnects),
// so sessions a client abandoned never lock new clients out; only when
// every session is in use is the new one refused with 503.

// SessionMemory is the memory of one idle HTTP session, as the session
// budget counts it: measured at 52 KB each over 10,000 idle sessions (the
// go-sdk's server, transport and stream per session, and the session's
// state here), rounded up.
const SessionMemory = 64 << 10

// DefaultEvictIdleAfter is how long a session must have been idle (no
// request) before a new session may take its place (Config.EvictIdleAfter):
// long enough that a client between two turns keeps its session, short
// enough that abandoned ones free their place within a minute of the
// limit.
const DefaultEvictIdleAfter = time.Minute

// sessionLimit is the most HTTP sessions served at once: MaxSessions, or
// fewer when SessionBudget holds fewer.
func (s *Server) sessionLimit() int64 {
	n := int64(s.cfg.MaxSessions)
	if b := s.cfg.SessionBudget; b > 0 {
		n = min(n, max(b/SessionMemory, 1))
	}
	return n
}

// admit reports whether a new HTTP session may open: under the limit, or
// after evicting the least recently active session idle for
// Config.EvictIdleAfter. Otherwise the error says why (for the 503).
func (s *Server) admit() error {
	limit := s.sessionLimit()
	if s.live.Load() < limit {
		return nil
	}
	now := time.Now()
	var victim *session
	var victimSS *mcp.ServerSession
	s.mu.Lock()
	for sess, ss := range s.open {
		if ss == nil || sess.busy.Load() > 0 {
			continue
		}
		last := time.Unix(0, sess.lastActive.Load())
		if now.Sub(last) < s.cfg.EvictIdleAfter {
			continue
		}
		if victim == nil || last.Before(time.Unix(0, victim.lastActive.Load())) {
			victim, victimSS = sess, ss
		}
	}
	s.mu.Unlock()
	if victim == nil {
		return fmt.Errorf("the sidecar serves %d MCP sessions, its limit (--max-sessions, or the memory the sessions may take), "+
			"all active within the last %v; close idle sessions or retry later", limit, s.cfg.EvictIdleAfter)
	}
	s.evicted.Add(1)
	s.log.Info("mcp: the least recently active idle session was closed for a new one", "session", victim.id,
		"idle", now.Sub(time.Unix(0, victim.lastActive.Load())).Round(time.Second).String(), "limit", limit)
	_ = victimSS.Close()
	return nil
}

// Evicted is the number of idle sessions closed to admit new ones (for
// tests and metrics).
func (s *Server) Evicted() int64 { return s.evicted.Load() }

// Sessions is the number of HTTP sessions served.
func (s *Server) Sessions() int64 { return s.live.Load() }
