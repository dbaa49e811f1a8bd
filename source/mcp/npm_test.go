package mcp_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	source "github.com/toolsearch/toolsearch/source/mcp"
)

// npmServers returns the folder of the reference servers installed by
// `make mcp-servers` (npm ci in testdata/servers). Without them the test
// is skipped, or fails under CI=true.
func npmServers(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "servers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bin := range []string{"mcp-server-everything", "mcp-server-memory", "mcp-server-filesystem"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", bin)); err != nil {
			testenv.SkipOrFail(t, "the npm reference MCP servers are not installed (run: make mcp-servers): %v", err)
		}
	}
	if _, err := exec.LookPath("npx"); err != nil {
		testenv.SkipOrFail(t, "npx not found: install Node.js")
	}
	return dir
}

// freePort returns a loopback TCP port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// everythingHTTP starts server-everything in its streamable HTTP mode and
// returns its endpoint once it listens.
func everythingHTTP(t *testing.T, dir string) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "mcp-server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	testenv.WaitFor(t, "server-everything listening on "+addr, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return "http://" + addr + "/mcp"
}

// TestReferenceServers reads the official reference servers: everything
// (stdio through npx, exactly as the sidecar's --mcp flag gives it, and
// streamable HTTP), memory and filesystem; finds their tools by meaning;
// and follows everything's tools/list_changed (it registers the tools that
// depend on the client's capabilities after initialization) without
// re-embedding a tool twice.
func TestReferenceServers(t *testing.T) {
	dir := npmServers(t)
	spec, err := source.ParseSpec("everything=npx -y @modelcontextprotocol/server-everything")
	if err != nil {
		t.Fatal(err)
	}
	spec.Dir = dir // npx runs the project's installed copy
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "notes.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, source.Config{Servers: []source.ServerConfig{
		spec,
		{Name: "memory", Command: []string{filepath.Join(dir, "node_modules", ".bin", "mcp-server-memory")},
			Env: []string{"MEMORY_FILE_PATH=" + filepath.Join(data, "memory.jsonl")}},
		{Name: "fs", Command: []string{filepath.Join(dir, "node_modules", ".bin", "mcp-server-filesystem"), data}},
		{Name: "everyhttp", URL: everythingHTTP(t, dir)},
	}, ListTimeout: time.Minute})
	for _, st := range f.m.Status() {
		if st.State != source.StateUp || st.Tools < 5 || st.InvalidTools != 0 {
			t.Errorf("status %+v: want up with its tools", st)
		}
	}
	// everything's list_changed: the conditional tools arrive.
	testenv.WaitFor(t, "everything re-listed after tools/list_changed", func() bool {
		return strings.Contains(f.logs.String(), "mcp server tools changed: catalog follows") &&
			f.has("everything__get-roots-list")
	})
	for _, st := range f.m.Status() {
		t.Logf("%s (%s): %d tools, listed in %d ms", st.Name, st.Server, st.Tools, st.ListMillis)
	}
	ctx := context.Background()
	if err := f.engine.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	if texts, tools := f.emb.Texts(), f.engine.Snapshot().Len(); texts != tools {
		t.Errorf("embedded %d texts for %d tools: unchanged tools were re-embedded", texts, tools)
	}
	queries := []struct{ query, server, want string }{
		{"add two numbers together", "everything", "everything__get-sum"},
		{"echo back the input message", "everything", "everything__echo"},
		{"create entities in a knowledge graph", "memory", "memory__create_entities"},
		{"list the contents of a directory", "fs", "fs__list_directory"},
	}
	for _, q := range queries {
		res, err := f.engine.Search(ctx, search.Request{Query: q.query, Category: q.server})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.References {
			got = append(got, r.Name)
		}
		if len(got) == 0 || got[0] != q.want {
			t.Errorf("search %q in %s = %v, want %s first", q.query, q.server, got, q.want)
		}
	}
	res, err := f.m.CallTool(ctx, "everything__get-sum", map[string]any{"a": 2, "b": 3}, nil)
	if err != nil || res.IsError {
		t.Fatalf("everything__get-sum = %+v, %v", res, err)
	}
	res, err = f.m.CallTool(ctx, "everyhttp__echo", map[string]any{"message": "hi"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("everyhttp__echo = %+v, %v", res, err)
	}
}
