package catalog_test

import (
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

func TestParsePattern(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "github__create_issue", Server: "GitHub", Category: "Dev"},
		{Name: "jira__create_issue", Server: "jira", Category: "dev"},
		{Name: "get_weather", Category: "Weather"},
	}
	for _, tc := range []struct {
		entry string
		want  []string // names matched, in catalog order
	}{
		{"get_weather", []string{"get_weather"}},
		{"  get_weather ", []string{"get_weather"}},
		{"GET_WEATHER", nil},
		{"github:*", []string{"github__create_issue"}},
		{"GITHUB:*", []string{"github__create_issue"}},
		{"category:dev", []string{"github__create_issue", "jira__create_issue"}},
		{"category: Weather ", []string{"get_weather"}},
		{"jira__*", []string{"jira__create_issue"}},
		{"*", []string{"github__create_issue", "jira__create_issue", "get_weather"}},
	} {
		t.Run(tc.entry, func(t *testing.T) {
			p, err := catalog.ParsePattern(tc.entry)
			if err != nil {
				t.Fatalf("ParsePattern(%q): %v", tc.entry, err)
			}
			var got []string
			for _, tool := range tools {
				if p.Match(tool) {
					got = append(got, tool.Name)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("%q matches %v, want %v", tc.entry, got, tc.want)
			}
		})
	}
	if name, ok := mustParse(t, "get_weather").Name(); !ok || name != "get_weather" {
		t.Errorf("Name() = %q, %v; want get_weather, true", name, ok)
	}
	if _, ok := mustParse(t, "github:*").Name(); ok {
		t.Error("a server pattern reports an exact name")
	}
	if (catalog.Pattern{}).Match(tools[0]) {
		t.Error("the zero Pattern matches a tool")
	}
}

func mustParse(t *testing.T, entry string) catalog.Pattern {
	t.Helper()
	p, err := catalog.ParsePattern(entry)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParsePatternErrors(t *testing.T) {
	for _, tc := range []struct{ entry, want string }{
		{"", "has an empty entry"},
		{"  ", "has an empty entry"},
		{"a*b", `entry "a*b": '*' may only end a pattern`},
		{":*", `entry ":*" names no server; write SERVER:*`},
		{"category:", `entry "category:" names no category; write category:NAME`},
	} {
		_, err := catalog.ParsePattern(tc.entry)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePattern(%q) = %v; want an error containing %q", tc.entry, err, tc.want)
		}
	}
}
