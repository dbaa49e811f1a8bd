package toolset_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// loadTools loads a catalog file in catalog (name) order.
func loadTools(t testing.TB, path string) []catalog.Tool {
	t.Helper()
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return snap.Tools()
}

// pick returns the named tools of tools, in the order named.
func pick(t testing.TB, tools []catalog.Tool, names ...string) []catalog.Tool {
	t.Helper()
	var out []catalog.Tool
	for _, n := range names {
		found := false
		for _, tool := range tools {
			if tool.Name == n {
				out = append(out, tool)
				found = true
			}
		}
		if !found {
			t.Fatalf("no tool %q", n)
		}
	}
	return out
}

func build(t testing.TB, tools, revealed []catalog.Tool, opts toolset.Options) toolset.Toolset {
	t.Helper()
	ts, err := toolset.Build(tools, revealed, opts)
	if err != nil {
		t.Fatalf("Build(%+v): %v", opts, err)
	}
	return ts
}

// golden compares got with testdata/NAME.golden.json, or rewrites it under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got), run go test -update if intended:\n%s", path, diff)
	}
}

// render is a toolset as a golden file holds it.
func render(t *testing.T, ts toolset.Toolset) []byte {
	t.Helper()
	doc := struct {
		Tools        json.RawMessage   `json:"tools"`
		SearchTool   json.RawMessage   `json:"tool_search"`
		SystemPrompt string            `json:"system_prompt"`
		Loaded       []string          `json:"loaded"`
		Deferred     int               `json:"deferred"`
		Names        map[string]string `json:"names,omitempty"`
	}{ts.Tools, ts.SearchTool, ts.SystemPrompt, ts.Loaded, ts.Deferred, ts.Names}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// Each format's output, second turn (one tool revealed), against golden
// files and against the provider's documented shape.
func TestFormats(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	revealed := pick(t, tools, "Weather.get-current", "slack__send_message")
	for _, f := range toolset.Formats {
		t.Run(string(f), func(t *testing.T) {
			ts := build(t, tools, revealed, toolset.Options{Format: f, DeferralThreshold: 1, AlwaysLoaded: []string{"github__create_issue"}})
			golden(t, string(f), render(t, ts))
			checkShape(t, f, ts.Tools)
			got := providerNames(t, f, ts.Tools)
			want := []string{"tool_search", "github__create_issue", "memory__remember", weatherName(f), "slack__send_message"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tool names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"github__create_issue", "memory__remember", "Weather.get-current", "slack__send_message"}, ts.Loaded); diff != "" {
				t.Errorf("Loaded (-want +got):\n%s", diff)
			}
			if err := json.Unmarshal(ts.SearchTool, new(map[string]any)); err != nil {
				t.Errorf("SearchTool is not a JSON object: %v", err)
			}
		})
	}
}

// weatherName is the provider name of "Weather.get-current": OpenAI and
// Anthropic reject the dot; Gemini and MCP accept it.
func weatherName(f toolset.Format) string {
	switch f {
	case toolset.Gemini, toolset.MCP:
		return "Weather.get-current"
	}
	return "Weather_get-current_" + fnvHex("Weather.get-current")
}

// The documented shape of each format. Name patterns are the providers'
// documented ones, written independently of the package's rules.
var namePatterns = map[toolset.Format]*regexp.Regexp{
	toolset.OpenAIChat:      regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	toolset.OpenAIResponses: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	toolset.Anthropic:       regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	toolset.Gemini:          regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`),
	toolset.MCP:             regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`),
}

// checkShape asserts the documented shape of a tool array: the keys each
// provider requires and allows, an object schema with "type":"object" for
// the parameters, and valid unique names.
func checkShape(t *testing.T, f toolset.Format, raw json.RawMessage) {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatalf("tools is not an array of objects: %v\n%s", err, raw)
	}
	var items []map[string]json.RawMessage
	type spec struct {
		required, allowed []string
		schemaKey         string
	}
	specs := map[toolset.Format]spec{
		toolset.OpenAIChat:      {[]string{"name", "parameters"}, []string{"name", "description", "parameters", "strict"}, "parameters"},
		toolset.OpenAIResponses: {[]string{"type", "name", "parameters", "strict"}, []string{"type", "name", "description", "parameters", "strict"}, "parameters"},
		toolset.Anthropic:       {[]string{"name", "input_schema"}, []string{"name", "description", "input_schema", "cache_control"}, "input_schema"},
		toolset.Gemini:          {[]string{"name"}, []string{"name", "description", "parameters", "parametersJsonSchema", "response"}, "parametersJsonSchema"},
		toolset.MCP:             {[]string{"name", "inputSchema"}, []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"}, "inputSchema"},
	}
	sp := specs[f]
	switch f {
	case toolset.OpenAIChat:
		for i, item := range list {
			requireKeys(t, i, item, []string{"type", "function"}, []string{"type", "function"})
			if s := str(item["type"]); s != "function" {
				t.Errorf("tools[%d].type = %q, want function", i, s)
			}
			var fn map[string]json.RawMessage
			if err := json.Unmarshal(item["function"], &fn); err != nil {
				t.Fatalf("tools[%d].function: %v", i, err)
			}
			items = append(items, fn)
		}
	case toolset.Gemini:
		if len(list) != 1 {
			t.Fatalf("gemini tools has %d Tool objects, want 1 holding every declaration", len(list))
		}
		requireKeys(t, 0, list[0], []string{"functionDeclarations"}, []string{"functionDeclarations"})
		if err := json.Unmarshal(list[0]["functionDeclarations"], &items); err != nil {
			t.Fatal(err)
		}
	default:
		items = list
	}
	seen := map[string]bool{}
	for i, item := range items {
		requireKeys(t, i, item, sp.required, sp.allowed)
		if f == toolset.OpenAIResponses {
			if s := str(item["type"]); s != "function" {
				t.Errorf("tools[%d].type = %q, want function", i, s)
			}
			if string(item["strict"]) != "false" {
				t.Errorf("tools[%d].strict = %s, want false", i, item["strict"])
			}
		}
		name := str(item["name"])
		if !namePatterns[f].MatchString(name) {
			t.Errorf("tools[%d].name %q is not a valid %s name", i, name, f)
		}
		if seen[name] {
			t.Errorf("tools[%d].name %q is duplicated", i, name)
		}
		seen[name] = true
		var schema map[string]json.RawMessage
		if err := json.Unmarshal(item[sp.schemaKey], &schema); err != nil || schema == nil {
			t.Errorf("tools[%d].%s is not a JSON object: %s", i, sp.schemaKey, item[sp.schemaKey])
			continue
		}
		if s := str(schema["type"]); s != "object" {
			t.Errorf("tools[%d].%s.type = %q, want object", i, sp.schemaKey, s)
		}
		if d, ok := item["description"]; ok && str(d) == "" {
			t.Errorf("tools[%d].description is present but empty", i)
		}
	}
}

func requireKeys(t *testing.T, i int, item map[string]json.RawMessage, required, allowed []string) {
	t.Helper()
	for _, k := range required {
		if _, ok := item[k]; !ok {
			t.Errorf("tools[%d] lacks required key %q: %v", i, k, keys(item))
		}
	}
	for k := range item {
		if !contains(allowed, k) {
			t.Errorf("tools[%d] has key %q, not in the provider's shape %v", i, k, allowed)
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// providerNames lists the names in a tool array, in order.
func providerNames(t testing.TB, f toolset.Format, raw json.RawMessage) []string {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	if f == toolset.Gemini && len(list) == 1 {
		var decls []map[string]json.RawMessage
		if err := json.Unmarshal(list[0]["functionDeclarations"], &decls); err != nil {
			t.Fatal(err)
		}
		list = decls
	}
	var out []string
	for _, item := range list {
		if f == toolset.OpenAIChat {
			var fn map[string]json.RawMessage
			_ = json.Unmarshal(item["function"], &fn)
			item = fn
		}
		out = append(out, str(item["name"]))
	}
	return out
}

func fnvHex(s string) string {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%08x", h)
}

// The deferral modes, against golden files.
func TestDeferModes(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	revealed := pick(t, tools, "slack__send_message")
	for _, m := range toolset.DeferModes {
		t.Run(string(m), func(t *testing.T) {
			ts := build(t, tools, revealed, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, Defer: m})
			golden(t, "defer_"+string(m), render(t, ts))
			checkShape(t, toolset.Anthropic, ts.Tools)
			if ts.Deferred != len(tools)-2 {
				t.Errorf("Deferred = %d, want %d", ts.Deferred, len(tools)-2)
			}
			switch m {
			case toolset.DeferReminder:
				if !strings.Contains(ts.SystemPrompt, "Tools you can load with tool_search: 9lives__play,") {
					t.Errorf("reminder mode: system prompt lacks the deferred names:\n%s", ts.SystemPrompt)
				}
			case toolset.DeferStub:
				names := providerNames(t, toolset.Anthropic, ts.Tools)
				if len(names) != len(tools)+1 {
					t.Errorf("stub mode lists %d tools, want every tool and tool_search (%d): %v", len(names), len(tools)+1, names)
				}
				if !strings.Contains(string(ts.Tools), `select:github__create_issue`) {
					t.Errorf("stub mode: stubs do not point to tool_search select:")
				}
			}
		})
	}
}

// Each turn's list starts with the previous turn's list, and the system
// prompt does not change, as tools are revealed (in any order, and
// revealed again).
func TestStableOrderAcrossTurns(t *testing.T) {
	tools := loadTools(t, "../examples/catalog.json")
	turns := [][]string{
		nil,
		{"slack__send_message", "slack__list_channels"},
		{"slack__send_message", "slack__list_channels", "github__create_issue"},
		{"slack__send_message", "slack__list_channels", "github__create_issue", "calendar__create_event", "email__send_email"},
	}
	for _, f := range toolset.Formats {
		for _, m := range []toolset.DeferMode{toolset.DeferOmit, toolset.DeferReminder, toolset.DeferStub} {
			t.Run(string(f)+"/"+string(m), func(t *testing.T) {
				var prev toolset.Toolset
				var prevNames []string
				for turn, names := range turns {
					opts := toolset.Options{Format: f, Defer: m, AlwaysLoaded: []string{"filesystem:*", "git__status"}}
					ts := build(t, tools, pick(t, tools, names...), opts)
					got := providerNames(t, f, ts.Tools)
					if m == toolset.DeferStub {
						got = got[:1+len(ts.Loaded)] // the stubs follow and shrink
					}
					if turn > 0 {
						if len(got) < len(prevNames) || !slicesEqual(got[:len(prevNames)], prevNames) {
							t.Fatalf("turn %d list %v does not start with turn %d list %v", turn, got, turn-1, prevNames)
						}
						if ts.SystemPrompt != prev.SystemPrompt {
							t.Errorf("turn %d changed the system prompt", turn)
						}
						if !bytes.Equal(ts.SearchTool, prev.SearchTool) {
							t.Errorf("turn %d changed the tool_search definition", turn)
						}
					}
					if m != toolset.DeferStub && turn > 0 && !bytes.HasPrefix(ts.Tools, bytes.TrimRight(prev.Tools, "]}")) {
						t.Errorf("turn %d: the JSON text does not extend turn %d's", turn, turn-1)
					}
					prev, prevNames = ts, got
				}
				// The fixed part: tool_search, filesystem:* in catalog order, git__status.
				if got := prevNames[:11]; got[0] != "tool_search" || !strings.HasPrefix(got[1], "filesystem__") || got[10] != "git__status" {
					t.Errorf("always-loaded order: %v", got)
				}
			})
		}
	}
}

func slicesEqual(a, b []string) bool { return cmp.Equal(a, b) }

// Below the threshold every tool goes in full, without tool_search.
func TestThreshold(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json") // 7 tools
	for _, tc := range []struct {
		threshold int
		deferring bool
	}{{0, false}, {7, true}, {8, false}, {1, true}} {
		t.Run(fmt.Sprint(tc.threshold), func(t *testing.T) {
			ts := build(t, tools, nil, toolset.Options{Format: toolset.OpenAIChat, DeferralThreshold: tc.threshold})
			if ts.Deferring != tc.deferring {
				t.Fatalf("Deferring = %v, want %v", ts.Deferring, tc.deferring)
			}
			names := providerNames(t, toolset.OpenAIChat, ts.Tools)
			if !tc.deferring {
				if len(names) != len(tools) || contains(names, "tool_search") || ts.SystemPrompt != "" || ts.Deferred != 0 {
					t.Errorf("below the threshold: names %v, prompt %q, deferred %d", names, ts.SystemPrompt, ts.Deferred)
				}
				return
			}
			if names[0] != "tool_search" {
				t.Errorf("deferred list starts with %q, want tool_search", names[0])
			}
		})
	}
}

// Names a provider rejects are rewritten the same way on every call, and
// mapped back.
func TestProviderNames(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	ts := build(t, tools, nil, toolset.Options{Format: toolset.OpenAIChat, DeferralThreshold: 100})
	want := map[string]string{
		"Weather_get-current_" + fnvHex("Weather.get-current"): "Weather.get-current",
		"tool_search_" + fnvHex("tool_search"):                 "tool_search",
	}
	if diff := cmp.Diff(want, ts.Names); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	gem := build(t, tools, nil, toolset.Options{Format: toolset.Gemini, DeferralThreshold: 100})
	if _, ok := gem.Names["_9lives__play_"+fnvHex("9lives__play")]; !ok {
		t.Errorf("gemini: a name starting with a digit is not rewritten: %v", gem.Names)
	}
	long := catalog.Tool{Name: "srv__" + strings.Repeat("x", 100), InputSchema: json.RawMessage(`{}`)}
	lt := build(t, []catalog.Tool{long}, nil, toolset.Options{Format: toolset.Anthropic})
	for name := range lt.Names {
		if len(name) != 64 || !namePatterns[toolset.Anthropic].MatchString(name) {
			t.Errorf("long name rewritten to %q (%d bytes)", name, len(name))
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	for _, opts := range []toolset.Options{
		{},
		{Format: "openai"},
		{Format: toolset.MCP, Defer: "hide"},
		{Format: toolset.MCP, DeferralThreshold: -1},
		{Format: toolset.MCP, DeferralThreshold: 1, AlwaysLoaded: []string{""}},
		{Format: toolset.MCP, DeferralThreshold: 1, AlwaysLoaded: []string{"a*b"}},
		{Format: toolset.MCP, DeferralThreshold: 1, AlwaysLoaded: []string{":*"}},
	} {
		_, err := toolset.Build(tools, nil, opts)
		if !errors.Is(err, toolset.ErrInvalidOption) {
			t.Errorf("Build(%+v) = %v, want ErrInvalidOption", opts, err)
		}
	}
}

// The tool_search definition: its parameters, and max_results following
// the sidecar's cap.
func TestSearchToolDefinition(t *testing.T) {
	ts := build(t, nil, nil, toolset.Options{Format: toolset.Anthropic, MaxResults: 7})
	var def struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		InputSchema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"input_schema"`
	}
	if err := json.Unmarshal(ts.SearchTool, &def); err != nil {
		t.Fatal(err)
	}
	if def.Name != "tool_search" || def.InputSchema.Type != "object" || !cmp.Equal(def.InputSchema.Required, []string{"query"}) {
		t.Errorf("definition: %+v", def)
	}
	for _, p := range []string{"query", "search_type", "max_results", "category_filter"} {
		if _, ok := def.InputSchema.Properties[p]; !ok {
			t.Errorf("no parameter %q", p)
		}
	}
	var mr struct{ Minimum, Maximum int }
	_ = json.Unmarshal(def.InputSchema.Properties["max_results"], &mr)
	if mr.Minimum != 1 || mr.Maximum != 7 {
		t.Errorf("max_results range %d..%d, want 1..7", mr.Minimum, mr.Maximum)
	}
	if !strings.Contains(string(def.InputSchema.Properties["search_type"]), `["semantic","keyword","regex"]`) {
		t.Errorf("search_type enum: %s", def.InputSchema.Properties["search_type"])
	}
	for _, syntax := range []string{"select:", "+term", "-term", "server:"} {
		if !strings.Contains(def.Description, syntax) {
			t.Errorf("description does not teach %q", syntax)
		}
	}
}
