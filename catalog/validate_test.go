package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	const nameFix = "use letters, digits, '_', '-' and '.'; replace spaces with '_'"
	schemaFix := `give the input schema as an object such as {"type":"object","properties":{...}}`
	annFix := `give annotations as an object such as {"readOnlyHint":true}, or leave them out`
	tests := []struct {
		name  string
		tools []Tool
		want  []Problem
	}{
		{name: "none"},
		{
			name: "valid",
			tools: []Tool{
				{Name: "a"},
				{Name: "svc.method-v2", InputSchema: json.RawMessage(`null`), Annotations: json.RawMessage(`{"readOnlyHint":true}`)},
				{Name: strings.Repeat("名", MaxNameRunes), Description: strings.Repeat("d", MaxDescriptionBytes)},
				{Name: strings.Repeat("s", MaxServerRunes) + "__" + strings.Repeat("n", MaxNameRunes)},
			},
		},
		{
			name:  "empty names",
			tools: []Tool{{Name: ""}, {Name: " \t"}},
			want: []Problem{
				{Position: "index 0", Reason: "name is empty", Fix: `give every tool a non-empty "name"`},
				{Position: "index 1", Tool: " \t", Reason: "name is empty", Fix: `give every tool a non-empty "name"`},
			},
		},
		{
			name:  "long name",
			tools: []Tool{{Name: strings.Repeat("é", MaxNameRunes+1)}},
			want: []Problem{{Position: "index 0", Tool: strings.Repeat("é", 79) + "…",
				Reason: "name is 129 characters long, over the limit of 128", Fix: "shorten the name"}},
		},
		{
			name:  "long namespaced names",
			tools: []Tool{{Name: "gh__" + strings.Repeat("n", MaxNameRunes+1)}, {Name: strings.Repeat("s", MaxServerRunes+1) + "__x"}},
			want: []Problem{
				{Position: "index 0", Tool: "gh__" + strings.Repeat("n", 75) + "…",
					Reason: "tool name after the server namespace is 129 characters long, over the limit of 128", Fix: "shorten the name"},
				{Position: "index 1", Tool: strings.Repeat("s", 65) + "__x",
					Reason: `server namespace "` + strings.Repeat("s", 65) + `" is 65 characters long, over the limit of 64`, Fix: "use a shorter server namespace"},
			},
		},
		{
			name:  "bad characters",
			tools: []Tool{{Name: "a b"}, {Name: "a\nb"}, {Name: "a\u200bb"}, {Name: " a"}, {Name: "a\xffb"}},
			want: []Problem{
				{Position: "index 0", Tool: "a b", Reason: "name contains a space at character 2", Fix: nameFix},
				{Position: "index 1", Tool: "a\nb", Reason: "name contains whitespace U+000A at character 2", Fix: nameFix},
				{Position: "index 2", Tool: "a\u200bb", Reason: "name contains control character U+200B at character 2", Fix: nameFix},
				{Position: "index 3", Tool: " a", Reason: "name contains a space at character 1", Fix: nameFix},
				{Position: "index 4", Tool: "a\xffb", Reason: "name is not valid UTF-8", Fix: "encode the name as UTF-8"},
			},
		},
		{
			name: "description",
			tools: []Tool{
				{Name: "long", Description: strings.Repeat("d", MaxDescriptionBytes+1)},
				{Name: "latin1", Description: "caf\xe9"},
			},
			want: []Problem{
				{Position: "index 0", Tool: "long", Reason: "description is 65537 bytes long, over the limit of 65536 (64 KiB)",
					Fix: "shorten the description to what a model needs to choose the tool"},
				{Position: "index 1", Tool: "latin1", Reason: "description is not valid UTF-8", Fix: "encode the description as UTF-8"},
			},
		},
		{
			name: "schemas and annotations",
			tools: []Tool{
				{Name: "s", InputSchema: json.RawMessage(`"object"`)},
				{Name: "a", InputSchema: json.RawMessage(`[]`)},
				{Name: "j", InputSchema: json.RawMessage(`{"type":`)},
				{Name: "n", Annotations: json.RawMessage(`true`)},
			},
			want: []Problem{
				{Position: "index 0", Tool: "s", Reason: "input schema is a string, want a JSON object", Fix: schemaFix},
				{Position: "index 1", Tool: "a", Reason: "input schema is an array, want a JSON object", Fix: schemaFix},
				{Position: "index 2", Tool: "j", Reason: "input schema is not valid JSON, want a JSON object", Fix: schemaFix},
				{Position: "index 3", Tool: "n", Reason: "annotations are a boolean, want a JSON object", Fix: annFix},
			},
		},
		{
			name:  "duplicates",
			tools: []Tool{{Name: "a"}, {Name: "b"}, {Name: "a"}, {Name: "a"}},
			want: []Problem{
				{Position: "index 2", Tool: "a", Reason: "duplicate name; first defined at index 0",
					Fix: "rename one of the tools, or load their files under different server namespaces"},
				{Position: "index 3", Tool: "a", Reason: "duplicate name; first defined at index 0",
					Fix: "rename one of the tools, or load their files under different server namespaces"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.tools)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Validate returned %v (%T), want a *ValidationError", err, err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("errors.Is(err, ErrInvalid) = false")
			}
			if diff := cmp.Diff(tt.want, verr.Problems); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	var problems []Problem
	for i := range 25 {
		problems = append(problems, Problem{Position: "line " + string(rune('a'+i)), Reason: "bad"})
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"empty", &ValidationError{}, "invalid tool"},
		{"one", &ValidationError{Problems: problems[:1]}, "line a: bad"},
		{"tool without position", &ValidationError{Problems: []Problem{{File: "f.json", Tool: "x", Reason: "r", Fix: "f"}}}, `f.json: "x": r; fix: f`},
		{"capped", &ValidationError{Problems: problems}, "25 problems in tool definitions:\n\tline a: bad\n\tline b: bad\n\tline c: bad\n\tline d: bad\n\tline e: bad\n\tline f: bad\n\tline g: bad\n\tline h: bad\n\tline i: bad\n\tline j: bad\n\tline k: bad\n\tline l: bad\n\tline m: bad\n\tline n: bad\n\tline o: bad\n\tline p: bad\n\tline q: bad\n\tline r: bad\n\tline s: bad\n\tline t: bad\n\tand 5 more"},
		{"not found", &NotFoundError{Names: []string{"a"}}, `tool not found: "a"`},
		{"not found, several", &NotFoundError{Names: []string{"a", "b"}}, `2 tools not found: "a", "b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.err.Error()); diff != "" {
				t.Errorf("Error() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   Tool
		want Tool
	}{
		{
			name: "trims and defaults",
			in:   Tool{Name: "  slack__send  ", Description: "\n Send.\n\n More. \n", Category: " c "},
			want: Tool{Name: "slack__send", Server: "slack", Category: "c", Description: "Send.\n\n More.",
				InputSchema: json.RawMessage(defaultSchema)},
		},
		{
			name: "null schema and annotations",
			in:   Tool{Name: "x", InputSchema: json.RawMessage(" null "), Annotations: json.RawMessage("null")},
			want: Tool{Name: "x", InputSchema: json.RawMessage(defaultSchema)},
		},
		{
			name: "compacts",
			in:   Tool{Name: "x", Server: "s", InputSchema: json.RawMessage("{ \"type\" : \"object\" }"), Annotations: json.RawMessage(`{ "a": 1 }`)},
			want: Tool{Name: "x", Server: "s", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: json.RawMessage(`{"a":1}`)},
		},
		{
			name: "invalid JSON kept for Validate",
			in:   Tool{Name: "x", InputSchema: json.RawMessage(`{"type":`)},
			want: Tool{Name: "x", InputSchema: json.RawMessage(`{"type":`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Normalize(tt.in)); diff != "" {
				t.Errorf("Normalize mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
