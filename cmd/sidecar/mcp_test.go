package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
)

// mcpServersDir is where `make mcp-servers` installs the npm reference
// servers; the test fails under CI=true when they are missing.
func mcpServersDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../source/mcp/testdata/servers")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything")); err != nil {
		testenv.SkipOrFail(t, "npm reference MCP servers missing (run: make mcp-servers): %v", err)
	}
	return dir
}

// mcpStatusOf reads one server's status from GET /statusz.
func mcpStatusOf(t *testing.T, r *running, name string) map[string]any {
	t.Helper()
	code, body := r.get(t, "/statusz")
	if code != 200 {
		t.Fatalf("/statusz: %d %s", code, body)
	}
	var st struct {
		Servers []map[string]any `json:"mcp_servers"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("/statusz: %v: %s", err, body)
	}
	for _, s := range st.Servers {
		if s["name"] == name {
			return s
		}
	}
	t.Fatalf("/statusz has no %s: %s", name, body)
	return nil
}

// TestMCPEverythingBar is the bar: with
// --mcp everything='npx -y @modelcontextprotocol/server-everything' (run
// from the project's installed copy: npx finds it from the working
// directory), list --server everything shows its tools and a search by
// meaning returns one first; after its tools/list_changed the index
// follows with no tool embedded twice; killing the server leaves searches
// answering, and it comes back.
func TestMCPEverythingBar(t *testing.T) {
	dir := mcpServersDir(t)
	catalogPath, err := filepath.Abs("../../examples/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{stderr: &logbuf.Buffer{}, cancel: cancel, done: make(chan int, 1)}
	ready := make(chan net.Addr, 1)
	args := []string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--catalog", catalogPath,
		"--mcp", "everything=npx -y @modelcontextprotocol/server-everything", "--mcp-grace-period", "1m"}
	start := time.Now()
	go func() { r.done <- run(ctx, args, env(nil), r.stderr, hooks{ready: ready}) }()
	select {
	case a := <-ready:
		r.addr = a.String()
	case code := <-r.done:
		t.Fatalf("sidecar exited with %d:\n%s", code, r.stderr.String())
	case <-time.After(testenv.HangGuard(t)):
		cancel()
		t.Fatalf("sidecar not serving (hang guard):\n%s", r.stderr.String())
	}
	t.Logf("serving with everything listed after %v", time.Since(start))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sidecar log:\n%s", r.stderr.String())
		}
	})
	if m := metricsAddrRE.FindStringSubmatch(r.stderr.String()); m != nil {
		r.metricsAddr = m[1]
	}
	defer func() {
		if code := r.stop(t); code != 0 {
			t.Errorf("exit code %d:\n%s", code, r.stderr.String())
		}
	}()
	c := r.dial(t)
	// Readiness waits at most --mcp-timeout for the server; on a loaded
	// machine npx may take longer, and its tools arrive when it answers.
	testenv.WaitFor(t, "everything up", func() bool { return mcpStatusOf(t, r, "everything")["state"] == "up" })

	// list --server everything
	list, err := c.ListTools(ctx, "everything", "", 500)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetTools()) < 10 {
		t.Fatalf("list --server everything: %d tools", len(list.GetTools()))
	}
	for _, tl := range list.GetTools() {
		if !strings.HasPrefix(tl.GetName(), "everything__") {
			t.Errorf("list --server everything has %s", tl.GetName())
		}
	}
	// The same with the real command-line tool: toolsearch list --server everything.
	out, err := exec.Command("go", "run", "github.com/toolsearch/toolsearch/cmd/toolsearch",
		"list", "--server", "everything", "--page-size", "500", "--addr", r.addr).CombinedOutput()
	if err != nil || strings.Count(string(out), "everything__") != len(list.GetTools()) || !strings.Contains(string(out), "everything__echo") {
		t.Errorf("toolsearch list --server everything: %v\n%s", err, out)
	}
	// A search by meaning returns one of its tools first.
	resp, err := c.Search(ctx, "add two numbers and return the sum")
	if err != nil {
		t.Fatal(err)
	}
	if refs := resp.GetToolReferences(); len(refs) == 0 || refs[0].GetToolName() != "everything__get-sum" {
		t.Errorf("search: %v, want everything__get-sum first", refs)
	}
	// Title, annotations and output schema reach get.
	tools, err := c.GetTools(ctx, "everything__get-structured-content")
	if err != nil {
		t.Fatal(err)
	}
	if tl := tools[0]; tl.GetTitle() == "" || !strings.Contains(tl.GetOutputSchema(), "temperature") || tl.GetAnnotations() == "" {
		t.Errorf("everything__get-structured-content = %v: want its title, output schema and annotations", tl)
	}

	// tools/list_changed (everything sends it for the tools it registers
	// after initialization) is followed; no tool is embedded twice.
	testenv.WaitFor(t, "list_changed followed", func() bool {
		return strings.Contains(r.stderr.String(), "mcp server tools changed: catalog follows")
	})
	testenv.WaitFor(t, "index ready", func() bool {
		info, err := c.CatalogInfo(ctx)
		return err == nil && info.GetIndexState() == toolsearchv1.IndexState_INDEX_STATE_READY && info.GetIndexedTools() == info.GetToolCount()
	})
	info, _ := c.CatalogInfo(ctx)
	_, metrics := r.get(t, "/metrics")
	if texts := sample(t, metrics, `toolsearch_embedder_batch_size_sum{kind="document"}`); int(texts) != int(info.GetToolCount()) {
		t.Errorf("embedded %v document texts for %d tools: some were embedded twice", texts, info.GetToolCount())
	}
	if up := sample(t, metrics, `toolsearch_mcp_server_up{server="everything"}`); up != 1 {
		t.Errorf("toolsearch_mcp_server_up = %v", up)
	}
	if n := sample(t, metrics, `toolsearch_mcp_server_tools{server="everything"}`); int(n) != len(list.GetTools()) && n < 10 {
		t.Errorf("toolsearch_mcp_server_tools = %v", n)
	}

	// Kill the server (its whole process group: npx and node) mid-search.
	st := mcpStatusOf(t, r, "everything")
	pid := int(st["pid"].(float64))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var searches, failures int
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			resp, err := c.Search(ctx, "echo back a message", toolsearch.WithMaxResults(3))
			searches++
			if err != nil || len(resp.GetToolReferences()) == 0 {
				failures++
			}
		}
	})
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, "everything down", func() bool { return mcpStatusOf(t, r, "everything")["state"] == "down" })
	testenv.WaitFor(t, "everything restarted", func() bool {
		st := mcpStatusOf(t, r, "everything")
		return st["state"] == "up" && st["pid"] != nil && int(st["pid"].(float64)) != pid
	})
	close(stop)
	wg.Wait()
	if failures > 0 || searches == 0 {
		t.Errorf("%d of %d searches failed while the server was killed and restarted", failures, searches)
	}
	if list2, err := c.ListTools(ctx, "everything", "", 500); err != nil || len(list2.GetTools()) != len(list.GetTools()) {
		t.Errorf("after the restart: %d tools, %v; want %d", len(list2.GetTools()), err, len(list.GetTools()))
	}
	_, metrics = r.get(t, "/metrics")
	if n := sample(t, metrics, `toolsearch_mcp_reconnects_total{server="everything"}`); n != 1 {
		t.Errorf("toolsearch_mcp_reconnects_total = %v, want 1", n)
	}

	// Shutdown stops the server's whole process group.
	pid = int(mcpStatusOf(t, r, "everything")["pid"].(float64))
	if code := r.stop(t); code != 0 {
		t.Errorf("exit code %d", code)
	}
	testenv.WaitFor(t, "no child left", func() bool { return syscall.Kill(-pid, 0) != nil })
}

func TestMCPFlags(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("t0k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(dir, "mcp.yaml")
	if err := os.WriteFile(yaml, []byte("servers:\n  - name: fromfile\n    command: [node, s.js]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr logbuf.Buffer
	cfg, err := parseConfig([]string{"--mcp", "a=X=1 npx -y pkg", "--mcp", "r=https://h.example/mcp",
		"--mcp-bearer-token-file", "r=" + token, "--mcp-config", yaml},
		env(map[string]string{"TOOLSEARCH_MCP": "ignored=x"}), &stderr)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.mcpServers {
		got = append(got, s.Name+":"+strings.Join(s.Command, " ")+s.URL+":"+strings.Join(s.Env, ",")+":"+s.BearerTokenFile)
	}
	want := []string{"a:npx -y pkg:X=1:", "r:https://h.example/mcp::" + token, "fromfile:node s.js::"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("servers = %q, want %q", got, want)
	}
	cfg, err = parseConfig(nil, env(map[string]string{"TOOLSEARCH_MCP": "a=cmd one;b=https://h/mcp\nc=cmd two"}), &stderr)
	if err != nil || len(cfg.mcpServers) != 3 {
		t.Errorf("TOOLSEARCH_MCP: %d servers, %v", len(cfg.mcpServers), err)
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"--mcp", "a=x", "--mcp", "a=y"}, "configured twice"},
		{[]string{"--mcp", "a=x", "--mcp-bearer-token-file", "a=" + token}, "are for HTTP servers"},
		{[]string{"--mcp", "a=x", "--mcp-env", "b=" + token}, `no MCP server is named "b"`},
		{[]string{"--mcp", "gh=x", "--catalog", "gh=tools.json"}, "share the namespace"},
		{[]string{"--mcp", "a__b=x"}, "namespace separator"},
		{[]string{"--mcp-config", filepath.Join(dir, "none.yaml")}, "no such file"},
		{[]string{"--mcp", "a=x", "--mcp-timeout", "0s"}, "--mcp-timeout"},
	}
	for _, b := range bad {
		if _, err := parseConfig(b.args, env(nil), &stderr); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("parseConfig(%q) = %v, want an error containing %q", b.args, err, b.want)
		}
	}
}
