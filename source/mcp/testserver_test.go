package mcp_test

// Small MCP servers written with the official Go SDK, for the tests. The
// test binary runs as one of them when TOOLSEARCH_MCP_TEST_SERVER names it
// (TestMain), so the manager starts them as real child processes over
// stdio; httpServer serves one over streamable HTTP on loopback.

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	source "github.com/toolsearch/toolsearch/source/mcp"
	"go.uber.org/goleak"
)

// Environment of a test server process.
const (
	envKind      = "TOOLSEARCH_MCP_TEST_SERVER"     // many | dynamic | garbage | meta
	envTools     = "TOOLSEARCH_MCP_TEST_TOOLS"      // many: how many tools; dynamic: how many filler tools
	envFailFile  = "TOOLSEARCH_MCP_TEST_FAIL_FILE"  // exit at start while this file exists
	envChildFile = "TOOLSEARCH_MCP_TEST_CHILD_FILE" // start a grandchild (sleep) and write its pid here
)

func TestMain(m *testing.M) {
	if kind := os.Getenv(envKind); kind != "" {
		if err := runTestServer(kind); err != nil {
			log.Fatalf("test server %s: %v", kind, err)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m) // fails the tests if a goroutine outlives them
}

// runTestServer serves one test server on stdio until stdin closes.
func runTestServer(kind string) error {
	if f := os.Getenv(envFailFile); f != "" {
		if _, err := os.Stat(f); err == nil {
			return fmt.Errorf("%s exists: failing on purpose", f)
		}
	}
	if f := os.Getenv(envChildFile); f != "" {
		child := exec.Command("sleep", "600")
		if err := child.Start(); err != nil {
			return err
		}
		if err := os.WriteFile(f, []byte(strconv.Itoa(child.Process.Pid)), 0o600); err != nil {
			return err
		}
	}
	n, _ := strconv.Atoi(os.Getenv(envTools))
	return newTestServer(kind, n).Run(context.Background(), &mcp.StdioTransport{})
}

// newTestServer builds a test server:
//
//   - many: n tools (1,000 by default), 100 per tools/list page;
//   - dynamic: a few real-looking tools and control tools that change the
//     tool list (add_tool, remove_tool, describe: the SDK sends
//     tools/list_changed), report the pid, and count with progress;
//   - dynamic2026: dynamic, speaking only MCP 2026-07-28;
//   - garbage: one valid tool and tools with an invalid name, a 1 MB
//     description and a duplicate name (a middleware in front of the
//     server's tools/list injects the duplicate: the SDK would not list one).
func newTestServer(kind string, n int) *mcp.Server {
	switch kind {
	case "many":
		if n == 0 {
			n = 1000
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{PageSize: 100})
		for i := range n {
			s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%04d", i), Description: fmt.Sprintf("Tool number %d of many: it handles record %d.", i, i),
				InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)}, echoHandler)
		}
		return s
	case "dynamic2026":
		// The dynamic server speaking only MCP 2026-07-28 (stateless:
		// server/discover, no initialize).
		return dynamicServerWith(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2026-07-28"}})
	case "dynamic":
		s := dynamicServer()
		for i := range n { // filler tools, for re-list measurements at size
			s.AddTool(&mcp.Tool{Name: fmt.Sprintf("filler_%04d", i), Description: fmt.Sprintf("Filler tool %d: it handles record %d.", i, i),
				InputSchema: json.RawMessage(`{"type":"object"}`)}, echoHandler)
		}
		return s
	case "meta":
		// One tool that answers with the _meta of its call, as JSON.
		s := mcp.NewServer(&mcp.Implementation{Name: "meta", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "meta", Description: "Test control: the _meta of this call.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				b, err := json.Marshal(req.Params.Meta)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, err
			})
		return s
	case "garbage":
		s := mcp.NewServer(&mcp.Implementation{Name: "garbage", Version: "1"}, nil)
		obj := json.RawMessage(`{"type":"object"}`)
		s.AddTool(&mcp.Tool{Name: "fine_tool", Description: "A valid tool that reads the weather.", InputSchema: obj}, echoHandler)
		s.AddTool(&mcp.Tool{Name: "has space", Description: "Invalid name.", InputSchema: obj}, echoHandler)
		s.AddTool(&mcp.Tool{Name: "huge", Description: strings.Repeat("x", 1<<20), InputSchema: obj}, echoHandler)
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					lr.Tools = append(lr.Tools, &mcp.Tool{Name: "fine_tool", Description: "A duplicate.", InputSchema: obj})
				}
				return res, err
			}
		})
		return s
	}
	panic("unknown test server " + kind)
}

func echoHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
}

// dynamicTools are the dynamic server's searchable tools.
var dynamicTools = map[string]string{
	"get_weather":   "Get the current weather forecast for a city: temperature, rain and wind.",
	"send_email":    "Send an email message to a recipient with a subject and a body.",
	"create_ticket": "Create a support ticket in the issue tracker.",
}

func dynamicServer() *mcp.Server {
	return dynamicServerWith(&mcp.ServerOptions{Instructions: dynamicInstructions})
}

// dynamicInstructions are the dynamic server's initialize instructions,
// which the manager reports as its description.
const dynamicInstructions = "Weather, email and tickets, for tests."

// dynamicServerWith is dynamicServer with server options.
func dynamicServerWith(opts *mcp.ServerOptions) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "dynamic", Version: "1"}, opts)
	obj := json.RawMessage(`{"type":"object"}`)
	for name, desc := range dynamicTools {
		s.AddTool(&mcp.Tool{Name: name, Title: strings.ToUpper(name[:1]) + name[1:], Description: desc, InputSchema: obj,
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true}}, echoHandler)
	}
	type nameDesc struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	args := func(req *mcp.CallToolRequest) (nameDesc, error) {
		var a nameDesc
		err := json.Unmarshal(req.Params.Arguments, &a)
		return a, err
	}
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	s.AddTool(&mcp.Tool{Name: "add_tool", Description: "Test control: add a tool.", InputSchema: obj},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, err := args(req)
			if err != nil {
				return nil, err
			}
			s.AddTool(&mcp.Tool{Name: a.Name, Description: a.Description, InputSchema: obj}, echoHandler)
			return text("added " + a.Name), nil
		})
	s.AddTool(&mcp.Tool{Name: "remove_tool", Description: "Test control: remove a tool.", InputSchema: obj},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, err := args(req)
			if err != nil {
				return nil, err
			}
			s.RemoveTools(a.Name)
			return text("removed " + a.Name), nil
		})
	s.AddTool(&mcp.Tool{Name: "pid", Description: "Test control: the server's process id.", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(strconv.Itoa(os.Getpid())), nil
		})
	s.AddTool(&mcp.Tool{Name: "count", Description: "Test control: count to n with progress, then wait for cancellation if wait is set.", InputSchema: obj},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				N    int  `json:"n"`
				Wait bool `json:"wait"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			for i := 1; i <= a.N; i++ {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: float64(a.N)}); err != nil {
					return nil, err
				}
			}
			if a.Wait {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(time.Minute):
				}
			}
			return text(strconv.Itoa(a.N)), nil
		})
	return s
}

// selfServer configures a test server run as a child process of this test
// binary.
func selfServer(name, kind string, env ...string) source.ServerConfig {
	return source.ServerConfig{Name: name, Command: []string{os.Args[0]}, Env: append([]string{envKind + "=" + kind}, env...)}
}

// httpServer serves a test server over streamable HTTP on loopback; check,
// when not nil, sees every request first and may refuse it.
func httpServer(t *testing.T, s *mcp.Server, check func(*http.Request) error) string {
	t.Helper()
	return serveHTTP(t, s, &mcp.StreamableHTTPOptions{JSONResponse: true}, check)
}

// serveHTTP is httpServer with the handler's options.
func serveHTTP(t *testing.T, s *mcp.Server, opts *mcp.StreamableHTTPOptions, check func(*http.Request) error) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if check != nil {
			if err := check(r); err != nil {
				http.Error(w, err.Error(), http.StatusUnauthorized)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

type jsonRawMessage = json.RawMessage
