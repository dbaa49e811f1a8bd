package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/servertest"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/protobuf/testing/protocmp"
)

// Learned pinning through the real gRPC service: one session, however many
// reports, pins nothing; once enough distinct sessions of a scope used a
// tool, GetToolset sends it in full for that scope with its provenance
// (learned_pinned_tools), GetLearned says so, and another scope's list is
// unchanged.
func TestLearnedPinningGRPC(t *testing.T) {
	ctx := context.Background()
	c, _ := learningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), Pin: true, ReportRate: 1000, ReportBurst: 1000},
		filepath.Join("testdata", "catalog.json"))
	team := []string{"github:*", "weather:*"}
	use := func(session, q, tool string) bool {
		t.Helper()
		if _, err := c.Search(ctx, q, toolsearch.WithSessionID(session), toolsearch.WithVisibleTools(team...)); err != nil {
			t.Fatal(err)
		}
		rep, err := report(ctx, c, session, tool)
		if err != nil {
			t.Fatal(err)
		}
		return rep.GetRecorded()
	}
	toolset := func(visible []string) *toolsearchv1.GetToolsetResponse {
		t.Helper()
		resp, err := c.Raw().GetToolset(ctx, &toolsearchv1.GetToolsetRequest{Format: toolsearchv1.ToolFormat_TOOL_FORMAT_ANTHROPIC,
			SearchMode: toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT, DeferralThreshold: 1, VisibleTools: visible})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for i := range 20 {
		use("poisoner", fmt.Sprintf("search github issues %d", i), "github__search_issues")
	}
	if got := toolset(team); len(got.GetLearnedPinnedTools()) > 0 || len(got.GetLoadedTools()) > 0 {
		t.Fatalf("one session pinned %v (loaded %v)", got.GetLearnedPinnedTools(), got.GetLoadedTools())
	}
	for i := range learn.DefaultPinMinSessions - 1 {
		if !use(fmt.Sprintf("s%d", i), "search github issues", "github__search_issues") {
			t.Fatalf("session s%d taught nothing", i)
		}
	}
	got := toolset(team)
	if diff := cmp.Diff([]string{"github__search_issues"}, got.GetLearnedPinnedTools()); diff != "" {
		t.Errorf("learned_pinned_tools (-want +got):\n%s", diff)
	}
	if !slices.Equal(got.GetLoadedTools(), []string{"github__search_issues"}) || got.GetDeferredCount() != 3 || got.GetDeferredLimit() != nil {
		t.Errorf("loaded %v, deferred %d, limit %v", got.GetLoadedTools(), got.GetDeferredCount(), got.GetDeferredLimit())
	}
	for _, other := range [][]string{nil, {"slack:*", "github:*"}} {
		if o := toolset(other); len(o.GetLearnedPinnedTools()) > 0 {
			t.Errorf("visible %v: pinned %v", other, o.GetLearnedPinnedTools())
		}
	}
	learned, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: "github__search_issues"})
	if err != nil {
		t.Fatal(err)
	}
	wantPin := &toolsearchv1.LearnPin{Enabled: true, Share: learn.DefaultPinShare, MinSessions: learn.DefaultPinMinSessions, MaxPerScope: learn.MaxPinnedPerScope}
	if diff := cmp.Diff(wantPin, learned.GetPin(), protocmp.Transform()); diff != "" {
		t.Errorf("pin (-want +got):\n%s", diff)
	}
	if tools := learned.GetTools(); len(tools) != 1 || !tools[0].GetPinned() || tools[0].GetSessions() != 5 || tools[0].GetScopeSessions() != 5 {
		t.Errorf("GetLearned tools = %v", tools)
	}
}

// Past Anthropic's cap on deferred tools, GetToolset keeps the tools the
// scope used (learned evidence) and reports the rule and the count in
// deferred_limit; the tools left out are the last of the others in
// catalog order, each in omitted_tools.
func TestDeferredLimitGRPC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,050-tool list")
	}
	ctx := context.Background()
	n := toolset.AnthropicMaxDeferred + 50
	tools := make([]search.Tool, n)
	for i := range tools {
		tools[i] = search.Tool{Name: fmt.Sprintf("t%05d", i), Description: "A tool.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	}
	e, err := search.NewFromTools(tools, search.Config{Learn: search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	c, err := toolsearch.Dial(servertest.Start(t, e), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	used := tools[n-1].Name // the last in catalog order
	for _, s := range []string{"a", "b"} {
		if _, err := c.Search(ctx, used, toolsearch.WithSessionID(s)); err != nil {
			t.Fatal(err)
		}
		if rep, err := report(ctx, c, s, used); err != nil || !rep.GetRecorded() {
			t.Fatalf("report = %v, %v", rep, err)
		}
	}
	resp, err := c.Raw().GetToolset(ctx, &toolsearchv1.GetToolsetRequest{Format: toolsearchv1.ToolFormat_TOOL_FORMAT_ANTHROPIC,
		SearchMode: toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_CLIENT})
	if err != nil {
		t.Fatal(err)
	}
	want := &toolsearchv1.DeferredLimit{Limit: toolset.AnthropicMaxDeferred, Omitted: 50, Rule: toolset.DeferredByUse}
	if diff := cmp.Diff(want, resp.GetDeferredLimit(), protocmp.Transform()); diff != "" {
		t.Errorf("deferred_limit (-want +got):\n%s", diff)
	}
	omitted := resp.GetOmittedTools()
	if len(omitted) != 50 {
		t.Fatalf("omitted %d tools, want 50", len(omitted))
	}
	if omitted[0].GetToolName() != tools[toolset.AnthropicMaxDeferred-1].Name || omitted[49].GetToolName() != tools[n-2].Name ||
		slices.ContainsFunc(omitted, func(o *toolsearchv1.OmittedTool) bool { return o.GetToolName() == used }) {
		t.Errorf("omitted %v … %v, want %s … %s without %s", omitted[0], omitted[49], tools[toolset.AnthropicMaxDeferred-1].Name, tools[n-2].Name, used)
	}
	if !strings.Contains(resp.GetToolsJson(), `"name":"`+used+`"`) || resp.GetDeferredCount() != toolset.AnthropicMaxDeferred {
		t.Errorf("%s not listed, or %d deferred", used, resp.GetDeferredCount())
	}
}
