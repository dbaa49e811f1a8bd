package mcpserver

import (
	"encoding/json"
	"fmt"
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
	// raw holds each tool's toolset JSON, for telling lists apart without
	// encoding them again.
	raw []json.RawMessage
	// loaded holds the catalog names of the listed catalog tools.
	loaded map[string]bool
	// names maps listed names to catalog names where they differ.
	names map[string]string
	// prompt is toolset's system prompt addition ("" when nothing is
	// deferred).
	prompt    string
	deferring bool
}

// buildBase builds the base list of the visible tools of snap.
func buildBase(snap *catalog.Snapshot, sc Scope, threshold, maxResults int) (*baseList, error) {
	tools := newVisibility(sc.Visible).filter(snap.Tools())
	ts, err := toolset.Build(tools, nil, toolset.Options{
		Format:            toolset.MCP,
		AlwaysLoaded:      sc.AlwaysLoaded,
		DeferralThreshold: threshold,
		MaxResults:        maxResults,
	})
	if err != nil {
		return nil, err
	}
	defs, raw, err := decodeMCPTools(ts.Tools)
	if err != nil {
		return nil, err
	}
	b := &baseList{tools: defs, raw: raw, loaded: make(map[string]bool, len(ts.Loaded)), names: ts.Names,
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

// keys returns the keys cached for snap (none if the cache holds another
// snapshot's lists).
func (c *listCache) keys(snap *catalog.Snapshot) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return nil
	}
	out := make([]string, 0, len(c.m))
	for k := range c.m {
		out = append(out, k)
	}
	return out
}

// scopeKey identifies a scope in the list cache.
func scopeKey(sc Scope) string {
	return strings.Join(sc.Visible, ",") + "\x00" + strings.Join(sc.AlwaysLoaded, ",")
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

// decodeMCPTools decodes toolset's MCP tools array into go-sdk tools, with
// each tool's JSON.
func decodeMCPTools(list json.RawMessage) ([]*mcp.Tool, []json.RawMessage, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(list, &raw); err != nil {
		return nil, nil, fmt.Errorf("mcpserver: decode toolset: %w", err)
	}
	out := make([]*mcp.Tool, len(raw))
	for i, r := range raw {
		var d struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
			Annotations  json.RawMessage `json:"annotations"`
		}
		if err := json.Unmarshal(r, &d); err != nil {
			return nil, nil, fmt.Errorf("mcpserver: decode toolset: %w", err)
		}
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
		out[i] = t
	}
	return out, raw, nil
}
