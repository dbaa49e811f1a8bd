package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// tool returns a valid tool for snapshot tests.
func tool(name, description string) Tool {
	return Tool{Name: name, Description: description, InputSchema: json.RawMessage(defaultSchema)}
}

// names lists the names of tools.
func names(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func TestNewSnapshot(t *testing.T) {
	s, err := NewSnapshot([]Tool{
		tool("slack__send_message", "Send."),
		tool("github__create_issue", "Create."),
		{Name: " weather__get_forecast ", Server: "wx"},
		tool("plain", ""),
		tool("github__search_issues", "Search."),
	})
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	if got := s.Version(); got != 1 {
		t.Errorf("Version() = %d, want 1", got)
	}
	if got := s.Len(); got != 5 {
		t.Errorf("Len() = %d, want 5", got)
	}
	wantNames := []string{"github__create_issue", "github__search_issues", "plain", "slack__send_message", "weather__get_forecast"}
	if diff := cmp.Diff(wantNames, names(s.Tools())); diff != "" {
		t.Errorf("Tools() names mismatch (-want +got):\n%s", diff)
	}
	for i, name := range wantNames {
		if got := s.Tool(i).Name; got != name {
			t.Errorf("Tool(%d).Name = %q, want %q", i, got, name)
		}
		if j, ok := s.Lookup(name); !ok || j != i {
			t.Errorf("Lookup(%q) = %d, %v, want %d, true", name, j, ok, i)
		}
	}
	if _, ok := s.Lookup("nope"); ok {
		t.Errorf("Lookup(nope) found a tool")
	}
	wantServers := []ServerCount{{"github", 2}, {"slack", 1}, {"wx", 1}}
	if diff := cmp.Diff(wantServers, s.Servers()); diff != "" {
		t.Errorf("Servers() mismatch (-want +got):\n%s", diff)
	}
	if got, want := s.Tool(4).InputSchema, json.RawMessage(defaultSchema); string(got) != string(want) {
		t.Errorf("default schema = %s, want %s", got, want)
	}
	if got, want := s.String(), "catalog v1 (5 tools)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestNewSnapshotInvalid(t *testing.T) {
	s, err := NewSnapshot([]Tool{tool("a", ""), tool("a", ""), {Name: "x", InputSchema: json.RawMessage(`"s"`)}})
	if s != nil {
		t.Errorf("NewSnapshot returned a snapshot with an error")
	}
	want := `2 problems in tool definitions:
	index 2 ("x"): input schema is a string, want a JSON object; fix: give the input schema as an object such as {"type":"object","properties":{...}}
	index 1 ("a"): duplicate name; first defined at index 0; fix: rename one of the tools, or load their files under different server namespaces`
	if err == nil {
		t.Fatal("NewSnapshot: no error")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error mismatch (-want +got):\n%s", diff)
	}
}

func TestSnapshotImmutable(t *testing.T) {
	input := []Tool{tool("b", "B."), tool("a", "A.")}
	input[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)
	input[1].Annotations = json.RawMessage(`{"readOnlyHint":true}`)
	s, err := NewSnapshot(input)
	if err != nil {
		t.Fatal(err)
	}
	before := cloneTools(s.Tools())

	// Mutate everything the caller still holds.
	input[0].Name = "zzz"
	input[1].Description = "changed"
	for i := range input[0].InputSchema {
		input[0].InputSchema[i] = ' '
	}
	for i := range input[1].Annotations {
		input[1].Annotations[i] = ' '
	}
	_ = append(input[:0], tool("c", "")) // writes into input's array

	if diff := cmp.Diff(before, cloneTools(s.Tools())); diff != "" {
		t.Errorf("snapshot changed after its input was mutated (-want +got):\n%s", diff)
	}
	// Appending to Tools() must not write into the snapshot's array.
	_ = append(s.Tools(), tool("zz", ""))
	if diff := cmp.Diff(before, cloneTools(s.Tools())); diff != "" {
		t.Errorf("snapshot changed after appending to Tools() (-want +got):\n%s", diff)
	}
}

// cloneTools deep-copies tools so later mutations cannot reach the copy.
func cloneTools(tools []Tool) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		t.InputSchema = append(json.RawMessage(nil), t.InputSchema...)
		t.Annotations = append(json.RawMessage(nil), t.Annotations...)
		out[i] = t
	}
	return out
}

func TestSnapshotGet(t *testing.T) {
	s, err := NewSnapshot([]Tool{tool("a", "A."), tool("b", "B."), tool("c", "C.")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		ask     []string
		want    []string
		wantErr string
	}{
		{name: "order asked", ask: []string{"c", "a"}, want: []string{"c", "a"}},
		{name: "twice", ask: []string{"b", "b"}, want: []string{"b", "b"}},
		{name: "none", ask: nil, want: []string{}},
		{name: "one unknown", ask: []string{"a", "x"}, wantErr: `tool not found: "x"`},
		{name: "every unknown once", ask: []string{"x", "a", "y", "x"}, wantErr: `2 tools not found: "x", "y"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Get(tt.ask...)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Get error = %v, want one wrapping ErrNotFound", err)
				}
				if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
					t.Errorf("error mismatch (-want +got):\n%s", diff)
				}
				if got != nil {
					t.Errorf("Get returned tools with an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := cmp.Diff(tt.want, names(got)); diff != "" {
				t.Errorf("Get mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSnapshotUpsert(t *testing.T) {
	base, err := NewSnapshot([]Tool{tool("a", "A."), tool("b", "B."), tool("c", "C.")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		batch        []Tool
		wantNames    []string
		wantInserted int
		wantUpdated  int
		wantEdited   []int
		wantErr      string
	}{
		{
			name:         "insert and update",
			batch:        []Tool{tool("d", "D."), tool("b", "B, better."), tool("0", "")},
			wantNames:    []string{"0", "a", "b", "c", "d"},
			wantInserted: 2, wantUpdated: 1,
			wantEdited: []int{1, 3, 4}, // b keeps ID 1; d and 0 get the next IDs
		},
		{
			name:      "identical tool is neither inserted nor updated",
			batch:     []Tool{tool("a", " A. ")},
			wantNames: []string{"a", "b", "c"},
		},
		{
			name:      "empty batch",
			wantNames: []string{"a", "b", "c"},
		},
		{
			name:    "duplicate in batch",
			batch:   []Tool{tool("d", ""), tool("e", ""), tool("d", "")},
			wantErr: `index 2 ("d"): duplicate name; first defined at index 0; fix: rename one of the tools, or load their files under different server namespaces`,
		},
		{
			name:  "invalid batch",
			batch: []Tool{tool("ok", ""), tool("", ""), {Name: "s", InputSchema: json.RawMessage(`[1]`)}},
			wantErr: `2 problems in tool definitions:
	index 1: name is empty; fix: give every tool a non-empty "name"
	index 2 ("s"): input schema is an array, want a JSON object; fix: give the input schema as an object such as {"type":"object","properties":{...}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := cloneTools(base.Tools())
			next, c, err := base.Apply(tt.batch, nil)
			inserted, updated := c.Inserted, c.Updated
			if diff := cmp.Diff(before, cloneTools(base.Tools())); diff != "" || base.Version() != 1 {
				t.Errorf("Upsert changed the old snapshot (version %d) (-want +got):\n%s", base.Version(), diff)
			}
			if tt.wantErr != "" {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Upsert error = %v, want one wrapping ErrInvalid", err)
				}
				if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
					t.Errorf("error mismatch (-want +got):\n%s", diff)
				}
				if next != nil {
					t.Errorf("Upsert returned a snapshot with an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Upsert: %v", err)
			}
			if next.Version() != 2 {
				t.Errorf("Version() = %d, want 2", next.Version())
			}
			if diff := cmp.Diff(tt.wantNames, names(next.Tools())); diff != "" {
				t.Errorf("names mismatch (-want +got):\n%s", diff)
			}
			if inserted != tt.wantInserted || updated != tt.wantUpdated {
				t.Errorf("inserted, updated = %d, %d, want %d, %d", inserted, updated, tt.wantInserted, tt.wantUpdated)
			}
			if diff := cmp.Diff(tt.wantEdited, c.Edited, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Edited mismatch (-want +got):\n%s", diff)
			}
			for i, tool := range next.All() {
				if j, ok := next.Lookup(tool.Name); !ok || j != i {
					t.Errorf("Lookup(%q) = %d, %v, want %d, true", tool.Name, j, ok, i)
				}
			}
		})
	}
}

func TestSnapshotDelete(t *testing.T) {
	base, err := NewSnapshot([]Tool{tool("x__a", ""), tool("x__b", ""), tool("y__c", "")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		del         []string
		wantNames   []string
		wantServers []ServerCount
		wantErr     string
	}{
		{name: "one", del: []string{"x__a"}, wantNames: []string{"x__b", "y__c"}, wantServers: []ServerCount{{"x", 1}, {"y", 1}}},
		{name: "twice", del: []string{"y__c", "y__c"}, wantNames: []string{"x__a", "x__b"}, wantServers: []ServerCount{{"x", 2}}},
		{name: "all", del: []string{"x__a", "x__b", "y__c"}, wantNames: []string{}, wantServers: []ServerCount{}},
		{name: "unknown deletes nothing", del: []string{"x__a", "nope", "x__b", "gone"}, wantErr: `2 tools not found: "nope", "gone"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, err := base.Delete(tt.del)
			if base.Len() != 3 || base.Version() != 1 {
				t.Errorf("Delete changed the old snapshot: %v", base)
			}
			if tt.wantErr != "" {
				var nf *NotFoundError
				if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
					t.Fatalf("Delete error = %v, want a *NotFoundError", err)
				}
				if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
					t.Errorf("error mismatch (-want +got):\n%s", diff)
				}
				if next != nil {
					t.Errorf("Delete returned a snapshot with an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if next.Version() != 2 {
				t.Errorf("Version() = %d, want 2", next.Version())
			}
			if diff := cmp.Diff(tt.wantNames, names(next.Tools())); diff != "" {
				t.Errorf("names mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantServers, next.Servers()); diff != "" {
				t.Errorf("Servers mismatch (-want +got):\n%s", diff)
			}
			if _, ok := next.Lookup(tt.del[0]); ok {
				t.Errorf("Lookup(%q) still finds a deleted tool", tt.del[0])
			}
		})
	}
}

// TestSnapshotConcurrentReaders runs readers on the snapshots they hold
// while a writer publishes new ones; run it with -race.
func TestSnapshotConcurrentReaders(t *testing.T) {
	first, err := NewSnapshot([]Tool{tool("base", "Base.")})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex // guards current, as a server's atomic pointer would
		current = first
	)
	load := func() *Snapshot {
		mu.Lock()
		defer mu.Unlock()
		return current
	}
	const writes = 200
	var wg sync.WaitGroup
	wg.Go(func() {
		s := first
		for i := range writes {
			next, _, _, err := s.Upsert([]Tool{tool(fmt.Sprintf("t%03d", i), "Tool."), tool("base", fmt.Sprintf("Base %d.", i))})
			if err != nil {
				t.Errorf("Upsert: %v", err)
				return
			}
			mu.Lock()
			current = next
			mu.Unlock()
			s = next
		}
	})
	for range 4 {
		wg.Go(func() {
			for range writes {
				s := load()
				n := s.Len()
				if n != int(s.Version()) {
					t.Errorf("snapshot v%d has %d tools, want %d", s.Version(), n, s.Version())
					return
				}
				for i := range n {
					tl := s.Tool(i)
					if j, ok := s.Lookup(tl.Name); !ok || j != i {
						t.Errorf("Lookup(%q) = %d, %v, want %d", tl.Name, j, ok, i)
					}
					_ = tl.Summary()
					_ = tl.Parameters()
				}
				if _, err := s.Get("base"); err != nil {
					t.Errorf("Get(base): %v", err)
				}
				_ = s.Servers()
			}
		})
	}
	wg.Wait()
	if got := load().Version(); got != writes+1 {
		t.Errorf("final Version() = %d, want %d", got, writes+1)
	}
}
