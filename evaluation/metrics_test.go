package evaluation

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
	r.Add(Scores{Recall1: 1, Recall5: 1, Recall10: 1, NDCG10: 1, MRR: 1}, false, 1*time.Millisecond)
	r.Add(Scores{}, true, 3*time.Millisecond)
	got := r.Summary()
	want := Summary{Queries: 2, Recall1: 0.5, Recall5: 0.5, Recall10: 0.5, NDCG10: 0.5, MRR: 0.5, FallbackRate: 0.5, P50Ms: 1, P99Ms: 3}
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

func TestLoadQueriesBench(t *testing.T) {
	for _, ds := range []string{"bfcl", "livemcpbench", "stabletoolbench"} {
		path := "../../shared/bench/" + ds + "/queries.jsonl"
		qs, err := LoadQueries(path)
		if err != nil {
			t.Skipf("bench data not available: %v", err)
		}
		if len(qs) == 0 {
			t.Errorf("%s: no queries", ds)
		}
	}
}
