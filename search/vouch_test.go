package search_test

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/search"
)

// TestVouched: a request whose words the example catalog does not know
// (coverage 0: "tornado", "watches", "Oklahoma") but whose semantic top
// tool is clear and uncontradicted by keyword search is a confident match
// in the default mode, its top at exactly 0.5; keyword mode has no
// semantic evidence and flags it (or finds nothing). Weaker semantic
// evidence (confidence under vouchConfidence) is flagged in both modes.
func TestVouched(t *testing.T) {
	cases := []struct {
		query   string
		vouched bool // in the default mode
	}{
		{"any tornado watches in Oklahoma", true},           // confidence 0.79
		{"any blizzard danger in Denver", true},             // 0.78
		{"any hail expected in Denver this weekend", false}, // 0.52
		{"preheat the oven to 400 degrees", false},          // 0.59, and no tool serves it
	}
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	searchEachExample(t, queries, func(mode search.Mode, name string, i int, res search.Result) {
		c := cases[i]
		want := c.vouched && mode == search.ModeDefault
		if len(res.References) == 0 {
			if want {
				t.Errorf("%s %q: no results", name, c.query)
			}
			return
		}
		top := res.References[0]
		vouched := strings.Contains(top.Explanation, "vouched")
		if res.Metadata.NoConfidentMatch == want || vouched != want {
			t.Errorf("%s %q: no_confident_match %v, top %s %.3f, explanation %q: want vouched %v",
				name, c.query, res.Metadata.NoConfidentMatch, top.Name, top.Score, top.Explanation, want)
		}
		if want && (math.Abs(top.Score-0.5) > 1e-9 || top.Name != "weather__get_alerts") {
			t.Errorf("%s %q: top %s %.3f, want weather__get_alerts at 0.5", name, c.query, top.Name, top.Score)
		}
	})
}

// TestVouchedLexicalPath: when the gate rejects the semantic candidates and
// keyword or fuzzy search answers, a semantic ranking whose first tool is
// the lexical answer's vouches for it (its top at exactly 0.5); the
// no-match rules still flag a request no tool serves ("turn off the living
// room lights": the weather tool's "light rain"). The keyword mode a
// caller asks for has no semantic ranking and flags them all.
func TestVouchedLexicalPath(t *testing.T) {
	cases := []struct {
		query   string
		mode    search.Mode // what answers in the default mode
		top     string
		flagged bool // in the default mode
	}{
		{"anywhere decent for ramen near Shibuya station?", search.ModeKeyword, "maps__search_places", false},
		{"how toasty is Phoenix right now", search.ModeFuzzy, "weather__get_current_weather", false},
		{"turn off the living room lights", search.ModeKeyword, "weather__get_current_weather", true},
		{"is the air safe to breathe today in Delhi", search.ModeKeyword, "weather__get_air_quality", true}, // the semantic top is get_current_weather
	}
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	searchEachExample(t, queries, func(mode search.Mode, name string, i int, res search.Result) {
		c := cases[i]
		if len(res.References) == 0 {
			t.Errorf("%s %q: no results", name, c.query)
			return
		}
		top := res.References[0]
		if top.Name != c.top || res.Metadata.SearchType != c.mode {
			t.Errorf("%s %q: top %s by %s, want %s by %s", name, c.query, top.Name, res.Metadata.SearchType, c.top, c.mode)
		}
		agree := mode == search.ModeDefault && c.top != "weather__get_air_quality"
		want := c.flagged || mode != search.ModeDefault
		if res.Metadata.NoConfidentMatch != want || strings.Contains(top.Explanation, "vouched") != agree {
			t.Errorf("%s %q: no_confident_match %v, explanation %q: want flagged %v, vouched %v",
				name, c.query, res.Metadata.NoConfidentMatch, top.Explanation, want, agree)
		}
		if agree && !c.flagged && math.Abs(top.Score-0.5) > 1e-9 {
			t.Errorf("%s %q: top %.3f, want 0.5", name, c.query, top.Score)
		}
	})
}

// TestKeywordVouch: a keyword search the caller asked for, under the line,
// asks the semantic ranking when the engine has one, as the default mode
// asks about its keyword answers: when the gate rejects the semantic
// candidates and their first tool is the keyword answer's, the search is
// vouched for (its top at exactly 0.5) and its ranking stays the keyword
// one; the no-match rules still flag a request no tool serves. When the
// gate passes, the keyword top is fused with the semantic candidates as a
// default search fuses them, and vouched for when that clears the default
// mode's line ("is there a hurricane warning for Miami", confidence 0.94:
// fused 0.843 × coverage factor 0.111 over hybridKnee 0.077), not when it
// does not ("what's the UV index in Sydney today", confidence 0.61).
// Without an embedder keyword mode has no semantic ranking and flags them
// all.
func TestKeywordVouch(t *testing.T) {
	cases := []struct {
		query   string
		top     string
		vouched bool // with the semantic index
		flagged bool // with the semantic index
	}{
		{"anywhere decent for ramen near Shibuya station?", "maps__search_places", true, false}, // confidence 0.27
		{"how hot is it in madrid at the moment", "weather__get_current_weather", true, false},  // 0.36
		{"turn off the living room lights", "weather__get_current_weather", true, true},         // the unserved action
		{"is the air safe to breathe today in Delhi", "weather__get_air_quality", false, true},  // the semantic top is get_current_weather
		{"is there a hurricane warning for Miami", "weather__get_alerts", true, false},          // the gate passes, fused over the line
		{"what's the UV index in Sydney today", "fetch__fetch_url", false, true},                // the gate passes, fused under the line
	}
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, withIndex := range []bool{true, false} {
		e := newEngine(t, snap, search.Config{})
		if withIndex {
			e = newSemanticEngine(t, snap)
		}
		for _, c := range cases {
			res, err := e.Search(context.Background(), search.Request{Query: c.query, Mode: search.ModeKeyword, MaxResults: 5, Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 {
				t.Fatalf("index %v %q: no results", withIndex, c.query)
			}
			top := res.References[0]
			vouched, flagged := c.vouched && withIndex, c.flagged || !withIndex
			if top.Name != c.top || res.Metadata.SearchType != search.ModeKeyword {
				t.Errorf("index %v %q: top %s by %s, want %s by keyword", withIndex, c.query, top.Name, res.Metadata.SearchType, c.top)
			}
			if res.Metadata.NoConfidentMatch != flagged || strings.Contains(top.Explanation, "vouched") != vouched {
				t.Errorf("index %v %q: no_confident_match %v, explanation %q: want flagged %v, vouched %v",
					withIndex, c.query, res.Metadata.NoConfidentMatch, top.Explanation, flagged, vouched)
			}
			// Every case calibrates under the line, so with the index
			// each asks the semantic ranking and reports its confidence.
			if asked := withIndex; asked != (res.Metadata.Confidence > 0) {
				t.Errorf("index %v %q: semantic confidence %.2f in the metadata, want one: %v", withIndex, c.query, res.Metadata.Confidence, asked)
			}
			// Its time is the semantic stages', as a default search's.
			if stg := res.Metadata.Stages; withIndex != (stg.QueryEmbedding > 0 && stg.VectorSearch > 0) {
				t.Errorf("index %v %q: stages %+v, want query embedding and vector search timed: %v", withIndex, c.query, stg, withIndex)
			}
			if vouched && !flagged && math.Abs(top.Score-0.5) > 1e-9 {
				t.Errorf("index %v %q: top %.3f, want 0.5", withIndex, c.query, top.Score)
			}
		}
	}
}

// queryCounting counts the queries an embedder is asked to embed.
type queryCounting struct {
	embed.Embedder
	queries atomic.Int64
}

func (q *queryCounting) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	if kind == embed.Query {
		q.queries.Add(1)
	}
	return q.Embedder.Embed(ctx, kind, texts)
}

// TestKeywordVouchRemoteModel: with a model that does not embed in
// process (an Ollama model: a round trip, perhaps down or slow), a keyword
// search under the line never asks the embedder for its query: it reads
// only the query cache a default search of the same text filled
// (semanticEvidence), so a keyword answer never waits on the embedder nor
// fails with it.
func TestKeywordVouchRemoteModel(t *testing.T) {
	emb := &queryCounting{Embedder: &embedtest.Fake{Model: "remote-test", Dims: 16}}
	e := newEngine(t, loadSnapshot(t, "testdata/eval/example/catalog.json"), search.Config{Embedder: emb})
	waitIndexed(t, e)
	const q = "anywhere decent for ramen near Shibuya station?" // under the line in keyword mode (TestKeywordVouch)
	kw := search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 5}
	res := search1(t, e, kw)
	if n := emb.queries.Load(); n != 0 {
		t.Errorf("a keyword search asked the remote embedder for %d queries, want none", n)
	}
	if len(res.References) == 0 || !res.Metadata.NoConfidentMatch || res.Metadata.Confidence != 0 {
		t.Errorf("keyword search with a cold query cache: %d results, no_confident_match %v, confidence %.2f; want results, flagged, 0",
			len(res.References), res.Metadata.NoConfidentMatch, res.Metadata.Confidence)
	}
	search1(t, e, search.Request{Query: q, MaxResults: 5}) // the default mode embeds the query, and caches it
	asked := emb.queries.Load()
	search1(t, e, kw)
	if n := emb.queries.Load(); n != asked {
		t.Errorf("a keyword search after a default one asked the remote embedder for %d queries, want none (the cache)", n-asked)
	}
}
