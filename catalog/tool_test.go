package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSummary(t *testing.T) {
	long := strings.Repeat("word ", 60) // 300 runes, no sentence end
	tests := []struct {
		name        string
		description string
		want        string
	}{
		{"empty", "", ""},
		{"blank", " \n\t ", ""},
		{"one sentence", "Send a message to a Slack channel.", "Send a message to a Slack channel."},
		{"first sentence", "Send a message. Supports threads.", "Send a message."},
		{"first line", "Send a message\nto a channel. More.", "Send a message"},
		{"leading blank lines", "\n\n  Read a file.  \nMore.", "Read a file."},
		{"whitespace collapsed", "Read   a\tfile.", "Read a file."},
		{"abbreviation", "Search issues, e.g. Bugs in a repo. Then more.", "Search issues, e.g. Bugs in a repo."},
		{"abbreviation in parentheses", "Search with syntax (e.g. 'deploy in:#ops'). Then more.", "Search with syntax (e.g. 'deploy in:#ops')."},
		{"lowercase after period", "Uses v1. of the api. Next.", "Uses v1. of the api."},
		{"version numbers", "Calls API v2.1 for data. Next.", "Calls API v2.1 for data."},
		{"question", "Is it open? Checks status.", "Is it open?"},
		{"no terminator", "List repositories", "List repositories"},
		{"chinese", "使用必应搜索指定的关键词。返回结果列表", "使用必应搜索指定的关键词。"},
		{"long cut at word", long, strings.TrimSpace(strings.Repeat("word ", 39)) + "…"},
		{"long word", strings.Repeat("x", 300), strings.Repeat("x", 199) + "…"},
		{"exactly the cap", strings.Repeat("y", 200), strings.Repeat("y", 200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tool{Description: tt.description}.Summary()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Summary(%q) mismatch (-want +got):\n%s", tt.description, diff)
			}
		})
	}
}

func TestParameters(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []Parameter
	}{
		{"nil schema", "", nil},
		{"empty object", `{"type":"object","properties":{}}`, nil},
		{"not JSON", `{"type":`, nil},
		{"schema is a string", `"object"`, nil},
		{"properties not an object", `{"properties":["a","b"]}`, nil},
		{
			name:   "sorted with required",
			schema: `{"type":"object","properties":{"b":{"type":"integer","description":"B"},"a":{"type":"string"}},"required":["b"]}`,
			want:   []Parameter{{Name: "a", Type: "string"}, {Name: "b", Type: "integer", Description: "B", Required: true}},
		},
		{
			name:   "odd property values",
			schema: `{"properties":{"x":true,"y":{"type":5,"description":["no"]},"z":{"type":["string","null",3]}},"required":"x"}`,
			want:   []Parameter{{Name: "x"}, {Name: "y"}, {Name: "z", Type: "string|null"}},
		},
		{
			name:   "required with odd entries",
			schema: `{"properties":{"a":{},"b":{}},"required":[1,"a",null]}`,
			want:   []Parameter{{Name: "a", Required: true}, {Name: "b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tool{InputSchema: json.RawMessage(tt.schema)}.Parameters()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parameters(%s) mismatch (-want +got):\n%s", tt.schema, diff)
			}
		})
	}
}

// TestCollapseSpace checks collapseSpace against what it stands for,
// strings.Join(strings.Fields(text), " "), on text already collapsed
// (returned as is) and text that is not.
func TestCollapseSpace(t *testing.T) {
	for _, text := range []string{
		"", " ", "a", "a b", "a b c.", "a  b", "a\tb", "a\nb", " a", "a ", "a b ",
		"a\u00a0b", "a\u0085b", "a\u3000b", "a\xffb", "\xff \xfe", "héllo wörld", "a \u00a0b",
	} {
		if got, want := collapseSpace(text), strings.Join(strings.Fields(text), " "); got != want {
			t.Errorf("collapseSpace(%q) = %q, want %q", text, got, want)
		}
	}
}
