package learn

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Config tunes a Store. The zero value uses the documented defaults.
type Config struct {
	// MaxQueriesPerTool bounds the learned queries kept per tool; past it
	// the one with the lowest decayed weight (then the last by text) other
	// than the query just used is dropped.
	// 0 means DefaultMaxQueriesPerTool.
	MaxQueriesPerTool int
	// HalfLife is the age at which a learned use counts half. 0 means
	// DefaultHalfLife.
	HalfLife time.Duration
	// MaxQueriesPerSession bounds how many distinct queries one session
	// can teach one tool; further uses by that session of that tool under
	// new queries are ignored. 0 means DefaultMaxQueriesPerSession.
	MaxQueriesPerSession int
	// MaxMissQueriesPerTool bounds how many distinct queries a tool learns
	// by misses (Use.Miss) in one scope; further misses under new queries
	// teach it nothing, but their sessions still count among the tool's
	// (Record, Counted). 0 means DefaultMaxMissQueriesPerTool.
	MaxMissQueriesPerTool int
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
}

// DefaultMaxQueriesPerTool is the default bound on learned queries per
// tool: 64 distinct wordings cover what agents say about one tool, and
// cost a few kilobytes per tool.
const DefaultMaxQueriesPerTool = 64

// DefaultMaxQueriesPerSession is the default bound on distinct queries one
// session teaches one tool. With the session's one vote (Record) it keeps
// one session, however many uses it reports, from filling a tool's learned
// queries or outweighing other sessions.
const DefaultMaxQueriesPerSession = 4

// DefaultMaxMissQueriesPerTool is the default bound on distinct queries a
// tool learns by misses. A miss credits a tool the search did not return
// to whatever the session searched last, so a tool used in nearly every
// session whatever it asked (an always-loaded file reader) would otherwise
// learn every query of every agent, and be lifted for all of them. A tool
// the catalog's text misses for a few wordings learns those; one missed
// for dozens of distinct requests is not about them. The dev sets' replay
// gives the same numbers with this bound as without one. The bound is on
// what the tool learns, not on how often it is used: every session that
// used it still counts among its sessions (Record returns Counted), so that
// its share of its scope's sessions — learned pinning, search's damp of a
// tool most sessions use — is read right for the tools used most.
const DefaultMaxMissQueriesPerTool = 8

// minImportedSessions is the two-session rule for what was imported: a
// tool's imported learned state lifts its ranking only with the claimed
// evidence of this many sessions, or once a live session here used it.
// A live session's report is checked (the tool must have been revealed
// by that session's search, learn.Attribute); an imported record is only a
// claim, so one claimed session — a crafted record — lifts nothing. A
// tool taught by one session keeps its queries across a restart but lifts
// again only when a second session (or the first, live) confirms it.
const minImportedSessions = 2

// maxSessionKeys bounds the in-memory per-session accounting; past it the
// accounting restarts (a session then counts as new: bounded, not exact).
const maxSessionKeys = 100000

func (c Config) withDefaults() Config {
	if c.MaxQueriesPerTool <= 0 {
		c.MaxQueriesPerTool = DefaultMaxQueriesPerTool
	}
	if c.HalfLife <= 0 {
		c.HalfLife = DefaultHalfLife
	}
	if c.MaxQueriesPerSession <= 0 {
		c.MaxQueriesPerSession = DefaultMaxQueriesPerSession
	}
	if c.MaxMissQueriesPerTool <= 0 {
		c.MaxMissQueriesPerTool = DefaultMaxMissQueriesPerTool
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Use is one successful (or partly trusted) use of a tool, attributed to
// one query.
type Use struct {
	// Scope is the learning scope the use belongs to ("" is the unscoped
	// one): what one scope learns never changes another's ranking. Package
	// search derives it from the request's visible set and category filter.
	Scope string
	// Tool is the tool's full name.
	Tool string
	// Query is the query text that led to the tool.
	Query string
	// Session is the agent session that reported it ("" counts as one
	// anonymous session).
	Session string
	// Weight is the use's weight before the session bound, in (0, 1]:
	// 1 for a success attributed wholly to Query.
	Weight float64
	// Miss is set when the use was credited to a search that did not
	// return the tool (learn.Attribute): the tool learns at most
	// Config.MaxMissQueriesPerTool distinct queries that way.
	Miss bool
	// At is when the use was learned; the zero time, or a time after the
	// store's clock, means now. A fleet's pods record each other's uses
	// with the time the first pod learned them, so that they decay alike.
	At time.Time
}

// Store is the learned state of one sidecar: per scope and tool, weighted
// query texts. It is safe for concurrent use; View returns an immutable
// copy for readers.
type Store struct {
	cfg Config

	mu      sync.Mutex
	tools   map[toolKey]map[string]*entry // (scope, tool) → normalized query → entry
	version uint64
	// sessions is the per-(session, tool) accounting behind the session
	// bounds; it is not persisted.
	sessions map[sessionKey]*sessionUse
	// voters counts, per tool, the sessions behind what it learned: live
	// sessions as they report, imported claims merged by maximum. It is
	// persisted as the records' sessions.
	voters map[toolKey]*voters
	// misses are, per tool, the distinct queries it learned by misses
	// (Use.Miss), at most Config.MaxMissQueriesPerTool. They are persisted
	// with its records (Record.Miss, Record.MissQueries), so that a restart
	// does not let a tool learn that many again.
	misses map[toolKey]*missed
	// scopes counts, per scope, the distinct sessions that taught any of
	// its tools (live sessions as they report, imported claims merged by
	// maximum): the denominator of learned pinning (pin.go). It is
	// persisted as the records' scope_sessions. scopeSeen is its
	// per-(session, scope) accounting, cleared with sessions.
	scopes    map[string]int
	scopeSeen map[scopeSessionKey]bool
}

// voters is the session evidence behind one tool's learned state.
type voters struct {
	// n is the number of distinct sessions (an upper bound once the
	// per-session accounting restarted).
	n int
	// live is true once a live session of this process taught the tool.
	live bool
}

// entry is one learned query of one tool: weight as of at.
type entry struct {
	query  string
	weight float64
	at     time.Time
}

// toolKey is one tool in one scope.
type toolKey struct{ scope, tool string }

type sessionKey struct{ session, scope, tool string }

type scopeSessionKey struct{ session, scope string }

type sessionUse struct {
	weight  float64
	queries []string
}

// missed is what one tool learned by misses: the distinct queries, and
// how many there were. n is at least len(queries), and more when imported
// state claimed queries learned by misses that the tool no longer holds
// (dropped past Config.MaxQueriesPerTool, or faded).
type missed struct {
	queries []string
	n       int
}

// has reports whether q is one of the queries m learned by misses (a nil
// m learned none).
func (m *missed) has(q string) bool { return m != nil && slices.Contains(m.queries, q) }

// count is the number of distinct queries m learned by misses (a nil m
// learned none).
func (m *missed) count() int {
	if m == nil {
		return 0
	}
	return m.n
}

// add adds q, a query not among m's, to the queries learned by misses.
func (m *missed) add(q string) {
	m.queries = append(m.queries, q)
	m.n++
}

// Effect is what Store.Record did with a use.
type Effect int

// Effects of Record, from none to the most.
const (
	// Ignored: nothing changed — an empty tool or query, a weight ≤ 0, or
	// a session that already gave the tool all one session may (its one
	// vote, Config.MaxQueriesPerSession queries), or a miss under a new
	// query of a tool past Config.MaxMissQueriesPerTool from a session
	// already counted.
	Ignored Effect = iota
	// Counted: the use's session now counts among the tool's sessions
	// (ToolView.Sessions) and its scope's (View.ScopeSessions), but its
	// query was not learned: a miss under a new query of a tool that
	// already learned Config.MaxMissQueriesPerTool queries by misses. The
	// tool's share of its scope's sessions (learned pinning, search's damp
	// of a tool most sessions use) counts every session that used it.
	Counted
	// Learned: the use taught the tool its query (and counted its
	// session, when new).
	Learned
)

// String names e: "ignored", "counted" or "learned".
func (e Effect) String() string {
	switch e {
	case Ignored:
		return "ignored"
	case Counted:
		return "counted"
	case Learned:
		return "learned"
	}
	return fmt.Sprintf("Effect(%d)", int(e))
}

// NewStore returns an empty store.
func NewStore(cfg Config) *Store {
	return &Store{cfg: cfg.withDefaults(), tools: map[toolKey]map[string]*entry{}, sessions: map[sessionKey]*sessionUse{}, voters: map[toolKey]*voters{},
		scopes: map[string]int{}, scopeSeen: map[scopeSessionKey]bool{}, misses: map[toolKey]*missed{}}
}

// HalfLife is the store's effective half-life.
func (s *Store) HalfLife() time.Duration { return s.cfg.HalfLife }

// NormalizeQuery is the form a query is learned under: lowercase, with
// runs of white space made one space, trimmed.
func NormalizeQuery(q string) string { return strings.Join(strings.Fields(strings.ToLower(q)), " ") }

// Record learns u and returns what it did. The session bounds apply: one
// session is one vote per tool — all its uses of a tool together add at
// most weight 1, however many it reports — and teaches a tool at most
// Config.MaxQueriesPerSession distinct queries; and misses teach a tool at
// most Config.MaxMissQueriesPerTool distinct queries. A use's session is
// counted among the tool's and its scope's sessions whether or not its
// query is learned (Counted): a tool past its bound on misses is still
// used. An empty tool or query, or a weight ≤ 0, changes nothing.
func (s *Store) Record(u Use) Effect {
	q := NormalizeQuery(u.Query)
	if u.Tool == "" || q == "" || !(u.Weight > 0) {
		return Ignored
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := sessionKey{u.Session, u.Scope, u.Tool}
	tool := toolKey{u.Scope, u.Tool}
	effect := Ignored
	su := s.sessions[key]
	if su == nil {
		if len(s.sessions) >= maxSessionKeys {
			clear(s.sessions)
			clear(s.scopeSeen)
		}
		su = &sessionUse{}
		s.sessions[key] = su
		// A new session for this tool: it counts whatever is learned
		// below, and its first use adds unless the miss bound refuses it.
		s.voter(tool).n++
		if sk := (scopeSessionKey{u.Session, u.Scope}); !s.scopeSeen[sk] {
			s.scopeSeen[sk] = true
			s.scopes[u.Scope]++
		}
		effect = Counted
		s.version++
	}
	m := s.misses[tool]
	newMiss := u.Miss && !m.has(q)
	if newMiss && m.count() >= s.cfg.MaxMissQueriesPerTool {
		return effect
	}
	if !slices.Contains(su.queries, q) {
		if len(su.queries) >= s.cfg.MaxQueriesPerSession {
			return effect
		}
		su.queries = append(su.queries, q)
	}
	w := min(u.Weight, 1, 1-su.weight)
	if w < 1e-9 {
		return effect
	}
	su.weight += w
	if newMiss {
		s.missesOf(tool).add(q)
	}
	at := s.cfg.Now()
	if !u.At.IsZero() && u.At.Before(at) {
		at = u.At
	}
	s.voter(tool).live = true
	s.add(tool, q, w, at, false)
	if effect == Ignored {
		s.version++
	}
	return Learned
}

// missesOf returns what tool learned by misses, made on first use (past
// maxSessionKeys tools, the accounting restarts: bounded, not exact).
// Callers hold mu.
func (s *Store) missesOf(tool toolKey) *missed {
	m := s.misses[tool]
	if m == nil {
		if len(s.misses) >= maxSessionKeys {
			clear(s.misses)
		}
		m = &missed{}
		s.misses[tool] = m
	}
	return m
}

// voter returns tool's session evidence, made on first use. Callers hold
// mu.
func (s *Store) voter(tool toolKey) *voters {
	v := s.voters[tool]
	if v == nil {
		v = &voters{}
		s.voters[tool] = v
	}
	return v
}

// add adds (or, with keepMax, raises to) weight w as of at to the tool's
// query q, then enforces the per-tool bound. Callers hold mu.
func (s *Store) add(tool toolKey, q string, w float64, at time.Time, keepMax bool) {
	now := s.cfg.Now()
	w = decayed(w, at, now, s.cfg.HalfLife)
	es := s.tools[tool]
	if es[q] == nil && w < forgetWeight {
		// Already faded (an old import, a record without a time): it would
		// never count, and its weight may have decayed to 0, which an
		// export could not be imported with.
		return
	}
	if es == nil {
		es = map[string]*entry{}
		s.tools[tool] = es
	}
	if e := es[q]; e != nil {
		cur := decayed(e.weight, e.at, now, s.cfg.HalfLife)
		if keepMax {
			e.weight = max(cur, w)
		} else {
			e.weight = cur + w
		}
		e.at = now
	} else {
		es[q] = &entry{query: q, weight: w, at: now}
	}
	for len(es) > s.cfg.MaxQueriesPerTool {
		var worst *entry
		worstW := 0.0
		for _, e := range es {
			if e.query == q {
				continue // the query just used stays: a new wording can enter
			}
			d := decayed(e.weight, e.at, now, s.cfg.HalfLife)
			if worst == nil || d < worstW || (d == worstW && e.query > worst.query) {
				worst, worstW = e, d
			}
		}
		delete(es, worst.query)
	}
}

// Version counts the store's changes; a reader that cached a View rebuilds
// when it differs.
func (s *Store) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Reset forgets what tool learned, in every scope, and reports whether it
// had learned anything.
func (s *Store) Reset(tool string) bool {
	return s.Retain(func(t string) bool { return t != tool }) > 0
}

// ResetAll forgets everything learned and returns how many tools (counted
// once per scope) had learned something.
func (s *Store) ResetAll() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.tools)
	clear(s.tools)
	clear(s.sessions)
	clear(s.voters)
	clear(s.misses)
	clear(s.scopes)
	clear(s.scopeSeen)
	s.version++
	return n
}

// Retain drops what every tool that keep rejects had learned, in every
// scope (tools deleted from the catalog), and returns how many tools
// (counted once per scope) it dropped. A tool whose content changed keeps
// its learned state: it is keyed by name.
func (s *Store) Retain(keep func(tool string) bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.tools {
		if !keep(k.tool) {
			delete(s.tools, k)
			delete(s.voters, k)
			delete(s.misses, k)
			n++
		}
	}
	if n > 0 {
		s.version++
	}
	return n
}

// View returns an immutable copy of what the store has learned as of now:
// decayed weights, entries faded below forgetWeight left out.
func (s *Store) View() *View {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	v := &View{Version: s.version, tools: make(map[toolKey]*ToolView, len(s.tools)), names: map[string][]string{}, scopeSessions: maps.Clone(s.scopes)}
	for k, es := range s.tools {
		tv := &ToolView{Scope: k.scope, Tool: k.tool}
		if vt := s.voters[k]; vt != nil {
			tv.Sessions, tv.Live = vt.n, vt.live
		}
		for _, e := range es {
			w := decayed(e.weight, e.at, now, s.cfg.HalfLife)
			if w < forgetWeight {
				continue
			}
			tv.Queries = append(tv.Queries, Query{Text: e.query, Weight: w, LastUsed: e.at})
			tv.Weight += w
		}
		if len(tv.Queries) == 0 {
			continue
		}
		if tv.Live || tv.Sessions >= minImportedSessions {
			tv.Evidence = min(tv.Weight, float64(tv.Sessions))
		}
		slices.SortFunc(tv.Queries, func(a, b Query) int {
			switch {
			case a.Weight > b.Weight:
				return -1
			case a.Weight < b.Weight:
				return 1
			}
			return strings.Compare(a.Text, b.Text)
		})
		v.tools[k] = tv
		v.names[k.scope] = append(v.names[k.scope], k.tool)
	}
	for sc, names := range v.names {
		slices.Sort(names)
		v.scopes = append(v.scopes, sc)
	}
	slices.Sort(v.scopes)
	return v
}
