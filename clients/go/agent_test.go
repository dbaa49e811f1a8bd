package toolsearch

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// agentServer answers GetToolset, ResetSession and Search with canned
// responses and records the last request. It tests the Agent's wiring; the
// root module's server/agent_test.go runs a real sidecar.
type agentServer struct {
	toolsearchv1.UnimplementedToolSearchServiceServer
	last proto.Message
}

func (s *agentServer) Search(_ context.Context, req *toolsearchv1.SearchRequest) (*toolsearchv1.SearchResponse, error) {
	s.last = req
	switch req.GetQuery() {
	case "bad(":
		return nil, status.Error(codes.InvalidArgument, "regex pattern \"bad(\": missing closing )")
	case "down":
		return nil, status.Error(codes.Unavailable, "sidecar unavailable")
	}
	return &toolsearchv1.SearchResponse{
		ToolReferences: []*toolsearchv1.ToolReference{{ToolName: "slack__send_message", RelevanceScore: 0.9, Summary: "Send a message."}},
		TotalMatches:   1,
		SearchMetadata: &toolsearchv1.SearchMetadata{SearchType: "hybrid", Query: req.GetQuery()},
	}, nil
}

func (s *agentServer) GetToolset(_ context.Context, req *toolsearchv1.GetToolsetRequest) (*toolsearchv1.GetToolsetResponse, error) {
	s.last = req
	return &toolsearchv1.GetToolsetResponse{
		ToolsJson:      `[{"name":"tool_search"}]`,
		ToolSearchJson: `{"name":"tool_search"}`,
		SystemPrompt:   "You can use a catalog of 3 tools.",
		LoadedTools:    []string{"a.b"},
		DeferredCount:  2,
		Deferring:      true,
		ProviderNames:  map[string]string{"a_b_12345678": "a.b"},
		CatalogVersion: 4,
	}, nil
}

func (s *agentServer) ResetSession(_ context.Context, req *toolsearchv1.ResetSessionRequest) (*toolsearchv1.ResetSessionResponse, error) {
	s.last = req
	return &toolsearchv1.ResetSessionResponse{Existed: true}, nil
}

// newAgentFixture serves s over bufconn and returns a client for it. The
// calls are sequential, so s needs no lock.
func newAgentFixture(t *testing.T, s *agentServer) *Client {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	toolsearchv1.RegisterToolSearchServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	dialer := grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) })
	c, err := Dial("passthrough:///bufnet", WithDialOptions(dialer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestAgentTools(t *testing.T) {
	s := &agentServer{}
	a := NewAgent(newAgentFixture(t, s),
		WithAlwaysLoaded("memory:*", "clock__now"),
		WithDeferralThreshold(20),
		WithDeferredMode(toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_REMINDER),
		WithAgentSearchOptions(WithVisibleTools("memory:*", "slack:*"), WithMaxResults(3)))
	ts, err := a.Tools(context.Background(), "s1", FormatAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	wantReq := &toolsearchv1.GetToolsetRequest{
		SessionId:         "s1",
		Format:            toolsearchv1.ToolFormat_TOOL_FORMAT_ANTHROPIC,
		AlwaysLoaded:      []string{"memory:*", "clock__now"},
		DeferralThreshold: 20,
		DeferredMode:      toolsearchv1.DeferredToolMode_DEFERRED_TOOL_MODE_REMINDER,
		VisibleTools:      []string{"memory:*", "slack:*"}, // the searches' scope
	}
	if diff := cmp.Diff(wantReq, s.last, protocmp.Transform()); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	want := &Toolset{
		Tools:          json.RawMessage(`[{"name":"tool_search"}]`),
		SearchTool:     json.RawMessage(`{"name":"tool_search"}`),
		SystemPrompt:   "You can use a catalog of 3 tools.",
		Loaded:         []string{"a.b"},
		Deferred:       2,
		ProviderNames:  map[string]string{"a_b_12345678": "a.b"},
		CatalogVersion: 4,
	}
	if diff := cmp.Diff(want, ts); diff != "" {
		t.Errorf("toolset (-want +got):\n%s", diff)
	}
	if got := ts.CatalogName("a_b_12345678"); got != "a.b" {
		t.Errorf("CatalogName(rewritten) = %q", got)
	}
	if got := ts.CatalogName("slack__send_message"); got != "slack__send_message" {
		t.Errorf("CatalogName(plain) = %q", got)
	}
	if err := a.Reset(context.Background(), "s1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&toolsearchv1.ResetSessionRequest{SessionId: "s1"}, s.last, protocmp.Transform()); diff != "" {
		t.Errorf("reset request (-want +got):\n%s", diff)
	}
}

func TestHandleToolCall(t *testing.T) {
	s := &agentServer{}
	a := NewAgent(newAgentFixture(t, s), WithAgentSearchOptions(WithVisibleTools("slack:*")))
	ctx := context.Background()

	got, err := a.HandleToolCall(ctx, "s1", `{"query":"send slack message","search_type":"keyword","max_results":"3","category_filter":"slack"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.9,"summary":"Send a message."}],"total_matches":1,"search_metadata":{"search_type":"hybrid","query":"send slack message","execution_time_ms":0}}`
	if got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	wantReq := &toolsearchv1.SearchRequest{
		Query:          "send slack message",
		SearchType:     toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD,
		MaxResults:     3,
		CategoryFilter: "slack",
		VisibleTools:   []string{"slack:*"},
		SessionId:      "s1",
		ForModel:       true, // the model sees the answer as is: the relevance floor applies
	}
	if diff := cmp.Diff(wantReq, s.last, protocmp.Transform()); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}

	// Mistakes the model can fix come back as a result, not an error.
	for _, tc := range []struct{ args, want string }{
		{`not json`, `{"error":"the arguments are not a JSON object; call tool_search with {\"query\": \"what the tool should do\"}"}`},
		{`{"search_type":"keyword"}`, `{"error":"\"query\" is missing or not a string; call tool_search with {\"query\": \"what the tool should do\"}"}`},
		{`{"query":"x","search_type":"vector"}`, `{"error":"\"search_type\" \"vector\" is not known; use \"semantic\", \"keyword\" or \"regex\""}`},
		{`{"query":"bad(","search_type":"regex"}`, `{"error":"regex pattern \"bad(\": missing closing )"}`},
	} {
		got, err := a.HandleToolCall(ctx, "s1", tc.args)
		if err != nil {
			t.Errorf("HandleToolCall(%s): error %v, want an error result", tc.args, err)
		}
		if got != tc.want {
			t.Errorf("HandleToolCall(%s)\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
	// Failures the agent must handle are errors.
	if _, err := a.HandleToolCall(ctx, "s1", `{"query":"down"}`); status.Code(err) != codes.Unavailable {
		t.Errorf("unavailable sidecar: err = %v, want Unavailable", err)
	}
}

// The native-mode options reach the request.
func TestAgentNativeOptions(t *testing.T) {
	s := &agentServer{}
	a := NewAgent(newAgentFixture(t, s),
		WithSearchMode(SearchAuto),
		WithModel("gpt-5.4"),
		WithHostedSearch(toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_REGEX),
		WithModelSupport("my-gpt", SearchNativeHosted),
		WithServerDescriptions(map[string]string{"slack": "Slack."}))
	if _, err := a.Tools(context.Background(), "s1", FormatOpenAIResponses); err != nil {
		t.Fatal(err)
	}
	wantReq := &toolsearchv1.GetToolsetRequest{
		SessionId:          "s1",
		Format:             toolsearchv1.ToolFormat_TOOL_FORMAT_OPENAI_RESPONSES,
		SearchMode:         toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_AUTO,
		HostedSearch:       toolsearchv1.HostedToolSearch_HOSTED_TOOL_SEARCH_REGEX,
		Model:              "gpt-5.4",
		ModelSupport:       []*toolsearchv1.ModelSupport{{ModelPrefix: "my-gpt", Mode: toolsearchv1.ToolSearchMode_TOOL_SEARCH_MODE_NATIVE_HOSTED}},
		ServerDescriptions: map[string]string{"slack": "Slack."},
	}
	if diff := cmp.Diff(wantReq, s.last, protocmp.Transform()); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	// A tool_search_call whose arguments come as a JSON string is read too;
	// the output keeps the call_id.
	out, err := a.OpenAIToolSearchOutput(context.Background(), "s1", json.RawMessage(`{"type":"tool_search_call","call_id":"c1","arguments":"{\"query\":\"send\"}"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), `{"type":"tool_search_output","call_id":"c1","execution":"client","status":"completed","tools":`) {
		t.Errorf("output %s", out)
	}
	if q := s.last.(*toolsearchv1.GetToolsetRequest).GetLoadTools(); !cmp.Equal(q, []string{"slack__send_message"}) {
		t.Errorf("load_tools %v", q)
	}
}
