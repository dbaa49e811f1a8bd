package catalog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestApplyKeepsIDsStable applies random batches of upserts and deletes,
// small (edited name order) and large (sorted again), and checks after
// each one the Snapshot's promises against a plain map of the catalog:
// the same tools, name order, lookups, server counts, and that every ID
// not in Counts.Edited holds the same tool as before the change.
func TestApplyKeepsIDsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	model := map[string]Tool{}
	var start []Tool
	for i := range 300 {
		tl := randomTool(rng, i)
		if _, dup := model[tl.Name]; !dup {
			model[tl.Name] = tl
			start = append(start, tl)
		}
	}
	s, err := NewSnapshot(start)
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshot(t, s, model)
	for step := range 400 {
		size := 1 + rng.IntN(4)
		if step%25 == 0 {
			size = sortOrderPast + rng.IntN(100) // past the re-sort threshold
		}
		var upsert []Tool
		var del []string
		inBatch := map[string]bool{}
		names := sortedKeys(model)
		for range size {
			switch {
			case rng.IntN(3) == 0 && len(names) > 0:
				name := names[rng.IntN(len(names))]
				if !inBatch[name] {
					inBatch[name] = true
					del = append(del, name)
				}
			case rng.IntN(2) == 0 && len(names) > 0:
				name := names[rng.IntN(len(names))]
				if !inBatch[name] {
					inBatch[name] = true
					tl := model[name]
					tl.Description = fmt.Sprintf("Changed at step %d.", step)
					upsert = append(upsert, tl)
				}
			default:
				tl := randomTool(rng, 1000+step*200+len(upsert))
				if _, ok := model[tl.Name]; !ok && !inBatch[tl.Name] {
					inBatch[tl.Name] = true
					upsert = append(upsert, tl)
				}
			}
		}
		next, c, err := s.Apply(upsert, del)
		if err != nil {
			t.Fatalf("step %d: Apply: %v", step, err)
		}
		edited := map[int]bool{}
		for k, id := range c.Edited {
			if id >= next.Len() || k > 0 && c.Edited[k-1] >= id {
				t.Fatalf("step %d: Edited %v is not ascending below Len %d", step, c.Edited, next.Len())
			}
			edited[id] = true
		}
		for id := range min(s.Len(), next.Len()) {
			if !edited[id] && !s.Tool(id).equal(next.Tool(id)) {
				t.Fatalf("step %d: ID %d changed from %q to %q but is not in Edited", step, id, s.Tool(id).Name, next.Tool(id).Name)
			}
		}
		for id := s.Len(); id < next.Len(); id++ {
			if !edited[id] {
				t.Fatalf("step %d: new ID %d is not in Edited", step, id)
			}
		}
		for _, name := range del {
			delete(model, name)
		}
		for _, tl := range upsert {
			model[tl.Name] = Normalize(tl)
		}
		checkSnapshot(t, next, model)
		s = next
	}
}

// checkSnapshot compares s with the catalog model.
func checkSnapshot(t *testing.T, s *Snapshot, model map[string]Tool) {
	t.Helper()
	if s.Len() != len(model) {
		t.Fatalf("Len() = %d, want %d", s.Len(), len(model))
	}
	if diff := slices.Compare(names(s.Tools()), sortedKeys(model)); diff != 0 {
		t.Fatalf("Tools() is not the catalog in name order")
	}
	servers := map[string]int{}
	for id, tl := range s.All() {
		if !tl.equal(model[tl.Name]) {
			t.Fatalf("ID %d holds %q, which differs from the catalog's", id, tl.Name)
		}
		if got, ok := s.Lookup(tl.Name); !ok || got != id {
			t.Fatalf("Lookup(%q) = %d, %v, want %d", tl.Name, got, ok, id)
		}
		if tl.Server != "" {
			servers[tl.Server]++
		}
	}
	for k := range s.Len() {
		if s.Tool(s.NameOrder(k)).Name != s.Tools()[k].Name {
			t.Fatalf("NameOrder(%d) disagrees with Tools()", k)
		}
	}
	if _, ok := s.Lookup("zzz-not-a-tool"); ok {
		t.Fatal("Lookup found a tool that is not there")
	}
	if len(s.Servers()) != len(servers) {
		t.Fatalf("Servers() has %d servers, want %d", len(s.Servers()), len(servers))
	}
	for _, sc := range s.Servers() {
		if servers[sc.Name] != sc.Tools {
			t.Fatalf("server %q counts %d tools, want %d", sc.Name, sc.Tools, servers[sc.Name])
		}
	}
}

func randomTool(rng *rand.Rand, i int) Tool {
	server := []string{"", "git", "slack", "fs"}[rng.IntN(4)]
	name := fmt.Sprintf("t%04d_%s", rng.IntN(5000), strings.Repeat("x", rng.IntN(3)))
	if server != "" {
		name = server + "__" + name
	}
	return Tool{Name: name, Server: server, Description: fmt.Sprintf("Tool %d.", i), InputSchema: []byte(`{"type":"object"}`)}
}

func sortedKeys(m map[string]Tool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
