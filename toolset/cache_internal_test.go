package toolset

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// The cache holds at most its capacity, keeps what is in use across a
// generation turn, and keys on content: a changed tool misses.
func TestCacheBounded(t *testing.T) {
	tool := func(i int) catalog.Tool {
		return catalog.Tool{Name: fmt.Sprintf("t%d", i), Description: "d", InputSchema: json.RawMessage(`{"$schema":"x","type":"object"}`)}
	}
	for _, tc := range []struct {
		name              string
		capacity, tools   int
		wantMax, wantHits int
	}{
		{"fits", 100, 10, 10, 10},
		{"overflows", 8, 50, 8, 0},
		{"tiny", 1, 5, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCache(tc.capacity)
			for pass := 0; pass < 2; pass++ {
				for i := range tc.tools {
					n := c.normalized(tool(i), 0)
					if len(n.changes) == 0 {
						t.Fatalf("tool %d: no $schema change recorded", i)
					}
				}
			}
			st := c.Stats()
			if st.Entries > tc.wantMax {
				t.Errorf("Entries = %d, want at most %d", st.Entries, tc.wantMax)
			}
			if int(st.Hits) != tc.wantHits || st.Hits+st.Misses != uint64(2*tc.tools) {
				t.Errorf("Stats = %+v, want %d hits of %d lookups", st, tc.wantHits, 2*tc.tools)
			}
		})
	}
	t.Run("content keyed", func(t *testing.T) {
		c := NewCache(10)
		a := tool(1)
		c.normalized(a, 0)
		b := a
		b.Description = "other"
		if got := c.normalized(b, 0).description; got != "other" {
			t.Errorf("changed description: got %q from the cache", got)
		}
		c.normalized(a, OpenAIMaxDescription) // another limit: another key
		if st := c.Stats(); st.Hits != 0 || st.Entries != 3 {
			t.Errorf("Stats = %+v, want 0 hits and 3 entries", st)
		}
	})
	t.Run("in use survives a turn", func(t *testing.T) {
		c := NewCache(4) // two generations of 2
		hot := tool(0)
		for i := 1; i < 20; i++ {
			c.normalized(hot, 0)
			c.normalized(tool(i), 0)
		}
		if st := c.Stats(); st.Hits != 18 {
			t.Errorf("Stats = %+v, want the hot tool hit 18 times", st)
		}
	})
	t.Run("nil caches nothing", func(t *testing.T) {
		var c *Cache
		if n := c.normalized(tool(1), 0); len(n.changes) == 0 {
			t.Error("nil cache: no normalization")
		}
		if st := c.Stats(); st != (CacheStats{}) {
			t.Errorf("nil Stats = %+v", st)
		}
	})
}

// Concurrent builds share one cache (run under -race).
func TestCacheConcurrent(t *testing.T) {
	c := NewCache(16)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				tl := catalog.Tool{Name: fmt.Sprintf("t%d", (i+g)%40), InputSchema: json.RawMessage(`{"type":"object"}`)}
				if n := c.normalized(tl, 0); string(n.schema) != `{"type":"object"}` {
					t.Errorf("schema %s", n.schema)
				}
			}
		})
	}
	wg.Wait()
	if st := c.Stats(); st.Entries > 16 || st.Hits+st.Misses != 800 {
		t.Errorf("Stats = %+v", st)
	}
}

// Every kind has a name, and the kinds' rules hold.
func TestEntryKinds(t *testing.T) {
	for _, tc := range []struct {
		k           EntryKind
		name        string
		fixed, full bool
	}{
		{EntrySearch, "search", true, false},
		{EntryPinned, "pinned", true, true},
		{EntryLoaded, "loaded", false, true},
		{EntryStub, "stub", false, false},
		{EntryDeferred, "deferred", false, false},
		{EntryLearnedPin, "learned_pin", false, true},
	} {
		if tc.k.String() != tc.name || tc.k.fixed() != tc.fixed || tc.k.full() != tc.full {
			t.Errorf("%d: %s fixed=%v full=%v, want %s %v %v", tc.k, tc.k, tc.k.fixed(), tc.k.full(), tc.name, tc.fixed, tc.full)
		}
	}
	if s := EntryKind(0).String(); s != "EntryKind(0)" {
		t.Errorf("zero kind: %q", s)
	}
}
