package server_test

import (
	"strings"
	"testing"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// GetToolset with visible_tools never mentions a tool outside them: in any
// format, search mode, deferral mode or field, even when the session's
// earlier searches (without the set) revealed outside tools and the
// request names outside tools as always-loaded or to load.
func TestGetToolsetVisibleToolsNeverLeak(t *testing.T) {
	f := start(t, true)
	const session = "scoped"
	for _, q := range []string{"github issue", "read a file", "send slack message", "weather now"} {
		if _, err := f.client.Search(ctx(t), q, toolsearch.WithSessionID(session), toolsearch.WithMaxResults(10)); err != nil {
			t.Fatal(err)
		}
	}
	visible := []string{"slack:*", "weather__get_current"}
	inside := map[string]bool{"slack__send_message": true, "slack__list_channels": true, "weather__get_current": true}
	outside := []string{"github__create_issue", "github__search_issues", "weather__get_forecast", "filesystem__read_file", "filesystem__write_file"}
	formats := []toolsearchv1.ToolFormat{toolsearch.FormatOpenAIChat, toolsearch.FormatOpenAIResponses, toolsearch.FormatAnthropic, toolsearch.FormatGemini, toolsearch.FormatMCP}
	searchModes := []toolsearchv1.ToolSearchMode{toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_PORTABLE, toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT, toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_HOSTED}
	deferModes := []toolsearchv1.DeferredToolMode{toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_OMIT, toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_REMINDER, toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_STUB}
	for _, format := range formats {
		for _, sm := range searchModes {
			native := sm != toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_PORTABLE
			if native && format != toolsearch.FormatAnthropic && format != toolsearch.FormatOpenAIResponses {
				continue
			}
			for _, dm := range deferModes {
				for _, threshold := range []int32{0, 1} {
					name := format.String() + "/" + sm.String() + "/" + dm.String()
					resp, err := f.client.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{
						SessionId:          session,
						Format:             format,
						SearchMode:         sm,
						DeferredMode:       dm,
						DeferralThreshold:  threshold,
						VisibleTools:       visible,
						AlwaysLoaded:       []string{"github:*", "slack__list_channels"},
						LoadTools:          []string{"filesystem__read_file", "slack__send_message"},
						ServerDescriptions: map[string]string{"github": "GitHub's server.", "slack": "Slack's server."},
					})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					raw, err := protojson.Marshal(resp)
					if err != nil {
						t.Fatal(err)
					}
					for _, n := range outside {
						if strings.Contains(string(raw), n) {
							t.Errorf("%s (threshold %d): the response mentions %s, outside the visible tools:\n%s", name, threshold, n, raw)
						}
					}
					if strings.Contains(resp.GetSystemPrompt(), "filesystem") || strings.Contains(resp.GetSystemPrompt(), "github") {
						t.Errorf("%s: the system prompt names an outside server:\n%s", name, resp.GetSystemPrompt())
					}
					for _, n := range resp.GetLoadedTools() {
						if !inside[n] {
							t.Errorf("%s: loaded %s", name, n)
						}
					}
					if got := int(resp.GetDeferredCount()) + len(resp.GetLoadedTools()); resp.GetDeferring() && got != len(inside) {
						t.Errorf("%s: %d deferred + %d loaded, want the %d visible tools", name, resp.GetDeferredCount(), len(resp.GetLoadedTools()), len(inside))
					}
				}
			}
		}
	}
	for _, bad := range [][]string{{""}, {"a*b"}, {":*"}} {
		if _, err := f.client.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{Format: toolsearch.FormatMCP, VisibleTools: bad}); status.Code(err) != codes.InvalidArgument {
			t.Errorf("visible_tools %q: err = %v, want InvalidArgument", bad, err)
		}
	}
}

// The sidecar's toolset defaults (--deferral-threshold, --deferral-mode,
// --system-prompt-file, server descriptions) fill what a request leaves
// unset, and a request's own options win.
func TestGetToolsetDefaults(t *testing.T) {
	srv := server.New(server.Config{Log: discardLogger(), Toolset: toolset.Defaults{
		DeferralThreshold: 1, Defer: toolset.DeferReminder, PromptAppend: "Operator text.",
		ServerDescriptions: map[string]string{"slack": "Team chat."},
		Describe:           func() map[string]string { return map[string]string{"github": "Code hosting.", "slack": "Overridden."} },
	}})
	addr := servertest.Serve(t, srv)
	srv.Ready(newEngine(t))
	c, err := toolsearch.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	resp, err := c.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{Format: toolsearch.FormatMCP})
	if err != nil {
		t.Fatal(err)
	}
	p := resp.GetSystemPrompt()
	for _, want := range []string{"Tools you can load with tool_search:", "slack (2: Team chat.)", "github (2: Code hosting.)", "\n\nOperator text."} {
		if !resp.GetDeferring() || !strings.Contains(p, want) {
			t.Errorf("defaults: deferring %v, prompt lacks %q:\n%s", resp.GetDeferring(), want, p)
		}
	}
	resp, err = c.Raw().GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{Format: toolsearch.FormatMCP, DeferralThreshold: 100,
		ServerDescriptions: map[string]string{"slack": "Mine."}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetDeferring() || resp.GetSystemPrompt() != "Operator text." {
		t.Errorf("request's threshold: deferring %v, prompt %q; want the whole catalog and the operator's text alone", resp.GetDeferring(), resp.GetSystemPrompt())
	}
}
