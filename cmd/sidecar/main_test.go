package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The fleet tests share one PostgreSQL (pgtest), stopped after them.
	goleak.VerifyTestMain(pgtest.Runner{M: m})
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestSidecarServesExampleCatalog(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	var stderr logbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"}, env(map[string]string{"TOOLSEARCH_CATALOG": "../../examples/catalog.json"}), &stderr, hooks{ready: ready})
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case code := <-done:
		t.Fatalf("sidecar exited with %d before serving: %s", code, stderr.String())
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("sidecar not ready (hang guard)")
	}
	c, err := toolsearch.Dial(addr.String(), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := c.Health(ctx)
	if err != nil || !ok {
		t.Errorf("health = %v, %v; want SERVING", ok, err)
	}
	resp, err := c.Search(ctx, "send a slack message")
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetToolReferences()) == 0 {
		t.Error("no results for \"send a slack message\" on the example catalog")
	}
	c.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after shutdown, want 0; log: %s", code, stderr.String())
		}
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("sidecar did not stop")
	}
	log := stderr.String()
	for _, want := range []string{`"msg":"serving"`, `"msg":"stopped"`, `"graceful":true`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
}

func TestSidecarStartupErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		code     int
		contains []string
	}{
		{name: "malformed catalog", args: []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", "testdata/bad.jsonl"}, code: 1,
			contains: []string{"testdata/bad.jsonl", "line 2"}},
		{name: "missing catalog", args: []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", "testdata/nope.json"}, code: 1,
			contains: []string{"testdata/nope.json"}},
		{name: "bad env integer", env: map[string]string{"TOOLSEARCH_MAX_RESULTS_CAP": "ten"}, code: 2,
			contains: []string{"TOOLSEARCH_MAX_RESULTS_CAP"}},
		{name: "cap out of range", args: []string{"--max-results-cap", "0"}, code: 2, contains: []string{"--max-results-cap"}},
		{name: "bad log level", args: []string{"--log-level", "loud"}, code: 2, contains: []string{"--log-level"}},
		{name: "bad log-queries", args: []string{"--log-queries", "sometimes"}, code: 2, contains: []string{"--log-queries", "prefix", "hash", "off"}},
		{name: "stray argument", args: []string{"catalog.json"}, code: 2, contains: []string{"--catalog"}},
		{name: "busy port", args: []string{"--listen", "256.0.0.1:1", "--metrics-listen", ""}, code: 1, contains: []string{"listen on 256.0.0.1:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr logbuf.Buffer
			code := run(context.Background(), tt.args, env(tt.env), &stderr, hooks{})
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			for _, want := range tt.contains {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
		})
	}
}

func TestHelpDocumentsEveryFlagAndVariable(t *testing.T) {
	var stderr logbuf.Buffer
	if code := run(context.Background(), []string{"--help"}, env(nil), &stderr, hooks{}); code != 0 {
		t.Fatalf("--help exit code %d", code)
	}
	help := stderr.String()
	var flags []string
	for _, line := range strings.Split(help, "\n") {
		if name, ok := strings.CutPrefix(line, "  --"); ok {
			flags = append(flags, strings.Fields(name)[0])
		}
	}
	for _, want := range []string{"listen", "catalog", "log-format", "log-level", "max-results-cap", "shutdown-timeout", "embedder", "ollama-host", "ollama-model", "cache-dir", "query-timeout", "max-sessions", "session-ttl",
		"log-queries", "metrics-listen", "max-message-size", "max-query-length", "max-tools", "memory-limit", "request-timeout", "max-concurrent-streams", "keepalive-min-time", "keepalive-time",
		"tls-cert", "tls-key", "tls-client-ca", "auth-token-file"} {
		if !slices.Contains(flags, want) {
			t.Errorf("--help lacks -%s", want)
		}
	}
	for _, f := range flags {
		if !strings.Contains(help, "env "+envName(f)) {
			t.Errorf("--help does not name %s for -%s", envName(f), f)
		}
	}
}

func TestEnvironmentDefaults(t *testing.T) {
	cfg, err := parseConfig([]string{"--catalog", "b.json"}, env(map[string]string{
		"TOOLSEARCH_LISTEN":          "127.0.0.1:6000",
		"TOOLSEARCH_CATALOG":         "a.json,gh=c.json",
		"TOOLSEARCH_MAX_RESULTS_CAP": "7",
		"TOOLSEARCH_LOG_FORMAT":      "text",
	}), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.listen != "127.0.0.1:6000" || cfg.maxResultsCap != 7 || cfg.logFormat != "text" {
		t.Errorf("config = %+v, want values from the environment", cfg)
	}
	if len(cfg.catalogs) != 1 || cfg.catalogs[0] != "b.json" {
		t.Errorf("catalogs = %v, want the flag to replace the environment's list", cfg.catalogs)
	}
	cfg, err = parseConfig(nil, env(map[string]string{"TOOLSEARCH_CATALOG": "a.json, gh=c.json"}), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.catalogs) != 2 || cfg.catalogs[1] != "gh=c.json" {
		t.Errorf("catalogs = %v, want both entries of TOOLSEARCH_CATALOG", cfg.catalogs)
	}
}

// TestOperationsDocListsEveryFlag checks that docs/operations.md documents
// every flag of --help with its environment variable.
func TestOperationsDocListsEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	var stderr logbuf.Buffer
	if code := run(context.Background(), []string{"--help"}, env(nil), &stderr, hooks{}); code != 0 {
		t.Fatalf("--help exit code %d", code)
	}
	n := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		name, ok := strings.CutPrefix(line, "  --")
		if !ok {
			continue
		}
		flag := strings.Fields(name)[0]
		n++
		for _, want := range []string{"`--" + flag + "`", "`" + envName(flag) + "`"} {
			if !strings.Contains(string(doc), want) {
				t.Errorf("docs/operations.md does not mention %s", want)
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d flags in --help, want every flag", n)
	}
}

// TestReadyWhenSemantic: with --ready-when semantic, calls are answered
// (lexically) while the semantic index cannot be built, but health keeps
// saying NOT_SERVING, and responses say why in index_state.
func TestReadyWhenSemantic(t *testing.T) {
	// An address where nothing listens: the Ollama embedder never connects.
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	dead.Close()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr logbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--listen", addr, "--metrics-listen", "", "--embedder", "ollama", "--ollama-host", deadAddr, "--ready-when", "semantic"},
			env(map[string]string{"TOOLSEARCH_CATALOG": "../../examples/catalog.json"}), &stderr, hooks{})
	}()
	testenv.WaitFor(t, "the sidecar answering lexically", func() bool { return strings.Contains(stderr.String(), "answering lexically") })
	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok, err := c.Health(ctx); err != nil || ok {
		t.Errorf("health = %v, %v; want NOT_SERVING until the semantic index is ready", ok, err)
	}
	resp, err := c.Search(ctx, "send a slack message")
	if err != nil {
		t.Fatal(err)
	}
	md := resp.GetSearchMetadata()
	if len(resp.GetToolReferences()) == 0 || md.GetFallbackReason() == "" || md.GetIndexState() == toolsearchv1.IndexState_INDEX_STATE_READY {
		t.Errorf("search while not ready: %d results, fallback %q, index_state %v; want lexical results saying why",
			len(resp.GetToolReferences()), md.GetFallbackReason(), md.GetIndexState())
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d, want 0; log: %s", code, stderr.String())
		}
	case <-time.After(testenv.HangGuard(t)):
		t.Fatal("sidecar did not stop")
	}
}

// TestQuantizeFlag: --quantize picks the vector store; a value it does not
// know stops the start-up saying what to use.
func TestQuantizeFlag(t *testing.T) {
	cfg, err := parseConfig([]string{"--quantize", "int8"}, env(nil), &bytes.Buffer{})
	if err != nil || cfg.hnsw.Quantization.String() != "int8" {
		t.Fatalf("--quantize int8: %v, quantization %v", err, cfg.hnsw.Quantization)
	}
	if cfg, err = parseConfig(nil, env(nil), &bytes.Buffer{}); err != nil || cfg.hnsw.Quantization.String() != "none" {
		t.Fatalf("default: %v, quantization %v; want none", err, cfg.hnsw.Quantization)
	}
	if _, err := parseConfig([]string{"--quantize", "int4"}, env(nil), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "use none or int8") {
		t.Fatalf("--quantize int4: %v, want an error saying to use none or int8", err)
	}
}

// TestHelpGroupsEveryFlag: --help lists every flag under its group, as
// docs/operations.md does, and none under "other".
func TestHelpGroupsEveryFlag(t *testing.T) {
	var stderr logbuf.Buffer
	if code := run(context.Background(), []string{"--help"}, env(nil), &stderr, hooks{}); code != 0 {
		t.Fatalf("--help exit code %d", code)
	}
	help := stderr.String()
	if strings.Contains(help, "\nother:\n") {
		t.Errorf("--help lists flags under \"other\"; add them to flagGroups (usage.go):\n%s", help[strings.Index(help, "\nother:\n"):])
	}
	for _, g := range flagGroups {
		if !strings.Contains(help, "\n"+g.title+":\n") {
			t.Errorf("--help lacks the group %q", g.title)
		}
		for _, name := range g.flags {
			if !strings.Contains(help, "\n  --"+name+" ") && !strings.Contains(help, "\n  --"+name+"\n") {
				t.Errorf("group %q names --%s, which --help does not list", g.title, name)
			}
		}
	}
}

// TestUsageErrors: a mistyped flag is named with the closest one, without
// the whole usage; an error says where it happened once; --version prints
// the version.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--listn", "127.0.0.1:0"}, 2, "sidecar: unknown flag --listn; did you mean --listen?"},
		{[]string{"--max-tool", "3"}, 2, "did you mean --max-tools?"},
		{[]string{"-catalgo", "x.json"}, 2, "did you mean --catalog?"},
		{[]string{"--zzz"}, 2, "sidecar: unknown flag --zzz (sidecar --help lists every flag)"},
		{[]string{"--max-tools", "many"}, 2, `invalid value "many" for --max-tools`},
		{[]string{"--catalog", "/nonexistent/tools.json", "--listen", "127.0.0.1:0", "--metrics-listen", ""}, 1, "sidecar: load catalog: stat /nonexistent/tools.json"},
		{[]string{"--learn-pin-share", "0"}, 2, "--learn-pin-share 0: use a share in (0, 1)"},
		{[]string{"--learn-pin-share", "NaN"}, 2, "--learn-pin-share NaN: use a share in (0, 1)"},
		{[]string{"--learn-pin-share", "1"}, 2, "--learn-pin-share 1: use a share in (0, 1), e.g. 0.5 for half of a scope's sessions (a share of 1 is never shown with confidence)"},
		{[]string{"--learn-pin-min-sessions", "1"}, 2, "--learn-pin-min-sessions 1: use 2 to 1048576"},
		{[]string{"--learn-pin-min-sessions", "99999999999"}, 2, "--learn-pin-min-sessions 99999999999: use 2 to 1048576"},
		{[]string{"--learn", "--learn-from", "learned.jsonl", "--store", "postgres://127.0.0.1:1/x"}, 2, "--learn-from and --store: give one"},
		{[]string{"--version"}, 0, "sidecar dev\n"},
		{[]string{"--listen", "127.0.0.1:0", "-version"}, 0, "sidecar dev\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stderr logbuf.Buffer
			code := run(context.Background(), tc.args, env(nil), &stderr, hooks{})
			if code != tc.code || strings.Count(stderr.String(), tc.want) != 1 || strings.Contains(stderr.String(), "usage:") {
				t.Errorf("exit %d, stderr %q; want %d, %q once and no usage", code, stderr.String(), tc.code, tc.want)
			}
		})
	}
}
