package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// baseList is a scope's tool list before any reveal, built once per
// catalog snapshot with package toolset over the scope's visible tools and
// shared by every session and request of that scope: the only part of a
// list whose cost grows with the catalog. It is never modified.
type baseList struct {
	tools []*mcp.Tool
	// defs are toolset's definitions of tools, for telling lists apart.
	defs []toolset.Definition
	// loaded holds the catalog names of the listed catalog tools.
	loaded map[string]bool
	// names maps listed names to catalog names where they differ.
	names map[string]string
	// prompt is toolset's system prompt addition ("" when nothing is
	// deferred).
	prompt    string
	deferring bool
}

// buildBase builds the base list of the visible tools of snap, with the
// tools learning pinned in the scope (pinned, from learnedPins).
func (s *Server) buildBase(snap *catalog.Snapshot, sc Scope, threshold int, pinned []string) (*baseList, error) {
	tools := newVisibility(sc.Visible).filter(snap.Tools())
	ts, err := toolset.Build(tools, nil, s.cfg.Toolset.Apply(toolset.Options{
		Format:            toolset.MCP,
		AlwaysLoaded:      sc.AlwaysLoaded,
		LearnedPinned:     pinned,
		DeferralThreshold: threshold,
		MaxResults:        s.cfg.Engine.MaxResultsCap(),
		Cache:             s.toolsets,
	}))
	if err != nil {
		return nil, err
	}
	b := &baseList{tools: mcpTools(ts.Definitions), defs: ts.Definitions, loaded: make(map[string]bool, len(ts.Loaded)), names: ts.Names,
		prompt: ts.SystemPrompt, deferring: ts.Deferring}
	for _, n := range ts.Loaded {
		b.loaded[n] = true
	}
	return b, nil
}

// maxCachedLists bounds the base lists kept per catalog snapshot (one per
// mode and distinct scope); past it the cache is cleared: agents use a
// handful of scopes, and a cleared cache only costs a rebuild.
const maxCachedLists = 64

// listCache holds the base lists of the current snapshot by key (mode and
// scope). Safe for concurrent use.
type listCache struct {
	mu   sync.Mutex
	snap *catalog.Snapshot
	m    map[string]*baseList
}

// get returns the list of key for snap, building it with build on the
// first request after a catalog change. A list built for a snapshot that
// is no longer the newest is returned but not kept.
func (c *listCache) get(snap *catalog.Snapshot, key string, build func() (*baseList, error)) (*baseList, error) {
	c.mu.Lock()
	if c.snap != snap {
		c.snap, c.m = snap, map[string]*baseList{}
	}
	l := c.m[key]
	c.mu.Unlock()
	if l != nil {
		return l, nil
	}
	l, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.snap == snap {
		if len(c.m) >= maxCachedLists {
			clear(c.m)
		}
		c.m[key] = l
	}
	c.mu.Unlock()
	return l, nil
}

// scopeKey identifies a scope in the list cache.
func scopeKey(sc Scope) string {
	return strings.Join(sc.Visible, ",") + "\x00" + strings.Join(sc.AlwaysLoaded, ",")
}

// learnedPins are the tools learning pins in sc's learning scope (the
// sidecar's --learn-pin; search.Engine.LearnedPinnedFor), and the part of
// a list-cache key that tells lists with other pins apart: a scope's list
// changes as its agents' sessions pin tools. A pin outside the scope's
// visible tools is never listed (toolset.Build sees the visible tools
// only).
func (s *Server) learnedPins(sc Scope) ([]string, string) {
	pinned := s.cfg.Engine.LearnedPinnedFor(sc.Visible)
	if len(pinned) == 0 {
		return nil, ""
	}
	return pinned, "\x00" + strings.Join(pinned, ",")
}

// scopeFromKey is scopeKey's inverse.
func scopeFromKey(key string) Scope {
	v, a, _ := strings.Cut(key, "\x00")
	var sc Scope
	if v != "" {
		sc.Visible = strings.Split(v, ",")
	}
	if a != "" {
		sc.AlwaysLoaded = strings.Split(a, ",")
	}
	return sc
}

// mcpTools converts toolset's definitions into go-sdk tools.
func mcpTools(defs []toolset.Definition) []*mcp.Tool {
	out := make([]*mcp.Tool, len(defs))
	for i, d := range defs {
		out[i] = mcpTool(d)
	}
	return out
}

// mcpTool converts one definition into a go-sdk tool.
func mcpTool(d toolset.Definition) *mcp.Tool {
	t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema}
	if len(d.OutputSchema) > 0 {
		// A live server's tool keeps its outputSchema: its
		// structuredContent is passed through as is.
		t.OutputSchema = d.OutputSchema
	}
	if len(d.Annotations) > 0 {
		var a mcp.ToolAnnotations
		if json.Unmarshal(d.Annotations, &a) == nil && a != (mcp.ToolAnnotations{}) {
			t.Annotations = &a
		}
	}
	return t
}

// sameDefinition reports whether two definitions list the same tool.
func sameDefinition(a, b toolset.Definition) bool {
	return a.Kind == b.Kind && a.Tool == b.Tool && a.Name == b.Name && a.Description == b.Description && a.Title == b.Title &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.OutputSchema, b.OutputSchema) && bytes.Equal(a.Annotations, b.Annotations)
}

// sameTools reports whether two lists hold the same definitions.
func sameTools(a, b []toolset.Definition) bool { return slices.EqualFunc(a, b, sameDefinition) }
