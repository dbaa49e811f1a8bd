package search_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/search"
)

var update = flag.Bool("update", false, "rewrite the ranking golden files and rank_stats.txt")

// goldenDepth is how many results a ranking golden file records.
const goldenDepth = 5

// rankingModes are the modes whose rankings are golden-tested: the name is
// the golden subdirectory, the engine is built by the function.
func rankingModes(t *testing.T) []struct {
	name   string
	mode   search.Mode
	engine func(*catalog.Snapshot) *search.Engine
} {
	lexical := func(snap *catalog.Snapshot) *search.Engine { return newEngine(t, snap, search.Config{}) }
	semantic := func(snap *catalog.Snapshot) *search.Engine { return newSemanticEngine(t, snap) }
	return []struct {
		name   string
		mode   search.Mode
		engine func(*catalog.Snapshot) *search.Engine
	}{
		{"keyword", search.ModeKeyword, lexical},
		{"default", search.ModeDefault, semantic},
	}
}

// TestRankingGoldens is the ranking contract: for every fixture under
// testdata/eval (a catalog.json and a queries.jsonl), every query's top
// results, scores and answering mode are compared with a golden file, and
// the fixture's recall@1, recall@5 and MRR with rank_stats.txt. Any scoring
// change shows as a reviewable diff; rewrite them with
//
//	go test ./search -run TestRankingGoldens -update
func TestRankingGoldens(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/eval/*/queries.jsonl")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	sort.Strings(fixtures)
	var stats strings.Builder
	stats.WriteString("# Ranking statistics of the fixtures under testdata/eval (top 5 results).\n")
	stats.WriteString("# Rewritten by: go test ./search -run TestRankingGoldens -update\n")
	stats.WriteString("# fixture/mode queries recall@1 recall@5 mrr no_confident_rate no_answer_queries no_answer_flagged\n")
	for _, qpath := range fixtures {
		dir := filepath.Dir(qpath)
		fixture := filepath.Base(dir)
		snap, err := catalog.LoadSnapshot(catalog.Source{Path: filepath.Join(dir, "catalog.json")})
		if err != nil {
			t.Fatal(err)
		}
		queries, err := evaluation.LoadQueries(qpath)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rankingModes(t) {
			e := m.engine(snap)
			var run evaluation.Run
			for _, q := range queries {
				res, err := e.Search(context.Background(), search.Request{Query: q.Query, Mode: m.mode, MaxResults: goldenDepth})
				if err != nil {
					t.Fatalf("%s/%s %s: %v", fixture, m.name, q.ID, err)
				}
				names := make([]string, len(res.References))
				for i, r := range res.References {
					names[i] = r.Name
				}
				run.Add(evaluation.Score(q, names), res.Metadata.FallbackReason != "", unconfident(res), 0)
				golden := filepath.Join(dir, "golden", m.name, q.ID+".golden")
				checkGolden(t, golden, formatRanking(q, res))
			}
			// The no-answer queries written for the fixture's catalog, if any: how many are
			// flagged no_confident_match.
			if na, err := evaluation.LoadNoAnswer(filepath.Join("..", "evaluation", "testdata", "noanswer", fixture+".jsonl")); err == nil {
				for _, q := range na {
					res, err := e.Search(context.Background(), search.Request{Query: q.Query, Mode: m.mode, MaxResults: goldenDepth})
					if err != nil {
						t.Fatalf("%s/%s %s: %v", fixture, m.name, q.ID, err)
					}
					run.AddNoAnswer(unconfident(res))
				}
			}
			s := run.Summary()
			fmt.Fprintf(&stats, "%s/%s %d %.3f %.3f %.3f %.3f %d %.3f\n", fixture, m.name, s.Queries, s.Recall1, s.Recall5, s.MRR,
				s.NoConfidentRate, s.NoAnswerQueries, s.NoAnswerFlagged)
		}
	}
	checkGolden(t, "testdata/eval/rank_stats.txt", stats.String())
}

// formatRanking renders one query's results for its golden file.
func formatRanking(q evaluation.Query, res search.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "query: %s\nrelevant: %s\nsearch_type: %s\n", q.Query, strings.Join(q.Relevant, ", "), res.Metadata.SearchType)
	if res.Metadata.FallbackReason != "" {
		fmt.Fprintf(&b, "fallback_reason: %s\n", res.Metadata.FallbackReason)
	}
	if res.Metadata.Suggestion != "" {
		fmt.Fprintf(&b, "suggestion: %s\n", res.Metadata.Suggestion)
	}
	if res.Metadata.NoConfidentMatch {
		b.WriteString("no_confident_match\n")
	}
	relevant := map[string]bool{}
	for _, r := range q.Relevant {
		relevant[r] = true
	}
	for i, r := range res.References {
		mark := " "
		if relevant[r.Name] {
			mark = "*"
		}
		fmt.Fprintf(&b, "%d.%s %-34s %.3f\n", i+1, mark, r.Name, r.Score)
	}
	return b.String()
}

// unconfident reports whether a search found no confident match: it was
// flagged, or it found nothing.
func unconfident(res search.Result) bool {
	return res.Metadata.NoConfidentMatch || len(res.References) == 0
}

// checkGolden compares got with the golden file at path, or rewrites it
// with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run with -update to create it)", err)
		return
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}
