package toolset

import (
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// The texts' example is a tool of the catalog's largest server, named in
// plain words, and a pattern that matches its name.
func TestExampleOf(t *testing.T) {
	for _, tc := range []struct {
		name                string
		tools               []catalog.Tool
		query, pattern, srv string
	}{
		{"none", nil, "", "", ""},
		{"no server", []catalog.Tool{{Name: "getWeather"}}, "get weather", "get", ""},
		{"largest server", []catalog.Tool{
			{Name: "a__x", Server: "a"},
			{Name: "github__createIssue", Server: "github"},
			{Name: "github__list_prs", Server: "github"},
		}, "create issue github", "^github.*create", "github"},
		{"tie by name", []catalog.Tool{{Name: "zed__go", Server: "zed"}, {Name: "alpha__run-job", Server: "alpha"}}, "run job alpha", "^alpha.*run", "alpha"},
		{"host naming", []catalog.Tool{{Name: "mcp__slack__send_message", Server: "slack"}}, "send message slack", "^mcp__slack.*send", "slack"},
		{"dotted", []catalog.Tool{{Name: "Weather.get-current", Server: "Weather"}}, "get current Weather", `^Weather.*get`, "Weather"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := exampleOf(tc.tools)
			if ex.query() != tc.query || ex.server != tc.srv {
				t.Errorf("query %q server %q, want %q %q", ex.query(), ex.server, tc.query, tc.srv)
			}
			if tc.pattern != "" && ex.pattern() != tc.pattern {
				t.Errorf("pattern %q, want %q", ex.pattern(), tc.pattern)
			}
		})
	}
}
