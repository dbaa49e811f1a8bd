package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// scriptedModel stands in for the model: on each turn it answers with the
// next tool_search call, then stops.
var scriptedModel = []string{
	`{"query":"send a message to a slack channel","max_results":2}`,
	`{"query":"select:weather__get_forecast,slack__send_message"}`,
}

// toolNames lists the names in a provider tool array.
func toolNames(t testing.TB, format toolsearchv1.ToolFormat, raw json.RawMessage) []string {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatalf("tools JSON: %v\n%s", err, raw)
	}
	if format == toolsearch.FormatGemini && len(list) == 1 {
		if err := json.Unmarshal(list[0]["functionDeclarations"], &list); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, item := range list {
		if format == toolsearch.FormatOpenAIChat {
			var fn map[string]json.RawMessage
			_ = json.Unmarshal(item["function"], &fn)
			item = fn
		}
		var name string
		_ = json.Unmarshal(item["name"], &name)
		out = append(out, name)
	}
	return out
}

// Three turns of an agent loop, against a real sidecar (loopback server,
// real engine, the client module's Agent), in every format: each turn's
// tool list starts with the previous turn's (names and JSON text), the
// system prompt does not change, and the searches' tools are loaded.
func TestAgentThreeTurns(t *testing.T) {
	f := start(t, true)
	// The fixture catalog has 8 tools: defer from 1 so that it is deferred.
	agent := toolsearch.NewAgent(f.client, toolsearch.WithAlwaysLoaded("filesystem__read_file"), toolsearch.WithDeferralThreshold(1))
	formats := []toolsearchv1.ToolFormat{
		toolsearch.FormatOpenAIChat, toolsearch.FormatOpenAIResponses, toolsearch.FormatAnthropic, toolsearch.FormatGemini, toolsearch.FormatMCP,
	}
	for _, format := range formats {
		t.Run(format.String(), func(t *testing.T) {
			session := "conversation-" + format.String()
			var prev *toolsearch.Toolset
			var prevNames []string
			for turn := 0; turn < 3; turn++ {
				ts, err := agent.Tools(ctx(t), session, format)
				if err != nil {
					t.Fatalf("turn %d: Tools: %v", turn+1, err)
				}
				names := toolNames(t, format, ts.Tools)
				if names[0] != toolsearch.SearchToolName || names[1] != "filesystem__read_file" {
					t.Fatalf("turn %d list starts %v, want tool_search, filesystem__read_file", turn+1, names)
				}
				if prev != nil {
					if len(names) <= len(prevNames) || !cmp.Equal(names[:len(prevNames)], prevNames) {
						t.Errorf("turn %d list %v does not extend turn %d list %v", turn+1, names, turn, prevNames)
					}
					if ts.SystemPrompt != prev.SystemPrompt {
						t.Errorf("turn %d changed the system prompt", turn+1)
					}
					if !strings.HasPrefix(string(ts.Tools), strings.TrimRight(string(prev.Tools), "]}")) {
						t.Errorf("turn %d: the tools JSON does not extend turn %d's", turn+1, turn)
					}
				}
				prev, prevNames = ts, names
				if turn == len(scriptedModel) {
					break
				}
				result, err := agent.HandleToolCall(ctx(t), session, scriptedModel[turn])
				if err != nil {
					t.Fatalf("turn %d: HandleToolCall: %v", turn+1, err)
				}
				if !strings.HasPrefix(result, `{"tool_references":[{`) {
					t.Fatalf("turn %d: result %s", turn+1, result)
				}
			}
			if got := prev.Loaded; len(got) != 4 || got[0] != "filesystem__read_file" || got[len(got)-1] != "weather__get_forecast" {
				t.Errorf("loaded after three turns: %v", got)
			}
			if err := agent.Reset(ctx(t), session); err != nil {
				t.Fatal(err)
			}
			ts, err := agent.Tools(ctx(t), session, format)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"filesystem__read_file"}, ts.Loaded); diff != "" {
				t.Errorf("after Reset (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetToolsetErrors(t *testing.T) {
	f := start(t, true)
	raw := f.client.Raw()
	for name, req := range map[string]*toolsearchv1.GetToolsetRequest{
		"no format":     {},
		"bad format":    {Format: 99},
		"bad mode":      {Format: toolsearch.FormatMCP, DeferredMode: 99},
		"bad threshold": {Format: toolsearch.FormatMCP, DeferralThreshold: -1},
		"bad pattern":   {Format: toolsearch.FormatMCP, AlwaysLoaded: []string{"a*b"}},
		"long session":  {Format: toolsearch.FormatMCP, SessionId: strings.Repeat("x", 300)},
	} {
		if _, err := raw.GetToolset(ctx(t), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: err = %v, want InvalidArgument", name, err)
		}
	}
	if _, err := raw.ResetSession(ctx(t), &toolsearchv1.ResetSessionRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("ResetSession(\"\"): err = %v, want InvalidArgument", err)
	}
	resp, err := raw.ResetSession(ctx(t), &toolsearchv1.ResetSessionRequest{SessionId: "never-seen"})
	if err != nil || resp.GetExisted() {
		t.Errorf("ResetSession(unknown) = %v, %v; want existed=false", resp, err)
	}
	// A small catalog under the default threshold is sent whole.
	ts, err := raw.GetToolset(ctx(t), &toolsearchv1.GetToolsetRequest{Format: toolsearch.FormatAnthropic})
	if err != nil {
		t.Fatal(err)
	}
	if ts.GetDeferring() || len(ts.GetLoadedTools()) != 8 || ts.GetSystemPrompt() != "" {
		t.Errorf("8-tool catalog: deferring=%v loaded=%d prompt=%q", ts.GetDeferring(), len(ts.GetLoadedTools()), ts.GetSystemPrompt())
	}
}

// A three-turn agent loop with a scripted model, against an in-process
// sidecar (bufconn: no network). The tool list grows by appending: each
// turn's list starts with the last one.
func Example_agentLoop() {
	// An in-process sidecar over the test catalog.
	lis := bufconn.Listen(1 << 20)
	srv := server.New(server.Config{Log: discardLogger()})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Shutdown(context.Background())
	tools, err := catalog.Load(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		log.Fatal(err)
	}
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		log.Fatal(err)
	}
	engine, err := search.New(snap, search.Config{})
	if err != nil {
		log.Fatal(err)
	}
	srv.Ready(engine)
	conn, err := grpc.NewClient("passthrough:///sidecar",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	agent := toolsearch.NewAgent(toolsearch.NewFromConn(conn), toolsearch.WithDeferralThreshold(1))
	ctx := context.Background()
	const session = "conversation-1"
	model := []string{ // what the scripted model answers on each turn
		`{"query":"send a message to a slack channel","max_results":1}`,
		`{"query":"select:weather__get_forecast"}`,
		``, // a loaded tool, not tool_search
	}
	for turn, call := range model {
		ts, err := agent.Tools(ctx, session, toolsearch.FormatAnthropic)
		if err != nil {
			log.Fatal(err)
		}
		var tools []struct{ Name string }
		_ = json.Unmarshal(ts.Tools, &tools)
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		fmt.Printf("turn %d sends %v\n", turn+1, names)
		if call == "" {
			break
		}
		result, err := agent.HandleToolCall(ctx, session, call)
		if err != nil {
			log.Fatal(err)
		}
		var r struct {
			Refs []struct {
				Name string `json:"tool_name"`
			} `json:"tool_references"`
		}
		_ = json.Unmarshal([]byte(result), &r)
		fmt.Printf("  tool_search(%s) found %v\n", call, r.Refs)
	}
	// Output:
	// turn 1 sends [tool_search]
	//   tool_search({"query":"send a message to a slack channel","max_results":1}) found [{slack__send_message}]
	// turn 2 sends [tool_search slack__send_message]
	//   tool_search({"query":"select:weather__get_forecast"}) found [{weather__get_forecast}]
	// turn 3 sends [tool_search slack__send_message weather__get_forecast]
}
