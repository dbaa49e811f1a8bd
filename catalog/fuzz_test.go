package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that Parse never panics, that it returns either tools or
// an error wrapping ErrInvalid, and that every tool it returns is valid,
// normalized and usable.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	bad, _ := filepath.Glob(filepath.Join("testdata", "bad", "*"))
	for _, file := range append(files, bad...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "")
	}
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`), "gh")
	f.Add([]byte("{\"name\":\"a\"}\n{\"name\":\"b\",\"server\":\"s\"}\n"), "")
	f.Add([]byte("- &x {name: a}\n- *x\n"), "")
	f.Add([]byte("tools: [{name: a, annotations: {readOnlyHint: true}}]"), "x")
	f.Fuzz(func(t *testing.T, data []byte, server string) {
		tools, err := Parse(data, "fuzz.json", server)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error %v does not wrap ErrInvalid", err)
			}
			if tools != nil {
				t.Fatalf("Parse returned %d tools with an error", len(tools))
			}
			_ = err.Error()
			return
		}
		if err := Validate(tools); err != nil {
			t.Fatalf("Parse returned tools that fail Validate: %v", err)
		}
		for _, tool := range tools {
			if !json.Valid(tool.InputSchema) || tool.InputSchema[0] != '{' {
				t.Fatalf("tool %q: input schema %q is not a JSON object", tool.Name, tool.InputSchema)
			}
			if tool.Annotations != nil && (!json.Valid(tool.Annotations) || tool.Annotations[0] != '{') {
				t.Fatalf("tool %q: annotations %q are not a JSON object", tool.Name, tool.Annotations)
			}
			if s := tool.Summary(); !utf8.ValidString(s) || utf8.RuneCountInString(s) > SummaryMaxRunes {
				t.Fatalf("tool %q: bad summary %q", tool.Name, s)
			}
			_ = tool.Parameters()
		}
		s, err := NewSnapshot(tools)
		if err != nil {
			t.Fatalf("NewSnapshot(Parse(...)): %v", err)
		}
		if s.Len() != len(tools) {
			t.Fatalf("snapshot has %d tools, want %d", s.Len(), len(tools))
		}
	})
}
