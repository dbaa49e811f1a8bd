package catalog_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
)

// TestExampleCatalog checks that examples/catalog.json loads with no
// problems and stays the realistic catalog the docs promise.
func TestExampleCatalog(t *testing.T) {
	tools, err := catalog.Load(catalog.Source{Path: filepath.Join("..", "examples", "catalog.json")})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if n := len(tools); n < 60 || n > 70 {
		t.Errorf("examples/catalog.json has %d tools, want 60–70", n)
	}
	s, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	var servers []string
	for _, sc := range s.Servers() {
		servers = append(servers, sc.Name)
	}
	want := []string{"calendar", "email", "fetch", "filesystem", "git", "github", "jira", "maps", "notes", "postgres", "slack", "weather"}
	if diff := cmp.Diff(want, servers); diff != "" {
		t.Errorf("servers mismatch (-want +got):\n%s", diff)
	}
	for _, tool := range tools {
		if tool.Summary() == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		for _, p := range tool.Parameters() {
			if p.Description == "" || p.Type == "" {
				t.Errorf("%s: parameter %q has no type or description", tool.Name, p.Name)
			}
		}
	}
	// Tools that overlap in wording, so that ranking matters.
	if _, err := s.Get("github__search_issues", "jira__search_issues", "filesystem__read_file", "github__get_file_contents"); err != nil {
		t.Error(err)
	}
}

func ExampleParse() {
	data := []byte(`{"tools":[
	  {"name":"create_issue","description":"Create a GitHub issue. Returns its URL.",
	   "inputSchema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}
	]}`)
	tools, err := catalog.Parse(data, "github.json", "github")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Println(t.Name, t.Server, t.Summary(), t.Parameters())
	}
	// Output: github__create_issue github Create a GitHub issue. [{title string  true}]
}

func ExampleParse_error() {
	data := []byte(`[{"name":"get weather","input_schema":"object"}]`)
	_, err := catalog.Parse(data, "tools.json", "")
	fmt.Println(errors.Is(err, catalog.ErrInvalid))
	fmt.Println(err)
	// Output:
	// true
	// 2 problems in tool definitions:
	// 	tools.json: index 0 ("get weather"): input schema is a string, want a JSON object; fix: give "input_schema" as an object such as {"type":"object","properties":{...}}
	// 	tools.json: index 0 ("get weather"): name contains a space at character 4; fix: use letters, digits, '_', '-' and '.'; replace spaces with '_'
}

func ExampleSnapshot_Upsert() {
	s, _ := catalog.NewSnapshot([]catalog.Tool{{Name: "slack__send_message", Description: "Send a message."}})
	next, inserted, updated, err := s.Upsert([]catalog.Tool{
		{Name: "slack__send_message", Description: "Send a message to a channel."},
		{Name: "slack__list_channels", Description: "List channels."},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s, "→", next, "inserted:", inserted, "updated:", updated)
	fmt.Println(next.Servers())
	// Output:
	// catalog v1 (1 tool) → catalog v2 (2 tools) inserted: 1 updated: 1
	// [{slack 2}]
}
