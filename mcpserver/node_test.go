package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/mcpserver"
	"go.uber.org/goleak"
)

// stdioChildEnv makes the test binary serve the endpoint on stdio (with the
// test catalog and the go-sdk upstream) instead of running tests: the
// TypeScript client of TestNodeClient launches it as an MCP host launches a
// server process.
const stdioChildEnv = "TOOLSEARCH_MCPSERVER_TEST_STDIO"

func TestMain(m *testing.M) {
	if os.Getenv(stdioChildEnv) == "1" {
		if err := serveStdio(); err != nil {
			fmt.Fprintln(os.Stderr, "stdio child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// serveStdio serves one session on stdin/stdout until the client leaves.
func serveStdio() error {
	uc, upTools, closeAll, err := dialUpstream(newEvents())
	if err != nil {
		return err
	}
	defer closeAll()
	engine, err := newEngine(upTools)
	if err != nil {
		return err
	}
	defer engine.Close()
	srv, err := mcpserver.New(mcpserver.Config{Engine: engine, Caller: uc, DeferralThreshold: 1,
		Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	defer srv.Close()
	return srv.Run(context.Background(), &mcp.StdioTransport{})
}

// clientDir holds the Node client (package.json, flow.mjs); `make
// mcp-client-test` installs its locked dependencies with npm ci.
const clientDir = "testdata/client"

// TestNodeClient runs the official TypeScript SDK client (flow.mjs) against
// the endpoint over streamable HTTP and over stdio: list, search,
// list_changed, list again, call through, refused unrevealed call. Without
// node or the installed client it skips, and fails when CI=true.
func TestNodeClient(t *testing.T) {
	flow := map[string]any{
		"query":      "echo a message back",
		"expectTool": "up__echo",
		"call":       map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "from node"}, "expectText": "Echo: from node"},
		"unrevealed": "up__fail",
	}
	run := func(t *testing.T, extra map[string]any) {
		cfg := map[string]any{}
		for k, v := range flow {
			cfg[k] = v
		}
		for k, v := range extra {
			cfg[k] = v
		}
		runFlow(t, cfg)
	}
	t.Run("http", func(t *testing.T) {
		f := start(t, mcpserver.Config{DeferralThreshold: 1})
		run(t, map[string]any{
			"url":          f.url,
			"headers":      http.Header{mcpserver.HeaderAlwaysLoaded: {"weather__get_current"}},
			"alwaysLoaded": []string{"weather__get_current"},
		})
	})
	t.Run("stdio", func(t *testing.T) {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		run(t, map[string]any{"command": exe, "cwd": wd, "env": map[string]string{stdioChildEnv: "1"}})
	})
}

// runFlow runs flow.mjs with cfg. Without node or the installed client it
// skips, and fails when CI=true.
func runFlow(t *testing.T, cfg map[string]any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		msg := fmt.Sprintf("node or the TypeScript client is missing (%v); run `make mcp-client`", err)
		testenv.SkipOrFail(t, "%s", msg)
	}
	arg, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "flow.mjs", string(arg))
	cmd.Dir = clientDir
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("flow.mjs: %v", err)
	}
}
