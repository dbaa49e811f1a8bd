package server_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/servertest"
)

var sdkFixtures = flag.String("sdk-fixtures", "", "write GetToolset and Agent outputs for the Node SDK conformance test (toolset/testdata/sdk) into this directory")

// sdkCatalogs are the catalogs the SDK conformance test checks: the
// example catalog and the livemcpbench catalog (../shared/bench).
var sdkCatalogs = map[string]string{
	"example":      "../examples/catalog.json",
	"livemcpbench": "../../shared/bench/livemcpbench/tools.jsonl",
}

// TestSDKFixtures writes, with -sdk-fixtures=DIR, what a real sidecar
// answers through the real Go Agent — every format in the portable modes
// and both native modes, and the Agent's native search results — as JSON
// files that `make sdk-conformance` type-checks against the pinned provider
// SDKs and sends through their request methods. Without the flag it only
// builds them (so the generator cannot rot).
func TestSDKFixtures(t *testing.T) {
	type variant struct {
		name   string
		format toolsearchv1.ToolFormat
		opts   []toolsearch.AgentOption
	}
	formats := map[string]toolsearchv1.ToolFormat{
		"openai_chat": toolsearch.FormatOpenAIChat, "openai_responses": toolsearch.FormatOpenAIResponses,
		"anthropic": toolsearch.FormatAnthropic, "gemini": toolsearch.FormatGemini, "mcp": toolsearch.FormatMCP,
	}
	var variants []variant
	for name, f := range formats {
		variants = append(variants,
			variant{name + "/full", f, []toolsearch.AgentOption{toolsearch.WithDeferralThreshold(100000)}},
			variant{name + "/omit", f, []toolsearch.AgentOption{toolsearch.WithDeferralThreshold(1)}},
			variant{name + "/stub", f, []toolsearch.AgentOption{toolsearch.WithDeferralThreshold(1), toolsearch.WithDeferredMode(toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_STUB)}},
		)
	}
	for _, name := range []string{"anthropic", "openai_responses"} {
		f := formats[name]
		variants = append(variants,
			variant{name + "/native_client", f, []toolsearch.AgentOption{toolsearch.WithDeferralThreshold(1), toolsearch.WithSearchMode(toolsearch.SearchNativeClient)}},
			variant{name + "/native_hosted", f, []toolsearch.AgentOption{toolsearch.WithDeferralThreshold(1), toolsearch.WithSearchMode(toolsearch.SearchNativeHosted)}},
		)
	}
	variants = append(variants, variant{"anthropic/native_hosted_regex", toolsearch.FormatAnthropic, []toolsearch.AgentOption{
		toolsearch.WithDeferralThreshold(1), toolsearch.WithSearchMode(toolsearch.SearchNativeHosted), toolsearch.WithHostedSearch(toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_REGEX)}})

	for cat, path := range sdkCatalogs {
		t.Run(cat, func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				if testenv.CI() || *sdkFixtures != "" {
					t.Fatalf("catalog %s: %v", cat, err)
				}
				t.Skipf("catalog %s not found: %v", cat, err)
			}
			snap, err := catalog.LoadSnapshot(catalog.Source{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			e, err := search.New(snap, search.Config{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := toolsearch.Dial(servertest.Start(t, e), toolsearch.WithTimeout(testenv.HangGuard(t)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			const session = "sdk"
			query := `{"query":"send a message","max_results":3}`
			if cat == "livemcpbench" {
				query = `{"query":"search the web for news","max_results":3}`
			}
			if _, err := toolsearch.NewAgent(c).HandleToolCall(ctx(t), session, query); err != nil {
				t.Fatal(err)
			}
			for _, v := range variants {
				ts, err := toolsearch.NewAgent(c, v.opts...).Tools(ctx(t), session, v.format)
				if err != nil {
					t.Fatalf("%s: %v", v.name, err)
				}
				writeFixture(t, filepath.Join(cat, v.name+".json"), map[string]any{
					"format": strings.SplitN(v.name, "/", 2)[0], "tools": ts.Tools, "tool_search": ts.SearchTool, "system_prompt": ts.SystemPrompt,
				})
			}
			native := toolsearch.NewAgent(c, toolsearch.WithSearchMode(toolsearch.SearchNativeClient))
			result, err := native.AnthropicToolResult(ctx(t), session, "toolu_01", json.RawMessage(query))
			if err != nil {
				t.Fatal(err)
			}
			bad, err := native.AnthropicToolResult(ctx(t), session, "toolu_02", json.RawMessage(`{"query":"x","search_type":"fuzzy"}`))
			if err != nil {
				t.Fatal(err)
			}
			call := json.RawMessage(`{"type":"tool_search_call","id":"tsc_01","call_id":"call_01","execution":"client","status":"completed","arguments":` + query + `}`)
			output, err := native.OpenAIToolSearchOutput(ctx(t), session, call)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(result), `"type":"tool_reference"`) || !strings.Contains(string(output), `"tools":[{`) {
				t.Fatalf("native results found nothing:\n%s\n%s", result, output)
			}
			writeFixture(t, filepath.Join(cat, "agent.json"), map[string]any{
				"anthropic_tool_result": result, "anthropic_tool_result_error": bad,
				"openai_tool_search_call": call, "openai_tool_search_output": output,
			})
		})
	}
}

func writeFixture(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if *sdkFixtures == "" {
		return
	}
	path := filepath.Join(*sdkFixtures, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}
