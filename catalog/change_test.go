package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSnapshotApply(t *testing.T) {
	base, err := NewSnapshot([]Tool{tool("a__one", "One."), tool("a__two", "Two."), tool("a__three", "Three."), tool("b__x", "X.")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		upsert    []Tool
		del       []string
		wantNames []string
		want      Counts
		wantErr   error
	}{
		{
			name:      "upsert and delete in one step",
			upsert:    []Tool{tool("a__two", "Two, changed."), tool("a__four", "Four."), tool("a__three", "Three.")},
			del:       []string{"a__one", "a__one"},
			wantNames: []string{"a__four", "a__three", "a__two", "b__x"},
			// b__x moves into a__one's ID 0, a__two keeps ID 2, a__four gets ID 3.
			want: Counts{Inserted: 1, Updated: 1, Deleted: 1, Edited: []int{0, 2, 3}},
		},
		{
			name:      "delete only",
			del:       []string{"b__x"},
			wantNames: []string{"a__one", "a__three", "a__two"},
			want:      Counts{Deleted: 1},
		},
		{
			name:      "nothing",
			wantNames: []string{"a__one", "a__three", "a__two", "b__x"},
		},
		{name: "unknown delete", del: []string{"a__nope"}, wantErr: ErrNotFound},
		{name: "both upserted and deleted", upsert: []Tool{tool("a__one", "New.")}, del: []string{"a__one"}, wantErr: ErrInvalid},
		{name: "invalid upsert", upsert: []Tool{tool("bad name", "")}, del: []string{"a__one"}, wantErr: ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, c, err := base.Apply(tt.upsert, tt.del)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || next != nil {
					t.Fatalf("Apply = %v, %v; want no snapshot and an error wrapping %v", next, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if next.Version() != base.Version()+1 {
				t.Errorf("Version() = %d, want %d", next.Version(), base.Version()+1)
			}
			if diff := cmp.Diff(tt.wantNames, names(next.Tools())); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, c, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			for _, name := range tt.wantNames {
				i, ok := next.Lookup(name)
				if !ok || next.Tool(i).Name != name {
					t.Errorf("Lookup(%q) = %d, %v", name, i, ok)
				}
			}
		})
	}
	if base.Len() != 4 || base.Version() != 1 {
		t.Errorf("base changed: %v", base)
	}
}

func TestTitleAndOutputSchema(t *testing.T) {
	doc := `{"tools":[{"name":"get","title":" Get Weather ","description":"Weather.","inputSchema":{"type":"object"},
		"outputSchema":{ "type":"object", "properties":{"t":{"type":"number"}} },"annotations":{"readOnlyHint":true}}]}`
	tools, err := Parse([]byte(doc), "mcp.json", "wx")
	if err != nil {
		t.Fatal(err)
	}
	got := tools[0]
	if got.Name != "wx__get" || got.Title != "Get Weather" ||
		string(got.OutputSchema) != `{"type":"object","properties":{"t":{"type":"number"}}}` ||
		string(got.Annotations) != `{"readOnlyHint":true}` {
		t.Errorf("Parse = %+v", got)
	}
	changed := got
	changed.OutputSchema = json.RawMessage(`{"type":"object"}`)
	if got.equal(changed) {
		t.Error("tools with different output schemas are equal")
	}
	bad := []Tool{
		{Name: "a", OutputSchema: json.RawMessage(`[1]`)},
		{Name: "b", Title: strings.Repeat("t", MaxTitleRunes+1)},
	}
	var ve *ValidationError
	if err := Validate(bad); !errors.As(err, &ve) || len(ve.Problems) != 2 {
		t.Fatalf("Validate = %v, want two problems", err)
	}
	if _, err := Parse([]byte(`{"tools":[{"name":"a","outputSchema":"x"}]}`), "f.json", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("Parse with a string output schema = %v, want ErrInvalid", err)
	}
}

func TestParseLenient(t *testing.T) {
	doc := `{"tools":[
		{"name":"ok","description":"Fine."},
		{"name":"has space"},
		{"name":"dup","description":"First."},
		{"name":"big","description":"` + strings.Repeat("x", MaxDescriptionBytes+1) + `"},
		{"name":"dup","description":"Second."},
		{"name":"schema","inputSchema":"nope"},
		{"description":"no name"}
	]}`
	tools, problems := ParseLenient([]byte(doc), "server bad", "bad")
	var got []string
	for _, tl := range tools {
		got = append(got, tl.Name+": "+tl.Description)
	}
	if diff := cmp.Diff([]string{"bad__ok: Fine.", "bad__dup: First."}, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	var reasons []string
	for _, p := range problems {
		reasons = append(reasons, p.Position+" "+p.Reason[:min(len(p.Reason), 24)])
	}
	want := []string{
		"tools[1] name contains a space at",
		"tools[3] description is 65537 byt",
		"tools[5] input schema is a string",
		"tools[6] missing \"name\"",
		"tools[4] duplicate name; first de",
	}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if tools, problems := ParseLenient([]byte(`{"nope":1}`), "x", "s"); len(tools) != 0 || len(problems) != 1 {
		t.Errorf("ParseLenient(no tools) = %v, %v", tools, problems)
	}
}
