package evaluation

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsearch/toolsearch/evaluation/evaltest"
)

func TestScore(t *testing.T) {
	log2 := func(x float64) float64 { return math.Log2(x) }
	tests := []struct {
		name   string
		q      Query
		ranked []string
		want   Scores
	}{
		{
			name:   "single relevant at rank 1",
			q:      Query{Relevant: []string{"a"}},
			ranked: []string{"a", "b"},
			want:   Scores{Recall1: 1, Recall5: 1, Recall10: 1, NDCG10: 1, MRR: 1},
		},
		{
			name:   "single relevant at rank 3",
			q:      Query{Relevant: []string{"a"}},
			ranked: []string{"x", "y", "a"},
			want:   Scores{Recall1: 0, Recall5: 1, Recall10: 1, NDCG10: 1 / log2(4), MRR: 1.0 / 3},
		},
		{
			name:   "two steps, one found",
			q:      Query{Relevant: []string{"a", "b"}},
			ranked: []string{"b", "x"},
			want:   Scores{Recall1: 0.5, Recall5: 0.5, Recall10: 0.5, NDCG10: 1 / (1 + 1/log2(3)), MRR: 1},
		},
		{
			name:   "group satisfied once: the second tool of the same group earns nothing",
			q:      Query{Relevant: []string{"fs1__write", "fs2__write", "mail"}, Groups: [][]string{{"fs1__write", "fs2__write"}, {"mail"}}},
			ranked: []string{"fs1__write", "fs2__write", "mail"},
			want: Scores{Recall1: 0.5, Recall5: 1, Recall10: 1,
				NDCG10: (1 + 1/log2(4)) / (1 + 1/log2(3)), MRR: 1},
		},
		{
			name:   "nothing found",
			q:      Query{Relevant: []string{"a"}},
			ranked: []string{"x"},
			want:   Scores{},
		},
		{
			name:   "beyond rank 10 counts for nothing but MRR",
			q:      Query{Relevant: []string{"a"}},
			ranked: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "a"},
			want:   Scores{MRR: 1.0 / 11},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(tt.q, tt.ranked)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("Score (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunSummary(t *testing.T) {
	var r Run
	r.Add(Scores{Recall1: 1, Recall5: 1, Recall10: 1, NDCG10: 1, MRR: 1}, false, false, 1*time.Millisecond)
	r.Add(Scores{}, true, false, 3*time.Millisecond)
	r.Add(Scores{}, false, true, 2*time.Millisecond)
	r.Add(Scores{Recall1: 1, Recall5: 1, Recall10: 1, NDCG10: 1, MRR: 1}, false, false, 1*time.Millisecond)
	for _, flagged := range []bool{true, true, false, true} {
		r.AddNoAnswer(flagged)
	}
	got := r.Summary()
	want := Summary{Queries: 4, Recall1: 0.5, Recall5: 0.5, Recall10: 0.5, NDCG10: 0.5, MRR: 0.5, FallbackRate: 0.25, P50Ms: 1, P99Ms: 3,
		NoConfidentRate: 0.25, NoAnswerQueries: 4, NoAnswerFlagged: 0.75}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summary (-want +got):\n%s", diff)
	}
	if (&Run{}).Summary() != (Summary{}) {
		t.Error("empty run: want zero summary")
	}
}

func TestReadQueries(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
		wantSteps         int
	}{
		{name: "relevant", in: `{"id":"1","query":"q","relevant":["a","b"]}`, wantSteps: 2},
		{name: "groups", in: "\n" + `{"id":"1","query":"q","relevant":["a","b"],"groups":[["a","b"]]}` + "\n", wantSteps: 1},
		{name: "no relevant", in: `{"id":"1","query":"q","relevant":[]}`, wantErr: "line 1 (id \"1\")"},
		{name: "bad json", in: `{"id":`, wantErr: "line 1:"},
		{name: "empty", in: "", wantErr: "no queries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs, err := ReadQueries(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(qs[0].Steps()); got != tt.wantSteps {
				t.Errorf("steps = %d, want %d", got, tt.wantSteps)
			}
		})
	}
}

func TestReadNoAnswer(t *testing.T) {
	for _, tt := range []struct{ in, wantErr string }{
		{in: `{"id":"na-1","query":"turn off the lights","why":"no smart-home tool"}`},
		{in: `{"id":"na-1","query":"turn off the lights","relevant":["home__lights_off"]}`, wantErr: `line 1 (id "na-1"): a no-answer query needs`},
		{in: `{"id":"na-1","query":" "}`, wantErr: "a no-answer query needs"},
		{in: "", wantErr: "no queries"},
	} {
		_, err := ReadNoAnswer(strings.NewReader(tt.in))
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("ReadNoAnswer(%q) error = %v, want %q", tt.in, err, tt.wantErr)
		}
	}
}

// TestNoAnswerSets checks the committed no-answer sets: they load, and no
// query of one is also a query of the dev set of the same catalog.
func TestNoAnswerSets(t *testing.T) {
	for _, ds := range []string{"example", "bfcl", "livemcpbench", "stabletoolbench"} {
		na, err := LoadNoAnswer("testdata/noanswer/" + ds + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if len(na) < 50 {
			t.Errorf("%s: %d no-answer queries, want at least 50", ds, len(na))
		}
		if ds == "example" {
			continue
		}
		dev, err := LoadQueries(evaltest.Bench(t, ds+"/queries.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, q := range dev {
			seen[strings.ToLower(q.Query)] = true
		}
		for _, q := range na {
			if seen[strings.ToLower(q.Query)] {
				t.Errorf("%s: no-answer query %s is a dev query", ds, q.ID)
			}
		}
	}
}

func TestLoadQueriesBench(t *testing.T) {
	for _, ds := range []string{"bfcl", "livemcpbench", "stabletoolbench"} {
		qs, err := LoadQueries(evaltest.Bench(t, ds+"/queries.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == 0 {
			t.Errorf("%s: no queries", ds)
		}
	}
}

// TestParaphraseSets checks the committed paraphrase replay sets
// (testdata/paraphrase): each <set>-original.jsonl holds the dev set's
// queries that the README's stable rule selects (the first N by SHA-256 of
// the id, multi-turn turns after the first skipped), unchanged, and each
// <set>.jsonl the same ids, labels and steps in the same order with a
// query of its own.
func TestParaphraseSets(t *testing.T) {
	for _, tc := range []struct {
		set string
		n   int
	}{{"bfcl", 120}, {"livemcpbench", 47}, {"stabletoolbench", 80}} {
		t.Run(tc.set, func(t *testing.T) {
			orig, err := LoadQueries("testdata/paraphrase/" + tc.set + "-original.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			para, err := LoadQueries("testdata/paraphrase/" + tc.set + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			dev, err := LoadQueries(evaltest.Bench(t, tc.set+"/queries.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var cand []Query
			for _, q := range dev {
				if i := strings.Index(q.ID, "#turn"); i < 0 || q.ID[i:] == "#turn0" {
					cand = append(cand, q)
				}
			}
			hash := func(id string) string { h := sha256.Sum256([]byte(id)); return hex.EncodeToString(h[:]) }
			sort.Slice(cand, func(i, j int) bool { return hash(cand[i].ID) < hash(cand[j].ID) })
			if len(cand) < tc.n {
				t.Fatalf("the dev set has %d candidate queries; the rule takes %d", len(cand), tc.n)
			}
			chosen := map[string]bool{}
			for _, q := range cand[:tc.n] {
				chosen[q.ID] = true
			}
			var want []Query
			for _, q := range dev {
				if chosen[q.ID] {
					want = append(want, q)
				}
			}
			if diff := cmp.Diff(want, orig); diff != "" {
				t.Errorf("%s-original.jsonl is not the rule's selection of the dev set (-want +got):\n%s", tc.set, diff)
			}
			if len(para) != len(orig) {
				t.Fatalf("%d paraphrases of %d originals", len(para), len(orig))
			}
			for i, p := range para {
				o := orig[i]
				if p.ID != o.ID || !cmp.Equal(p.Relevant, o.Relevant) || !cmp.Equal(p.Groups, o.Groups) {
					t.Errorf("paraphrase %d (%s): id, relevant or groups differ from original %s", i, p.ID, o.ID)
				}
				if strings.EqualFold(strings.TrimSpace(p.Query), strings.TrimSpace(o.Query)) {
					t.Errorf("paraphrase %s is its original", p.ID)
				}
			}
		})
	}
}
