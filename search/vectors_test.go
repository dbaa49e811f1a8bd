package search

import (
	"context"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// TestHNSWRecallOnCatalogVectors: on real catalog vectors (the three
// ../shared/bench catalogs, embedded by the built-in model exactly as the
// engine embeds them, common component removed) and real queries, the
// HNSW graph with its default settings finds the exact top 10 (recall@10
// against the flat index ≥ 0.99). The engine searches catalogs this small
// exactly (exactIndexLimit), so the test forces the graph.
func TestHNSWRecallOnCatalogVectors(t *testing.T) {
	var tools []catalog.Tool
	var queries []string
	for _, ds := range []string{"bfcl", "livemcpbench", "stabletoolbench"} {
		ts, err := catalog.Load(catalog.Source{Path: evaltest.Bench(t, ds+"/tools.jsonl")})
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, ts...)
		qs, err := evaluation.LoadQueries(evaltest.Bench(t, ds+"/queries.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			queries = append(queries, q.Query)
		}
	}
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(tools))
	for i, tool := range tools {
		texts[i] = documentText(lexicalDocument(tool, nil))
	}
	ctx := context.Background()
	raw, err := emb.Embed(ctx, embed.Document, texts)
	if err != nil {
		t.Fatal(err)
	}
	vs := newVectorStore(emb.Dimensions(), vectorindex.HNSWConfig{ExactLimit: -1})
	ids, err := vs.add(raw)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle: an independent exact index over the same vectors, as
	// the store projected them.
	flat := vectorindex.NewFlat(emb.Dimensions())
	intIDs := make([]int, len(ids))
	vecs := make([][]float32, len(ids))
	for i, id := range ids {
		intIDs[i] = int(id)
		vecs[i] = project(raw[i], vs.pc)
	}
	if err := flat.Add(intIDs, vecs); err != nil {
		t.Fatal(err)
	}
	qraw, err := emb.Embed(ctx, embed.Query, queries)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	n := 0
	for _, q := range qraw {
		qv := project(q, vs.pc)
		if isZeroVector(qv) {
			continue
		}
		approx, err := vs.index.Search(qv, 10)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := flat.Search(qv, 10)
		if err != nil {
			t.Fatal(err)
		}
		sum += vectorindex.Recall(approx, exact)
		n++
	}
	recall := sum / float64(n)
	t.Logf("HNSW recall@10 on %d catalog vectors, %d queries: %.4f", len(tools), n, recall)
	if recall < 0.99 {
		t.Errorf("recall@10 = %.4f, want ≥ 0.99", recall)
	}
}
