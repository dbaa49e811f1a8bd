package mcpserver_test

import (
	"slices"
	"testing"

	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// With learning on, the endpoint's tools/call teaches the engine without
// any client work: a successful call of a revealed tool is learned for the
// query that revealed it; a tool error teaches nothing.
func TestCallsTeachTheEngine(t *testing.T) {
	store := learn.NewStore(learn.Config{})
	f := startWith(t, mcpserver.Config{DeferralThreshold: 1}, search.Config{Learn: search.LearnConfig{Store: store, Sync: true}})
	c := connect(t, f.url, nil)
	c.search(t, map[string]any{"query": "echo a message back", "max_results": 1})
	c.waitListChanged(t)
	if got, isErr := c.call(t, "up__echo", map[string]any{"message": "hi"}); isErr {
		t.Fatalf("up__echo = %q, an error", got)
	}
	tvs := store.View().Find("up__echo")
	if len(tvs) != 1 || tvs[0].Queries[0].Text != "echo a message back" {
		t.Errorf("learned for up__echo = %+v, want the query that revealed it", tvs)
	}
	c.search(t, map[string]any{"query": "select:up__fail"})
	c.waitListChanged(t)
	if _, isErr := c.call(t, "up__fail", nil); !isErr {
		t.Fatal("up__fail did not fail")
	}
	if tvs := store.View().Find("up__fail"); len(tvs) != 0 {
		t.Errorf("a failed call taught up__fail %+v", tvs)
	}
}

// With --learn-pin, a tool the endpoint's sessions called in most of them
// is in every new session's first tools/list, after tool_search; one
// session's calls never pin it.
func TestLearnedPinInToolsList(t *testing.T) {
	store := learn.NewStore(learn.Config{})
	f := startWith(t, mcpserver.Config{DeferralThreshold: 1}, search.Config{Learn: search.LearnConfig{Store: store, Sync: true, Pin: true}})
	session := func(calls int) {
		c := connect(t, f.url, nil)
		c.search(t, map[string]any{"query": "echo a message back", "max_results": 1})
		c.waitListChanged(t)
		for range calls {
			if got, isErr := c.call(t, "up__echo", map[string]any{"message": "hi"}); isErr {
				t.Fatalf("up__echo = %q, an error", got)
			}
		}
	}
	first := func() []string { return connect(t, f.url, nil).names(t) }
	session(10)
	if got := first(); slices.Contains(got, "up__echo") {
		t.Fatalf("one session pinned up__echo: %v", got)
	}
	for range learn.DefaultPinMinSessions - 1 {
		session(1)
	}
	if got := first(); len(got) < 2 || got[0] != "tool_search" || got[1] != "up__echo" {
		t.Errorf("a new session's first list = %v, want tool_search then up__echo", got)
	}
}
