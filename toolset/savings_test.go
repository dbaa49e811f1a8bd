package toolset_test

import (
	"context"
	"flag"
	"fmt"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
)

var savingsOut = flag.String("savings-out", "", "write the token-savings table (Markdown) to this file")

// benchDir holds the public benchmark catalogs (../shared/bench from the
// repository root).
const benchDir = "../../shared/bench"

// charsPerToken is the token estimate of the report: 4 characters per
// token, the usual rule of thumb for English text and JSON.
const charsPerToken = 4

// minFirstTurnSaving is the bar: on the livemcpbench catalog the first-turn
// deferred list is at least 85 % smaller than the full list, in every
// format.
const minFirstTurnSaving = 0.85

func tokens(s string) int { return (utf8.RuneCountInString(s) + charsPerToken - 1) / charsPerToken }

// TestTokenSavings measures, over the benchmark catalogs and in every
// format, the full tool list against the deferred list (DeferOmit) on the
// first turn and after one search (the dataset's first query, keyword mode,
// 5 results, revealed through a session of a real engine). Run with -v for
// the table, or -savings-out=FILE to write it as Markdown.
func TestTokenSavings(t *testing.T) {
	datasets := []string{"livemcpbench", "bfcl", "stabletoolbench"}
	var rows []string
	for _, ds := range datasets {
		tools, err := catalog.Load(catalog.Source{Path: evaltest.Bench(t, ds+"/tools.jsonl")})
		if err != nil {
			t.Fatal(err)
		}
		snap, err := catalog.NewSnapshot(tools)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := search.New(snap, search.Config{})
		if err != nil {
			t.Fatal(err)
		}
		query := firstQuery(t, ds)
		if _, err := eng.Search(context.Background(), search.Request{Query: query, Mode: search.ModeKeyword, SessionID: "bench"}); err != nil {
			t.Fatal(err)
		}
		_, revealed, err := eng.Revealed("bench")
		if err != nil {
			t.Fatal(err)
		}
		all := snap.Tools()
		for _, f := range toolset.Formats {
			full := build(t, all, nil, toolset.Options{Format: f, DeferralThreshold: len(all) + 1})
			turn1 := build(t, all, nil, toolset.Options{Format: f})
			turn2 := build(t, all, revealed, toolset.Options{Format: f})
			reminder := build(t, all, nil, toolset.Options{Format: f, Defer: toolset.DeferReminder})
			stub := build(t, all, nil, toolset.Options{Format: f, Defer: toolset.DeferStub})
			fullTok := tokens(string(full.Tools))
			t1 := tokens(string(turn1.Tools))
			t1p := t1 + tokens(turn1.SystemPrompt)
			t2 := tokens(string(turn2.Tools))
			rem := tokens(string(reminder.Tools)) + tokens(reminder.SystemPrompt)
			stubTok := tokens(string(stub.Tools)) + tokens(stub.SystemPrompt)
			saving := 1 - float64(t1)/float64(fullTok)
			savingWithPrompt := 1 - float64(t1p)/float64(fullTok)
			rows = append(rows, fmt.Sprintf("| %s (%d tools) | %s | %d B / %d | %d B / %d | %d | %.1f %% | %.1f %% | %d B / %d (%d revealed) | %d (%.1f %%) | %d (%.1f %%) |",
				ds, len(all), f, len(full.Tools), fullTok, len(turn1.Tools), t1, t1p, 100*saving, 100*savingWithPrompt,
				len(turn2.Tools), t2, len(turn2.Loaded), rem, 100*(1-float64(rem)/float64(fullTok)), stubTok, 100*(1-float64(stubTok)/float64(fullTok))))
			if ds == "livemcpbench" && savingWithPrompt < minFirstTurnSaving {
				t.Errorf("%s/%s: first-turn deferred list (with the system prompt addition) is %.1f %% smaller than the full list, want at least %.0f %%",
					ds, f, 100*savingWithPrompt, 100*minFirstTurnSaving)
			}
			checkShape(t, f, turn2.Tools)
		}
	}
	table := "| catalog | format | full list (bytes / est. tokens) | turn 1 deferred list | turn 1 + system prompt (tokens) | saving (list) | saving (list + prompt) | after one search | reminder mode, list + prompt (tokens, saving) | stub mode, list + prompt (tokens, saving) |\n" +
		"|---|---|---|---|---|---|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
	t.Log("\n" + table)
	if *savingsOut != "" {
		if err := os.WriteFile(*savingsOut, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstQuery returns the text of the first query of a dev set
// (../shared/bench/DATASET/queries.jsonl), loaded as eval loads it.
func firstQuery(t *testing.T, dataset string) string {
	t.Helper()
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, dataset+"/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return qs[0].Query
}

// BenchmarkBuild measures building a second-turn list over the largest
// benchmark catalog.
func BenchmarkBuild(b *testing.B) {
	path := filepath.Join(benchDir, "stabletoolbench", "tools.jsonl")
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	all := snap.Tools()
	revealed := all[:5]
	cache := toolset.NewCache(0) // as the server owns one
	for _, f := range toolset.Formats {
		b.Run(string(f), func(b *testing.B) {
			for b.Loop() {
				if _, err := toolset.Build(all, revealed, toolset.Options{Format: f, Cache: cache}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
