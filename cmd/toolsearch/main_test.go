package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
)

const (
	exampleCatalog  = "../../examples/catalog.json"
	exampleQueries  = "../../search/testdata/eval/example/queries.jsonl"
	exampleNoAnswer = "../../evaluation/testdata/noanswer/example.jsonl"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEvalJSON(t *testing.T) {
	for _, typ := range []string{"default", "keyword", "regex", "semantic"} {
		t.Run(typ, func(t *testing.T) {
			code, out, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--no-answer", exampleNoAnswer, "--type", typ, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := decodeObject(t, out, []string{"fallback_rate", "mrr", "ndcg@10", "no_answer_flagged", "no_answer_queries", "no_confident_rate", "p50_ms", "p99_ms", "queries", "recall@1", "recall@10", "recall@5"})
			if got["no_answer_queries"] != 50.0 {
				t.Errorf("no_answer_queries = %v, want 50", got["no_answer_queries"])
			}
			if flagged, _ := got["no_answer_flagged"].(float64); flagged < 0.3 {
				t.Errorf("no_answer_flagged = %v: queries no tool serves are not flagged", got["no_answer_flagged"])
			}
			if got["queries"] != 36.0 {
				t.Errorf("queries = %v, want 36", got["queries"])
			}
			if ndcg, _ := got["ndcg@10"].(float64); typ != "regex" && ndcg < 0.5 {
				t.Errorf("ndcg@10 = %v on the example catalog: the engine ranks poorly", got["ndcg@10"])
			}
		})
	}
}

func TestEvalTable(t *testing.T) {
	code, out, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--embedder", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"recall@1", "ndcg@10", "fallback rate", "no-confident", "p99"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"eval", "--catalog", exampleCatalog}, 2, "--queries is required"},
		{[]string{"eval", "--queries", exampleQueries}, 2, "give --catalog"},
		{[]string{"eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--type", "vector"}, 2, "--type"},
		{[]string{"eval", "--catalog", "nope.json", "--queries", exampleQueries}, 1, "nope.json"},
		{[]string{"get"}, 2, "tool names"},
		{[]string{"search", "--bogus"}, 2, "bogus"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want %d containing %q", code, stderr, tt.code, tt.msg)
			}
		})
	}
}

// TestRemoteCommands runs search, list, get and eval --addr against a real
// server on loopback.
func TestRemoteCommands(t *testing.T) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: exampleCatalog})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	addr := servertest.Start(t, e)

	code, out, stderr := runCmd(t, "search", "--addr", addr, "--json", "send a slack message")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, stderr)
	}
	var rendered struct {
		ToolReferences []struct {
			ToolName string `json:"tool_name"`
		} `json:"tool_references"`
		SearchMetadata struct {
			SearchType string `json:"search_type"`
		} `json:"search_metadata"`
	}
	if err := json.Unmarshal([]byte(out), &rendered); err != nil || len(rendered.ToolReferences) == 0 || rendered.ToolReferences[0].ToolName != "slack__send_message" {
		t.Errorf("search --json = %s (%v), want slack__send_message first", out, err)
	}
	code, out, _ = runCmd(t, "search", "--addr", addr, "--type", "regex", "--debug", "^git__")
	if code != 0 || !strings.Contains(out, "git__commit") || !strings.Contains(out, "regex") {
		t.Errorf("search --type regex: exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "list", "--addr", addr, "--server", "weather")
	if code != 0 || !strings.Contains(out, "weather__get_forecast") || !strings.Contains(out, "4 of 4 tools") {
		t.Errorf("list: exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "get", "--addr", addr, "git__commit")
	if code != 0 || !strings.Contains(out, `"input_schema"`) {
		t.Errorf("get: exit %d:\n%s", code, out)
	}
	code, _, stderr = runCmd(t, "get", "--addr", addr, "no_such_tool")
	if code != 1 || !strings.Contains(stderr, "no_such_tool") || strings.Contains(stderr, "rpc error") {
		t.Errorf("get unknown: exit %d, stderr %q; want the sidecar's message without gRPC's prefix", code, stderr)
	}
	code, out, stderr = runCmd(t, "eval", "--addr", addr, "--queries", exampleQueries, "--type", "keyword", "--json")
	if code != 0 || !strings.Contains(out, `"queries":36`) {
		t.Errorf("eval --addr: exit %d, %s %s", code, out, stderr)
	}
}

// TestRemoteToken: the commands reach a sidecar started with
// --auth-token-file through --token or --token-file, and without a token
// they say how to give one.
func TestRemoteToken(t *testing.T) {
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: exampleCatalog})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	const token = "s3cret-token-0123456789"
	srv := server.New(server.Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), AuthToken: token})
	srv.Ready(e)
	addr := servertest.Serve(t, srv)
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no token", nil, 1, "give it with --token-file FILE"},
		{"wrong token", []string{"--token", "wrong-token-0123456789"}, 1, "--token-file"},
		{"--token", []string{"--token", token}, 0, "slack__send_message"},
		{"--token-file", []string{"--token-file", file}, 0, "slack__send_message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCmd(t, append(append([]string{"search", "--addr", addr}, tc.args...), "send a slack message")...)
			if code != tc.code || !strings.Contains(out+stderr, tc.want) || strings.Contains(stderr, "rpc error") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d with %q", code, out, stderr, tc.code, tc.want)
			}
		})
	}
}
