package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
)

// startLearningSidecar runs the sidecar with args on the example catalog until
// the returned stop is called (graceful shutdown, exit code checked).
func startLearningSidecar(t *testing.T, args ...string) (c *toolsearch.Client, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	var stderr logbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", ""}, args...), env(map[string]string{"TOOLSEARCH_CATALOG": "../../examples/catalog.json"}), &stderr, hooks{ready: ready})
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case code := <-done:
		cancel()
		t.Fatalf("sidecar exited with %d before serving: %s", code, stderr.String())
	}
	c, err := toolsearch.Dial(addr.String(), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	return c, func() {
		c.Close()
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d; log: %s", code, stderr.String())
		}
	}
}

// What a sidecar learned survives its restart (saved in --cache-dir at
// shutdown) and reaches another sidecar through --learn-from.
func TestLearningSurvivesRestartAndSharesWithAFleet(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c, stop := startLearningSidecar(t, "--learn", "--cache-dir", dir)
	if _, err := c.Search(ctx, "post to the team channel", toolsearch.WithSessionID("s"), toolsearch.WithMaxResults(10)); err != nil {
		t.Fatal(err)
	}
	rep, err := c.ReportToolUse(ctx, "s", "slack__send_message", toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS)
	if err != nil || !rep.GetRecorded() {
		t.Fatalf("ReportToolUse = %v, %v", rep, err)
	}
	stop()
	path := filepath.Join(dir, learn.FileName)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no learned state saved at shutdown: %v", err)
	}

	for name, args := range map[string][]string{
		"restart":      {"--learn", "--cache-dir", dir},
		"--learn-from": {"--learn", "--learn-from", path, "--learn-pull-interval", time.Hour.String()},
	} {
		t.Run(name, func(t *testing.T) {
			c, stop := startLearningSidecar(t, args...)
			defer stop()
			got, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: "slack__send_message"})
			if err != nil {
				t.Fatal(err)
			}
			if q := got.GetTools()[0].GetQueries(); len(q) != 1 || q[0].GetQuery() != "post to the team channel" {
				t.Errorf("learned queries = %v", q)
			}
		})
	}
}
