package toolset_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// Anthropic native mode: the search tool, the always-loaded tools without
// defer_loading, then every other tool with defer_loading: true; the same
// bytes on every turn, whatever the session revealed.
func TestNativeAnthropic(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	for _, tc := range []struct {
		name       string
		search     toolset.SearchMode
		hosted     toolset.HostedSearch
		searchTool string
	}{
		{"client", toolset.SearchNativeClient, "", `"name":"tool_search"`},
		{"hosted_bm25", toolset.SearchNativeHosted, "", `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`},
		{"hosted_regex", toolset.SearchNativeHosted, toolset.HostedRegex, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := toolset.Options{Format: toolset.Anthropic, Search: tc.search, Hosted: tc.hosted, DeferralThreshold: 1, AlwaysLoaded: []string{"github__create_issue"}}
			turn1 := build(t, tools, nil, opts)
			turn2 := build(t, tools, pick(t, tools, "slack__send_message"), opts)
			turn3 := build(t, tools, pick(t, tools, "slack__send_message", "Weather.get-current"), opts)
			if !bytes.Equal(turn1.Tools, turn2.Tools) || !bytes.Equal(turn1.Tools, turn3.Tools) {
				t.Fatalf("the tools array changed between turns:\n%s\n%s", turn1.Tools, turn3.Tools)
			}
			golden(t, "native_anthropic_"+tc.name, render(t, turn1))
			var list []map[string]json.RawMessage
			if err := json.Unmarshal(turn1.Tools, &list); err != nil {
				t.Fatal(err)
			}
			if len(list) != len(tools)+1 {
				t.Fatalf("%d entries, want every tool and the search tool (%d)", len(list), len(tools)+1)
			}
			first, _ := json.Marshal(list[0])
			if !strings.Contains(string(first), tc.searchTool) && !strings.Contains(string(turn1.Tools), tc.searchTool) {
				t.Errorf("search tool %s, want %s", first, tc.searchTool)
			}
			for i, item := range list[1:] {
				name := str(item["name"])
				_, deferred := item["defer_loading"]
				if want := name != "github__create_issue" && name != "memory__remember"; deferred != want { // memory__remember is annotated neverDefer
					t.Errorf("tools[%d] %s: defer_loading present = %v, want %v", i+1, name, deferred, want)
				}
				if deferred && string(item["defer_loading"]) != "true" {
					t.Errorf("tools[%d].defer_loading = %s", i+1, item["defer_loading"])
				}
			}
			if turn1.Search != tc.search || !cmp.Equal(turn1.Loaded, []string{"github__create_issue", "memory__remember"}) || turn1.Deferred != len(tools)-2 {
				t.Errorf("Search %q Loaded %v Deferred %d", turn1.Search, turn1.Loaded, turn1.Deferred)
			}
		})
	}
}

// OpenAI Responses native mode: namespaces by server holding the deferred
// functions with defer_loading, tool_search with execution client or
// server, and a tool_search_output's tools for the found tools.
func TestNativeOpenAIResponses(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	opts := toolset.Options{Format: toolset.OpenAIResponses, Search: toolset.SearchNativeClient, DeferralThreshold: 1,
		AlwaysLoaded: []string{"github__create_issue"}, ServerDescriptions: map[string]string{"slack": "Slack: messages and channels."},
		Load: []string{"slack__send_message", "Weather.get-current", "no_such_tool"}}
	ts := build(t, tools, pick(t, tools, "slack__send_message"), opts)
	golden(t, "native_openai_responses_client", render(t, ts))
	var list []struct {
		Type         string            `json:"type"`
		Name         string            `json:"name"`
		Execution    string            `json:"execution"`
		Description  string            `json:"description"`
		DeferLoading bool              `json:"defer_loading"`
		Tools        []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(ts.Tools, &list); err != nil {
		t.Fatal(err)
	}
	if list[0].Type != "tool_search" || list[0].Execution != "client" || list[0].Description == "" {
		t.Errorf("first tool: %+v", list[0])
	}
	for _, item := range list[1:3] {
		if item.Type != "function" || item.DeferLoading {
			t.Errorf("always-loaded tool: %+v", item)
		}
	}
	var namespaces, deferredFns int
	for _, item := range list[3:] {
		switch item.Type {
		case "namespace":
			namespaces++
			if item.DeferLoading {
				t.Errorf("namespace %s carries defer_loading; it goes on the functions", item.Name)
			}
			if item.Name == "slack" && item.Description != "Slack: messages and channels." {
				t.Errorf("slack namespace description %q, want the server's own", item.Description)
			}
			if item.Description == "" {
				t.Errorf("namespace %s has no description", item.Name)
			}
			for _, fn := range item.Tools {
				var f struct {
					Type         string `json:"type"`
					DeferLoading bool   `json:"defer_loading"`
				}
				_ = json.Unmarshal(fn, &f)
				if f.Type != "function" || !f.DeferLoading {
					t.Errorf("namespace %s function %s", item.Name, fn)
				}
				deferredFns++
			}
		case "function":
			if !item.DeferLoading {
				t.Errorf("deferred function %s lacks defer_loading", item.Name)
			}
			deferredFns++
		default:
			t.Errorf("unexpected tool type %q", item.Type)
		}
	}
	if namespaces == 0 || deferredFns != len(tools)-2 {
		t.Errorf("%d namespaces, %d deferred functions; want some, and %d", namespaces, deferredFns, len(tools)-2)
	}
	// The loaded tools: the slack namespace (no defer_loading) and the
	// server-less weather function, under its provider name.
	want := `[{"type":"namespace","name":"slack","description":"Slack: messages and channels.","tools":[{"type":"function","name":"slack__send_message",`
	if !strings.HasPrefix(string(ts.LoadedTools), want) || strings.Contains(string(ts.LoadedTools), "defer_loading") {
		t.Errorf("LoadedTools = %s", ts.LoadedTools)
	}
	if !strings.Contains(string(ts.LoadedTools), `"name":"`+weatherName(toolset.OpenAIResponses)+`"`) {
		t.Errorf("LoadedTools lacks the renamed weather tool: %s", ts.LoadedTools)
	}

	hosted := build(t, tools, nil, toolset.Options{Format: toolset.OpenAIResponses, Search: toolset.SearchNativeHosted, DeferralThreshold: 1})
	if !strings.HasPrefix(string(hosted.Tools), `[{"type":"tool_search","execution":"server"},`) {
		t.Errorf("hosted list starts %.80s", hosted.Tools)
	}
}

// Auto picks native where the format and model support it, portable
// elsewhere; rules given in Options.Support come first.
func TestAutoSearchMode(t *testing.T) {
	tools := loadTools(t, "testdata/catalog.json")
	for _, tc := range []struct {
		format  toolset.Format
		model   string
		support []toolset.SupportRule
		want    toolset.SearchMode
	}{
		{toolset.Anthropic, "claude-sonnet-4-5", nil, toolset.SearchNativeClient},
		{toolset.Anthropic, "claude-opus-4-5-20251101", nil, toolset.SearchNativeClient},
		{toolset.Anthropic, "claude-haiku-4-5", nil, toolset.SearchNativeClient},
		{toolset.Anthropic, "claude-sonnet-5", nil, toolset.SearchNativeClient},
		{toolset.Anthropic, "claude-sonnet-4-20250514", nil, toolset.SearchPortable},
		{toolset.Anthropic, "claude-3-5-sonnet-20241022", nil, toolset.SearchPortable},
		{toolset.OpenAIResponses, "gpt-5.4", nil, toolset.SearchNativeClient},
		{toolset.OpenAIResponses, "gpt-5.4-mini", nil, toolset.SearchNativeClient},
		{toolset.OpenAIResponses, "gpt-6-astra", nil, toolset.SearchNativeClient},
		{toolset.OpenAIResponses, "gpt-5.2", nil, toolset.SearchPortable},
		{toolset.OpenAIResponses, "gpt-4o", nil, toolset.SearchPortable},
		{toolset.OpenAIResponses, "", nil, toolset.SearchPortable},
		{toolset.OpenAIChat, "gpt-5.4", nil, toolset.SearchPortable},
		{toolset.Gemini, "gemini-3-pro", nil, toolset.SearchPortable},
		{toolset.MCP, "claude-sonnet-4-5", nil, toolset.SearchPortable},
		{toolset.OpenAIResponses, "my-deployment", []toolset.SupportRule{{Format: toolset.OpenAIResponses, Prefix: "my-", Hosted: true}}, toolset.SearchNativeHosted},
		{toolset.Anthropic, "claude-sonnet-4-5", []toolset.SupportRule{{Format: toolset.Anthropic, Prefix: "claude-sonnet"}}, toolset.SearchPortable},
	} {
		t.Run(string(tc.format)+"/"+tc.model, func(t *testing.T) {
			ts := build(t, tools, nil, toolset.Options{Format: tc.format, Search: toolset.SearchAuto, Model: tc.model, Support: tc.support, DeferralThreshold: 1})
			if ts.Search != tc.want || ts.SearchReason == "" {
				t.Errorf("Search = %q (%s), want %q", ts.Search, ts.SearchReason, tc.want)
			}
		})
	}
	_, err := toolset.Build(tools, nil, toolset.Options{Format: toolset.Gemini, Search: toolset.SearchNativeClient})
	if !errors.Is(err, toolset.ErrInvalidOption) || !strings.Contains(err.Error(), "portable") {
		t.Errorf("native mode on gemini: %v, want ErrInvalidOption saying to use portable", err)
	}
	for _, opts := range []toolset.Options{{Format: toolset.Anthropic, Search: "magic"}, {Format: toolset.Anthropic, Hosted: "vector"}} {
		if _, err := toolset.Build(tools, nil, opts); !errors.Is(err, toolset.ErrInvalidOption) {
			t.Errorf("Build(%+v) = %v, want ErrInvalidOption", opts, err)
		}
	}
}

// The toolsearch/defer annotation: never keeps a tool loaded, always
// defers it below the threshold, automatic follows the threshold; the
// neverDefer annotation still works.
func TestDeferAnnotation(t *testing.T) {
	mk := func(name, ann string) catalog.Tool {
		tool := catalog.Tool{Name: name, Description: "Tool " + name + ".", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}
		if ann != "" {
			tool.Annotations = json.RawMessage(ann)
		}
		return tool
	}
	tools := []catalog.Tool{
		mk("a_always", `{"toolsearch/defer":"always"}`),
		mk("b_auto", `{"toolsearch/defer":"automatic"}`),
		mk("c_never", `{"toolsearch/defer":"never"}`),
		mk("d_plain", ""),
		mk("e_neverdefer", `{"toolsearch/neverDefer":true}`),
	}
	// Below the threshold (default 15): only a_always is deferred.
	below := build(t, tools, nil, toolset.Options{Format: toolset.Anthropic})
	if !below.Deferring || below.Deferred != 1 {
		t.Fatalf("below the threshold: Deferring %v Deferred %d, want true 1", below.Deferring, below.Deferred)
	}
	if diff := cmp.Diff([]string{"c_never", "e_neverdefer", "b_auto", "d_plain"}, below.Loaded); diff != "" {
		t.Errorf("below the threshold, Loaded (-want +got):\n%s", diff)
	}
	// From the threshold: never and neverDefer stay loaded.
	over := build(t, tools, nil, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1})
	if diff := cmp.Diff([]string{"c_never", "e_neverdefer"}, over.Loaded); diff != "" {
		t.Errorf("over the threshold, Loaded (-want +got):\n%s", diff)
	}
	// An always-loaded entry wins over "always".
	listed := build(t, tools, nil, toolset.Options{Format: toolset.Anthropic, AlwaysLoaded: []string{"a_always"}})
	if listed.Deferring || len(listed.Loaded) != len(tools) {
		t.Errorf("always_loaded a_always: Deferring %v Loaded %v", listed.Deferring, listed.Loaded)
	}
	// Native: the always-deferred tool carries defer_loading even below the threshold.
	native := build(t, tools, nil, toolset.Options{Format: toolset.Anthropic, Search: toolset.SearchNativeClient})
	if !strings.Contains(string(native.Tools), `{"name":"a_always","description":"Tool a_always.","input_schema":{"type":"object","properties":{}},"defer_loading":true}`) {
		t.Errorf("native list: %s", native.Tools)
	}
	problems := toolset.Check([]catalog.Tool{mk("x", `{"toolsearch/defer":"sometimes"}`)})
	if len(problems) != 1 || !strings.Contains(problems[0].Annotation, "sometimes") {
		t.Errorf("Check of a bad annotation: %+v", problems)
	}
}

// The normalization rules, one schema each.
func TestNormalizeSchemas(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
		kinds              []toolset.ChangeKind
	}{
		{"unchanged", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`, nil},
		{"dialect", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{}}`, `{"type":"object","properties":{}}`,
			[]toolset.ChangeKind{toolset.ChangeSchemaDialect}},
		{"draft04 bounds", `{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false}}}`,
			`{"type":"object","properties":{"n":{"exclusiveMinimum":0,"maximum":9,"type":"number"}}}`,
			[]toolset.ChangeKind{toolset.ChangeExclusiveBound, toolset.ChangeExclusiveBound}},
		{"numeric bound kept", `{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`, `{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`, nil},
		{"ref into properties", `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}},"b":{"$ref":"#/properties/a","description":"B"}}}`,
			`{"type":"object","properties":{"a":{"properties":{"x":{"type":"string"}},"type":"object"},"b":{"description":"B","properties":{"x":{"type":"string"}},"type":"object"}}}`,
			[]toolset.ChangeKind{toolset.ChangeRefInlined}},
		{"recursive ref", `{"type":"object","properties":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/properties/node"}}}}}}`,
			`{"type":"object","properties":{"node":{"properties":{"children":{"items":{"properties":{"children":{"items":{},"type":"array"}},"type":"object"},"type":"array"}},"type":"object"}}}`,
			[]toolset.ChangeKind{toolset.ChangeRefInlined, toolset.ChangeRefInlined}},
		{"defs", `{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"http://example.com/x"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{}}}`,
			[]toolset.ChangeKind{toolset.ChangeRefInlined, toolset.ChangeRefUnresolved}},
		{"ref not a string", `{"type":"object","properties":{"a":{"$ref":0,"description":"A"}},"x":{"y":{"$ref":["#"]}}}`,
			`{"type":"object","properties":{"a":{}},"x":{"y":{}}}`,
			[]toolset.ChangeKind{toolset.ChangeRefUnresolved, toolset.ChangeRefUnresolved}},
		{"top level", `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
			[]toolset.ChangeKind{toolset.ChangeTopLevelCombinator}},
		{"enum values untouched", `{"type":"object","properties":{"e":{"enum":[{"$ref":"x"}],"default":{"$schema":1}}}}`,
			`{"type":"object","properties":{"e":{"enum":[{"$ref":"x"}],"default":{"$schema":1}}}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := catalog.Tool{Name: "t", Description: "A tool.", InputSchema: json.RawMessage(tc.schema)}
			ts := build(t, []catalog.Tool{tool}, nil, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 100})
			var list []struct {
				InputSchema json.RawMessage `json:"input_schema"`
			}
			if err := json.Unmarshal(ts.Tools, &list); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(list[0].InputSchema)); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
			var kinds []toolset.ChangeKind
			for _, c := range ts.Changes {
				kinds = append(kinds, c.Kind)
				if c.Tool != "t" || c.Detail == "" {
					t.Errorf("change %+v", c)
				}
			}
			if diff := cmp.Diff(tc.kinds, kinds); diff != "" {
				t.Errorf("change kinds (-want +got):\n%s\n%+v", diff, ts.Changes)
			}
		})
	}
}

// Descriptions: empty ones generated, long ones cut for OpenAI only.
func TestNormalizeDescriptions(t *testing.T) {
	long := strings.Repeat("Does a thing. ", 200) // 2,800 characters
	tools := []catalog.Tool{
		{Name: "srv__empty", Server: "srv", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "srv__long", Server: "srv", Description: long, InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	for _, f := range toolset.Formats {
		ts := build(t, tools, nil, toolset.Options{Format: f, DeferralThreshold: 100})
		checkShape(t, f, ts.Tools)
		if !strings.Contains(string(ts.Tools), `"Tool empty of the srv server."`) {
			t.Errorf("%s: empty description not generated: %s", f, ts.Tools)
		}
		cut := strings.Contains(string(ts.Tools), "Does a thing.…")
		if openAI := f == toolset.OpenAIChat || f == toolset.OpenAIResponses; cut != openAI {
			t.Errorf("%s: description cut = %v, want %v", f, cut, openAI)
		}
	}
}

// benchCatalog loads a benchmark catalog; it fails under CI=true when the
// data is missing, and skips otherwise.
func benchCatalog(t *testing.T, ds string) []catalog.Tool {
	t.Helper()
	return loadTools(t, evaltest.Bench(t, ds+"/tools.jsonl"))
}

// No output for the livemcpbench catalog, in any format, deferral or
// search mode, holds a schema, description or tool count that the
// providers' rules reject (checked here independently of the package: a
// draft-04 boolean bound, $schema, $ref, a top-level combinator or a
// non-object top level, an empty or over-long description, more tools than
// OpenAI's 128).
func TestLivemcpbenchAccepted(t *testing.T) {
	tools := benchCatalog(t, "livemcpbench")
	revealed := tools[:40]
	type variant struct {
		name string
		opts toolset.Options
	}
	var variants []variant
	for _, f := range toolset.Formats {
		variants = append(variants,
			variant{string(f) + "/full", toolset.Options{Format: f, DeferralThreshold: len(tools) + 1}},
			variant{string(f) + "/omit", toolset.Options{Format: f}},
			variant{string(f) + "/stub", toolset.Options{Format: f, Defer: toolset.DeferStub}},
		)
	}
	for _, f := range []toolset.Format{toolset.Anthropic, toolset.OpenAIResponses} {
		variants = append(variants,
			variant{string(f) + "/native_client", toolset.Options{Format: f, Search: toolset.SearchNativeClient}},
			variant{string(f) + "/native_hosted", toolset.Options{Format: f, Search: toolset.SearchNativeHosted}},
		)
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			v.opts.Load = []string{tools[0].Name, tools[100].Name, tools[300].Name}
			ts := build(t, tools, revealed, v.opts)
			openAI := v.opts.Format == toolset.OpenAIChat || v.opts.Format == toolset.OpenAIResponses
			for _, raw := range []json.RawMessage{ts.Tools, ts.LoadedTools} {
				defs := definitions(t, v.opts.Format, raw)
				full := 0
				for _, d := range defs {
					if problem := rejected(d.schema, true); problem != "" {
						t.Errorf("%s: schema rejected: %s", d.name, problem)
					}
					if strings.TrimSpace(d.description) == "" {
						t.Errorf("%s: empty description", d.name)
					}
					if openAI && len([]rune(d.description)) > 1024 {
						t.Errorf("%s: description of %d characters", d.name, len([]rune(d.description)))
					}
					if !d.deferred {
						full++
					}
				}
				if openAI && full > 128 {
					t.Errorf("%d tools in full, OpenAI accepts 128", full)
				}
			}
			if openAI && strings.HasSuffix(v.name, "/full") && len(ts.Omitted) != len(tools)-128 {
				t.Errorf("%d tools omitted, want %d", len(ts.Omitted), len(tools)-128)
			}
		})
	}
}

type def struct {
	name, description string
	schema            any
	deferred          bool
}

// definitions reads the tool definitions of a list in any format
// (namespaces flattened, the search tools skipped).
func definitions(t *testing.T, f toolset.Format, raw json.RawMessage) []def {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	if f == toolset.Gemini && len(list) == 1 {
		if err := json.Unmarshal(list[0]["functionDeclarations"], &list); err != nil {
			t.Fatal(err)
		}
	}
	var out []def
	var walk func(items []map[string]json.RawMessage)
	walk = func(items []map[string]json.RawMessage) {
		for _, item := range items {
			if f == toolset.OpenAIChat {
				var fn map[string]json.RawMessage
				_ = json.Unmarshal(item["function"], &fn)
				item = fn
			}
			switch str(item["type"]) {
			case "namespace":
				var inner []map[string]json.RawMessage
				_ = json.Unmarshal(item["tools"], &inner)
				walk(inner)
				continue
			case "tool_search", "tool_search_tool_bm25_20251119", "tool_search_tool_regex_20251119":
				continue
			}
			d := def{name: str(item["name"]), description: str(item["description"]), deferred: string(item["defer_loading"]) == "true"}
			for _, k := range []string{"parameters", "input_schema", "parametersJsonSchema", "inputSchema"} {
				if s, ok := item[k]; ok {
					_ = json.Unmarshal(s, &d.schema)
				}
			}
			out = append(out, d)
		}
	}
	walk(list)
	return out
}

// rejected names the first thing in a schema a provider rejects; top says
// whether s is the top level.
func rejected(s any, top bool) string {
	switch x := s.(type) {
	case map[string]any:
		if top {
			if x["type"] != "object" {
				return "top-level type is not object"
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "enum"} {
				if _, ok := x[k]; ok {
					return "top-level " + k
				}
			}
		}
		for k, v := range x {
			switch k {
			case "$schema", "$ref", "definitions", "$defs":
				return k
			case "exclusiveMinimum", "exclusiveMaximum":
				if _, ok := v.(bool); ok {
					return k + " is a boolean (draft-04)"
				}
			case "enum", "const", "default", "examples":
				continue
			}
			if p := rejected(v, false); p != "" {
				return k + "." + p
			}
		}
	case []any:
		for _, v := range x {
			if p := rejected(v, false); p != "" {
				return p
			}
		}
	}
	return ""
}

// Over OpenAI's 128 tools the list keeps the search tool and the
// always-loaded tools, and reports the tools left out.
func TestToolCountLimit(t *testing.T) {
	var tools []catalog.Tool
	for i := range 200 {
		tools = append(tools, catalog.Tool{Name: "t" + string(rune('a'+i/26)) + string(rune('a'+i%26)), Description: "A tool.", InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	ts := build(t, tools, tools[100:150], toolset.Options{Format: toolset.OpenAIChat, Defer: toolset.DeferStub, AlwaysLoaded: []string{"taa"}})
	if n := len(providerNames(t, toolset.OpenAIChat, ts.Tools)); n != 128 {
		t.Errorf("%d tools, want 128", n)
	}
	if len(ts.Omitted) != 200+1-128 || !strings.HasPrefix(ts.Omitted[0].Reason, "tool_count_limit") {
		t.Errorf("%d omitted, first %+v", len(ts.Omitted), ts.Omitted[0])
	}
	// The revealed tools (after the always-loaded one) come before the stubs, and stay.
	if diff := cmp.Diff(append([]string{"taa"}, names(tools[100:150])...), ts.Loaded); diff != "" {
		t.Errorf("Loaded (-want +got):\n%s", diff)
	}
}

func names(tools []catalog.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// Over MaxBytes, big definitions are trimmed, then tools left out from the
// end; when even the fixed part does not fit, ErrTooLarge.
func TestMaxBytes(t *testing.T) {
	big := func(name string) catalog.Tool {
		props := map[string]any{}
		for i := range 300 {
			props["p"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))] = map[string]any{"type": "string", "description": strings.Repeat("words ", 30)}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		return catalog.Tool{Name: name, Description: strings.Repeat("A big tool. ", 400), InputSchema: schema}
	}
	var tools []catalog.Tool
	for i := range 20 {
		tools = append(tools, big("big_"+string(rune('a'+i))))
	}
	full := build(t, tools, tools, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1})
	if len(full.Tools) < 1<<20 {
		t.Fatalf("fixture too small: %d bytes", len(full.Tools))
	}
	trimmed := build(t, tools, tools, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, MaxBytes: 512 << 10})
	if n := len(trimmed.Tools); n > 512<<10 || len(trimmed.Loaded) != len(tools) {
		t.Errorf("trimmed: %d bytes, %d tools loaded", n, len(trimmed.Loaded))
	}
	if !hasKind(trimmed.Changes, toolset.ChangeTrimmedForSize) {
		t.Errorf("no trimmed_for_size change reported")
	}
	// Trimming a third of them fits two thirds of the size: the others,
	// the first in the list, keep their definitions.
	whole := len(full.Tools) + len(full.SearchTool) + len(full.LoadedTools)
	part := build(t, tools, tools, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, MaxBytes: whole * 2 / 3})
	var cut []string
	for _, c := range part.Changes {
		if c.Kind == toolset.ChangeTrimmedForSize {
			cut = append(cut, c.Tool)
		}
	}
	if len(cut) == 0 || len(cut) > len(tools)/2 || len(part.Omitted) != 0 || slices.Contains(cut, "big_a") {
		t.Errorf("two thirds of the size: trimmed %v, omitted %d; want about a third trimmed, the first kept", cut, len(part.Omitted))
	}
	tight := build(t, tools, tools, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, MaxBytes: 40 << 10})
	if len(tight.Tools) > 40<<10 || len(tight.Omitted) == 0 || !strings.HasPrefix(tight.Omitted[0].Reason, "message_size") {
		t.Errorf("tight: %d bytes, omitted %v", len(tight.Tools), tight.Omitted)
	}
	_, err := toolset.Build(tools, nil, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 1, AlwaysLoaded: []string{"big_*"}, MaxBytes: 40 << 10})
	if !errors.Is(err, toolset.ErrTooLarge) {
		t.Errorf("always-loaded over the limit: %v, want ErrTooLarge", err)
	}
}

func hasKind(changes []toolset.Change, k toolset.ChangeKind) bool {
	for _, c := range changes {
		if c.Kind == k {
			return true
		}
	}
	return false
}

// References to references would double the schema at each level; the
// inlining stops at MaxRefInlines.
func TestRefExpansionBounded(t *testing.T) {
	defs := map[string]any{"d0": map[string]any{"type": "string"}}
	for i := 1; i <= 30; i++ {
		prev := fmt.Sprintf("#/$defs/d%d", i-1)
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": prev}, "b": map[string]any{"$ref": prev}}}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "$defs": defs, "properties": map[string]any{"x": map[string]any{"$ref": "#/$defs/d30"}}})
	ts := build(t, []catalog.Tool{{Name: "bomb", Description: "A tool.", InputSchema: schema}}, nil, toolset.Options{Format: toolset.Anthropic, DeferralThreshold: 100})
	if len(ts.Tools) > 1<<20 || !hasKind(ts.Changes, toolset.ChangeRefUnresolved) {
		t.Errorf("%d bytes, changes %d", len(ts.Tools), len(ts.Changes))
	}
}
