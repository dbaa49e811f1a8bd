package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/servertest"
)

// TestLearnedCommand shows, exports and resets a real sidecar's learned
// state.
func TestLearnedCommand(t *testing.T) {
	ctx := context.Background()
	store := learn.NewStore(learn.Config{})
	addr, c := startLearningSidecar(t, search.LearnConfig{Store: store, Sync: true})
	if _, err := c.Search(ctx, "post to the team channel", toolsearch.WithSessionID("s"), toolsearch.WithMaxResults(10)); err != nil {
		t.Fatal(err)
	}
	if r, err := c.Raw().ReportToolUse(ctx, &toolsearchv1.ReportToolUseRequest{SessionId: "s", ToolName: "slack__send_message", Outcome: toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS}); err != nil || !r.GetRecorded() {
		t.Fatalf("ReportToolUse = %v, %v", r, err)
	}

	code, out, stderr := runCmd(t, "learned", "--addr", addr, "slack__send_message")
	if code != 0 || !strings.Contains(out, "slack__send_message") || !strings.Contains(out, "post to the team channel") {
		t.Errorf("learned TOOL: exit %d, %s\n%s", code, stderr, out)
	}
	code, out, _ = runCmd(t, "learned", "--addr", addr, "--export")
	var rec learn.Record
	if code != 0 || json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec) != nil || rec.Tool != "slack__send_message" {
		t.Errorf("learned --export: exit %d:\n%s", code, out)
	}
	if code, _, stderr = runCmd(t, "learned", "--addr", addr, "--reset"); code != 2 {
		t.Errorf("learned --reset without a tool: exit %d (%s), want 2", code, stderr)
	}
	code, out, _ = runCmd(t, "learned", "--addr", addr, "--reset", "slack__send_message")
	if code != 0 || !strings.Contains(out, "forgot what 1 tools learned") || store.View().Len() != 0 {
		t.Errorf("learned --reset TOOL: exit %d:\n%s", code, out)
	}
	if code, _, stderr = runCmd(t, "learned", "--addr", addr, "slack__send_message"); code != 1 || !strings.Contains(stderr, "has learned nothing") || strings.Contains(stderr, "rpc error") {
		t.Errorf("learned TOOL after reset: exit %d, %s; want the sidecar's not-found message", code, stderr)
	}
}

// eval --learn-from learns from one labelled file and evaluates another
// (here the same small file: learning what it is evaluated on must help).
func TestEvalLearnFrom(t *testing.T) {
	rep := evalReplay(t, "--catalog", exampleCatalog, "--queries", exampleQueries, "--learn-from", exampleQueries)
	if rep.Learned != 36 || rep.Recorded == 0 || rep.With.NDCG10 <= rep.Without.NDCG10 {
		t.Errorf("replay = %+v; want 36 learned queries and a gain", rep)
	}
	for _, naive := range []string{"recorded", "relevant"} {
		rep := evalReplay(t, "--catalog", exampleCatalog, "--queries", exampleQueries, "--learn-from", exampleQueries, "--naive", naive)
		if rep.Naive == nil || rep.Naive.Queries != 36 || rep.Naive.NDCG10 <= rep.Without.NDCG10 {
			t.Errorf("--naive %s: stand-in %+v; want 36 queries scored, better than without learning (%.3f)", naive, rep.Naive, rep.Without.NDCG10)
		}
	}
	trace := filepath.Join(t.TempDir(), "per-query.jsonl")
	if code, _, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--learn-from", exampleQueries, "--naive", "relevant", "--per-query", trace); code != 0 {
		t.Fatalf("--per-query: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 36 {
		t.Fatalf("--per-query wrote %d lines; want one per evaluated query (36)", len(lines))
	}
	var sum float64
	for _, l := range lines {
		var tr queryTrace
		if err := json.Unmarshal([]byte(l), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.ID == "" || tr.Naive == nil || len(tr.With.Top) == 0 || len(tr.With.Top) > traceDepth {
			t.Errorf("--per-query line %s; want an id, the naive outcome and 1..%d names", l, traceDepth)
		}
		sum += tr.With.NDCG10
	}
	if math.Abs(sum/36-rep.With.NDCG10) > 1e-9 {
		t.Errorf("--per-query: mean nDCG@10 with learning %.6f; the summary says %.6f", sum/36, rep.With.NDCG10)
	}
	if code, _, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--per-query", trace); code != 2 || !strings.Contains(stderr, "--per-query") {
		t.Errorf("--per-query without a replay: exit %d, %s; want a usage error", code, stderr)
	}
	// A bad --naive fails before the replay runs and before --per-query's
	// file is written; --naive needs a replay.
	if code, _, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--learn-from", exampleQueries, "--naive", "all", "--per-query", trace); code != 2 || !strings.Contains(stderr, "--naive") {
		t.Errorf("--naive all: exit %d, %s; want a usage error", code, stderr)
	}
	if after, err := os.ReadFile(trace); err != nil || !bytes.Equal(after, b) {
		t.Errorf("--naive all truncated or rewrote --per-query's file (%d bytes before, %d after, %v)", len(b), len(after), err)
	}
	if code, _, stderr := runCmd(t, "eval", "--catalog", exampleCatalog, "--queries", exampleQueries, "--naive", "relevant"); code != 2 || !strings.Contains(stderr, "--naive") {
		t.Errorf("--naive without a replay: exit %d, %s; want a usage error", code, stderr)
	}
	if code, _, stderr := runCmd(t, "eval", "--addr", "127.0.0.1:1", "--queries", exampleQueries, "--learn-from", exampleQueries); code != 2 || !strings.Contains(stderr, "in-process") {
		t.Errorf("--learn-from with --addr: exit %d, %s; want a usage error", code, stderr)
	}
}

// evalReplay runs eval with args (a replay: --split or --learn-from) and
// --json, and returns its report; a failed run fails the test.
func evalReplay(t *testing.T, args ...string) replayReport {
	t.Helper()
	code, out, stderr := runCmd(t, append(append([]string{"eval"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("eval %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	var rep replayReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestEvalReplay runs the replay evaluation of learning from use on a
// dev set: learning on one half must not lower nDCG@10 on the other.
func TestEvalReplay(t *testing.T) {
	tools, queries := evaltest.Bench(t, "livemcpbench/tools.jsonl"), evaltest.Bench(t, "livemcpbench/queries.jsonl")
	noAnswer := filepath.Join("..", "..", "evaluation", "testdata", "noanswer", "livemcpbench.jsonl")
	for _, half := range []string{"even", "odd"} {
		rep := evalReplay(t, "--catalog", tools, "--queries", queries, "--split", half, "--no-answer", noAnswer)
		if rep.Recorded == 0 || rep.LearnedTools == 0 {
			t.Errorf("split %s: nothing learned: %+v", half, rep)
		}
		if rep.With.NDCG10 < rep.Without.NDCG10-0.005 {
			t.Errorf("split %s: nDCG@10 %.4f with learning, %.4f without", half, rep.With.NDCG10, rep.Without.NDCG10)
		}
		// The no-answer queries are searched without and with learning.
		if rep.Without.NoAnswerQueries != 50 || rep.With.NoAnswerQueries != 50 || rep.Without.NoAnswerFlagged == 0 {
			t.Errorf("split %s: no-answer queries %d / %d, flagged %.2f / %.2f; want 50 each, some flagged",
				half, rep.Without.NoAnswerQueries, rep.With.NoAnswerQueries, rep.Without.NoAnswerFlagged, rep.With.NoAnswerFlagged)
		}
	}
	// A k-fold replay evaluates every query once over the K folds.
	evaluated := 0
	for f := range 3 {
		code, out, stderr := runCmd(t, "eval", "--catalog", tools, "--queries", queries, "--split", fmt.Sprintf("%d/3", f), "--json")
		if code != 0 {
			t.Fatalf("--split %d/3: exit %d: %s", f, code, stderr)
		}
		var rep replayReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		evaluated += rep.Without.Queries
		if rep.Learned+rep.Without.Queries != 47 {
			t.Errorf("--split %d/3: %d learned + %d evaluated queries; want the 47 of the set", f, rep.Learned, rep.Without.Queries)
		}
	}
	if evaluated != 47 {
		t.Errorf("--split F/3 evaluated %d queries over the three folds; want each of the 47 once", evaluated)
	}
	for _, bad := range []string{"half", "3/3", "1/1", "-1/2", "a/b"} {
		code, _, stderr := runCmd(t, "eval", "--catalog", tools, "--queries", queries, "--split", bad)
		if code != 2 || !strings.Contains(stderr, "--split") {
			t.Errorf("--split %s: exit %d, %s", bad, code, stderr)
		}
	}
}

// TestEvalParaphraseReplay pins the paraphrase replay loosely
// (evaluation/testdata/paraphrase, docs/benchmarks.md "Paraphrase
// replay"): learning from hand-written paraphrases of some dev queries must
// raise nDCG@10 of the original queries clearly on bfcl and livemcpbench
// (measured +0.17 and +0.29 when the test was written; the bar is +0.05),
// and must cost stabletoolbench's originals no more than 0.005.
func TestEvalParaphraseReplay(t *testing.T) {
	for _, tc := range []struct {
		set     string
		minGain float64
	}{{"bfcl", 0.05}, {"livemcpbench", 0.05}, {"stabletoolbench", -0.005}} {
		t.Run(tc.set, func(t *testing.T) {
			const dir = "../../evaluation/testdata/paraphrase/"
			rep := evalReplay(t, "--catalog", evaltest.Bench(t, tc.set+"/tools.jsonl"),
				"--queries", dir+tc.set+"-original.jsonl", "--learn-from", dir+tc.set+".jsonl")
			if rep.Learned == 0 || rep.Learned != rep.Without.Queries || rep.Recorded == 0 {
				t.Errorf("learned %d queries (%d uses recorded), evaluated %d; want as many evaluated as learned", rep.Learned, rep.Recorded, rep.Without.Queries)
			}
			if gain := rep.With.NDCG10 - rep.Without.NDCG10; gain < tc.minGain {
				t.Errorf("nDCG@10 %.4f without learning, %.4f with: gain %+.4f, want at least %+.3f", rep.Without.NDCG10, rep.With.NDCG10, gain, tc.minGain)
			}
		})
	}
}

// toolsearch learned shows what learning pinned (with the sidecar's
// --learn-pin), each tool's sessions out of its scope's, and the rule; the
// export carries the sessions, so a sidecar importing it pins the same.
func TestLearnedCommandPinned(t *testing.T) {
	ctx := context.Background()
	addr, c := startLearningSidecar(t, search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true, Pin: true})
	for i := range learn.DefaultPinMinSessions {
		s := fmt.Sprintf("s%d", i)
		if _, err := c.Search(ctx, "post to the team channel", toolsearch.WithSessionID(s), toolsearch.WithMaxResults(10)); err != nil {
			t.Fatal(err)
		}
		if r, err := c.Raw().ReportToolUse(ctx, &toolsearchv1.ReportToolUseRequest{SessionId: s, ToolName: "slack__send_message", Outcome: toolsearchv1.ToolUseOutcome_TOOL_USE_OUTCOME_SUCCESS}); err != nil || !r.GetRecorded() {
			t.Fatalf("ReportToolUse = %v, %v", r, err)
		}
	}
	code, out, stderr := runCmd(t, "learned", "--addr", addr)
	for _, want := range []string{
		"pinning: a tool used by at least 5 sessions, and by at least 50% of its scope's sessions with 90% confidence, is always loaded (at most 8 per scope)\n",
		"slack__send_message  weight 5.00  1 queries  5 of 5 sessions (at least 75% with 90% confidence)  pinned by learning\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("learned: exit %d, %s; want %q in\n%s", code, stderr, want, out)
		}
	}
	code, out, _ = runCmd(t, "learned", "--addr", addr, "--export")
	var rec learn.Record
	if code != 0 || json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec) != nil || rec.Sessions != 5 || rec.ScopeSessions != 5 {
		t.Errorf("learned --export: exit %d, record %+v:\n%s", code, rec, out)
	}
	imported := learn.NewStore(learn.Config{})
	if _, err := imported.Import(strings.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	if p := imported.View().Pinned("", learn.PinRule{}); len(p) != 1 || p[0].Tool != "slack__send_message" {
		t.Errorf("imported export pins %v", p)
	}
}

// startLearningSidecar starts a real sidecar on the example catalog with
// learning cfg and returns its address and a client to it (both closed
// when the test ends).
func startLearningSidecar(t *testing.T, cfg search.LearnConfig) (string, *toolsearch.Client) {
	t.Helper()
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: exampleCatalog})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{Learn: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	addr := servertest.Start(t, e)
	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return addr, c
}
