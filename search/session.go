package search

import (
	"container/list"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/learn"
)

// Session reveal sets: which tools each agent session has been shown by a
// search, in the order they were first shown. An agent loads the full
// definitions of revealed tools into its model's context for the next
// turn (package toolset builds that list), so the order is kept
// append-only: a tool revealed again keeps its first position, and the list
// is never re-sorted, which keeps the tool list's prefix stable for the
// providers' prompt caches.
//
// Memory is bounded three ways: at most SessionConfig.MaxSessions sessions
// (the least recently used is evicted past it), sessions idle longer than
// SessionConfig.IdleTTL expire, and one session holds at most
// SessionConfig.MaxRevealed tools. An evicted or expired session simply
// starts empty: the model searches again.

// SessionConfig bounds the session store. The zero value uses the defaults.
type SessionConfig struct {
	// MaxSessions is the most sessions kept; past it the least recently
	// used session is evicted. 0 means DefaultMaxSessions.
	MaxSessions int
	// IdleTTL is how long a session lives without a Search or a Revealed
	// call naming it. 0 means DefaultSessionTTL.
	IdleTTL time.Duration
	// MaxRevealed is the most tools one session holds; past it the oldest
	// revealed tool is forgotten (the list's prefix then changes once). 0
	// means DefaultMaxRevealed.
	MaxRevealed int
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
}

// DefaultMaxSessions is the default session limit: an agent pod serves a
// few hundred concurrent conversations at most, and a session costs about
// 100 bytes plus 16 bytes and its names per revealed tool, so 10,000
// sessions of 20 tools each stay under 10 MB.
const DefaultMaxSessions = 10000

// DefaultSessionTTL is the default idle lifetime of a session: one hour
// covers a human pausing mid-conversation, while a conversation abandoned
// for longer does not hold memory (and restarts with a search).
const DefaultSessionTTL = time.Hour

// DefaultMaxRevealed is the default number of tools one session holds:
// models choose tools worse past about 30, so an agent that has revealed
// 64 tools has long stopped benefiting; the cap only stops a runaway loop.
const DefaultMaxRevealed = 64

func (c SessionConfig) withDefaults() SessionConfig {
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.IdleTTL <= 0 {
		c.IdleTTL = DefaultSessionTTL
	}
	if c.MaxRevealed <= 0 {
		c.MaxRevealed = DefaultMaxRevealed
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// sessionStore is an LRU map of sessions with an idle TTL. It is safe for
// concurrent use.
type sessionStore struct {
	cfg SessionConfig
	mu  sync.Mutex
	// lru holds *session values, most recently used at the front.
	lru  *list.List
	byID map[string]*list.Element
}

// session is one session's reveal set.
type session struct {
	id       string
	lastUsed time.Time
	// revealed are tool names in first-reveal order; seen indexes them.
	revealed []string
	seen     map[string]struct{}
	// searches are the session's latest searches, oldest first, kept only
	// when learning is on (usage.go): attribution needs each search's
	// query and returned tools.
	searches []learn.Search
}

func newSessionStore(cfg SessionConfig) *sessionStore {
	return &sessionStore{cfg: cfg.withDefaults(), lru: list.New(), byID: map[string]*list.Element{}}
}

// reveal appends the names not yet revealed to the session, creating it if
// needed.
func (s *sessionStore) reveal(id string, names []string) {
	if id == "" || len(names) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	s.expire(now)
	sess := s.touch(id, now)
	if sess == nil {
		sess = s.create(id, now)
	}
	for _, n := range names {
		if _, ok := sess.seen[n]; ok {
			continue
		}
		sess.seen[n] = struct{}{}
		sess.revealed = append(sess.revealed, n)
	}
	if over := len(sess.revealed) - s.cfg.MaxRevealed; over > 0 {
		for _, n := range sess.revealed[:over] {
			delete(sess.seen, n)
		}
		sess.revealed = slices.Delete(sess.revealed, 0, over)
	}
}

// maxSessionSearches is how many of its latest searches a session keeps
// for attribution: a use is credited to at most learn.MaxAttributedSearches
// of them, and a model calls a tool within a few searches of finding it.
const maxSessionSearches = 8

// recordSearch remembers a search of the session (its learning scope,
// ranking words and returned tools) for attribution, creating the session
// if no search revealed anything to it yet: a dead end (no tools, or none
// revealed) is kept too, since a tool the session then uses is the lesson
// its wording missed (learn.Attribute). With learning on, a session costs
// up to maxSessionSearches × (a query and 10 names) more, about 3 KB.
func (s *sessionStore) recordSearch(id, scope, query string, names []string) {
	if id == "" || query == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	s.expire(now)
	sess := s.touch(id, now)
	if sess == nil {
		sess = s.create(id, now)
	}
	sess.searches = append(sess.searches, learn.Search{Scope: scope, Query: query, Tools: slices.Clone(names)})
	if over := len(sess.searches) - maxSessionSearches; over > 0 {
		sess.searches = slices.Delete(sess.searches, 0, over)
	}
}

// attribute credits a use of tool to the session's searches that returned
// it, or as a miss to its newest search (learn.Attribute), and marks it
// used in the credited searches. With
// query set, only searches with that query count. found reports whether
// the session exists.
func (s *sessionStore) attribute(id, tool, query string) (credits []learn.Credit, found bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.touch(id, s.cfg.Now())
	if sess == nil {
		return nil, false
	}
	newest := make([]learn.Search, 0, len(sess.searches))
	idx := make([]int, 0, len(sess.searches))
	for i := len(sess.searches) - 1; i >= 0; i-- {
		if query != "" && learn.NormalizeQuery(sess.searches[i].Query) != query {
			continue
		}
		newest = append(newest, sess.searches[i])
		idx = append(idx, i)
	}
	credits = learn.Attribute(newest, tool)
	for _, c := range credits {
		sr := &sess.searches[idx[c.Search]]
		if !slices.Contains(sr.Used, tool) {
			sr.Used = append(sr.Used, tool)
		}
	}
	return credits, true
}

// revealed returns a copy of the session's names in reveal order after
// dropping the names keep rejects (tools no longer in the catalog), and
// marks the session used. An unknown or expired session has none.
func (s *sessionStore) revealed(id string, keep func(string) bool) []string {
	if id == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	s.expire(now)
	sess := s.touch(id, now)
	if sess == nil {
		return nil
	}
	sess.revealed = slices.DeleteFunc(sess.revealed, func(n string) bool {
		if keep(n) {
			return false
		}
		delete(sess.seen, n)
		return true
	})
	return slices.Clone(sess.revealed)
}

// reset forgets a session and reports whether it existed (and had not
// expired).
func (s *sessionStore) reset(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.cfg.Now())
	el, ok := s.byID[id]
	if ok {
		s.remove(el)
	}
	return ok
}

// len is the number of live sessions.
func (s *sessionStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.cfg.Now())
	return s.lru.Len()
}

// touch marks a session used and moves it to the front; nil if absent.
// Callers hold mu.
func (s *sessionStore) touch(id string, now time.Time) *session {
	el, ok := s.byID[id]
	if !ok {
		return nil
	}
	sess := el.Value.(*session)
	sess.lastUsed = now
	s.lru.MoveToFront(el)
	return sess
}

// create adds an empty session at the front, evicting the least recently
// used past MaxSessions. Callers hold mu.
func (s *sessionStore) create(id string, now time.Time) *session {
	sess := &session{id: id, lastUsed: now, seen: map[string]struct{}{}}
	s.byID[id] = s.lru.PushFront(sess)
	for s.lru.Len() > s.cfg.MaxSessions {
		s.remove(s.lru.Back())
	}
	return sess
}

// expire removes the sessions idle for longer than the TTL. They are at the
// back of the list, so this costs one step per expired session. Callers
// hold mu.
func (s *sessionStore) expire(now time.Time) {
	for el := s.lru.Back(); el != nil; el = s.lru.Back() {
		if now.Sub(el.Value.(*session).lastUsed) <= s.cfg.IdleTTL {
			return
		}
		s.remove(el)
	}
}

// remove deletes one session. Callers hold mu.
func (s *sessionStore) remove(el *list.Element) {
	s.lru.Remove(el)
	delete(s.byID, el.Value.(*session).id)
}

// recordReveals records a successful search's references — what the
// caller was shown, after the relevance floor — as revealed for the
// request's session. Browse listings (an empty query) reveal nothing: they
// page through names, not tools the model asked for. Nor does a
// model-facing answer (Request.ForModel) flagged no_confident_match: its
// tools are the closest, not ones that do what was asked, and must not
// enter the model's tool list; the model that wants one asks for it by
// name (select:NAME), which reveals it. (A caller without ForModel takes
// what it asked for, and its session reveals it.)
func (e *Engine) recordReveals(req Request, res Result) {
	if req.SessionID == "" || res.Metadata.SearchType == ModeBrowse || len(res.References) == 0 ||
		req.ForModel && res.Metadata.NoConfidentMatch {
		return
	}
	names := make([]string, len(res.References))
	for i, r := range res.References {
		names[i] = r.Name
	}
	e.sessions.reveal(req.SessionID, names)
}

// Revealed returns the current catalog snapshot and the tools that
// searches carrying sessionID have revealed, in reveal order (first reveal
// first, never re-sorted). A revealed tool that the catalog no longer has
// (deleted, or renamed: a rename is a delete and an insert) is dropped
// from the session for good; a tool inserted again must be revealed again
// and then goes to the end. An unknown, evicted or expired session, and
// the empty id, have no revealed tools. The call counts as use of the
// session for its idle TTL. Safe for concurrent use.
//
// An id longer than MaxSessionIDLength is an error wrapping
// ErrInvalidArgument.
func (e *Engine) Revealed(sessionID string) (*catalog.Snapshot, []Tool, error) {
	if err := checkSessionID(sessionID); err != nil {
		return nil, nil, err
	}
	snap := e.state.Load().snap
	return snap, e.revealedIn(snap, sessionID, nil), nil
}

// revealedIn is the session's revealed tools of snap, in reveal order,
// those that keep admits (nil keeps all).
func (e *Engine) revealedIn(snap *catalog.Snapshot, sessionID string, keep func(int) bool) []Tool {
	names := e.sessions.revealed(sessionID, func(n string) bool {
		_, ok := snap.Lookup(n)
		return ok
	})
	tools := make([]Tool, 0, len(names))
	for _, n := range names {
		if i, ok := snap.Lookup(n); ok && (keep == nil || keep(i)) {
			tools = append(tools, snap.Tool(i))
		}
	}
	return tools
}

// ResetSession forgets a session's revealed tools and reports whether the
// session existed. An empty or over-long id is an error wrapping
// ErrInvalidArgument. Safe for concurrent use.
func (e *Engine) ResetSession(sessionID string) (bool, error) {
	if sessionID == "" {
		return false, invalid(fmt.Errorf("session_id is empty; pass the id of the session to reset"))
	}
	if err := checkSessionID(sessionID); err != nil {
		return false, err
	}
	return e.sessions.reset(sessionID), nil
}

// MaxSessionIDLength is the longest session id accepted, in bytes: ids are
// opaque keys (a UUID is 36 bytes), and 256 leaves room for any scheme
// while keeping a session's key from costing more than its content.
const MaxSessionIDLength = 256

// checkSessionID rejects over-long session ids.
func checkSessionID(id string) error {
	if len(id) > MaxSessionIDLength {
		return invalid(fmt.Errorf("session_id is %d bytes long; use at most %d (e.g. a UUID)", len(id), MaxSessionIDLength))
	}
	return nil
}

// Sessions is the number of live sessions (for tests and metrics).
func (e *Engine) Sessions() int { return e.sessions.len() }
