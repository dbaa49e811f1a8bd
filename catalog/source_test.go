package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSource(t *testing.T) {
	tests := []struct {
		arg  string
		want Source
	}{
		{"tools.json", Source{Path: "tools.json"}},
		{"github=tools/gh.json", Source{Path: "tools/gh.json", Server: "github"}},
		{"dir/a=b.json", Source{Path: "dir/a=b.json"}},
		{"=x.json", Source{Path: "=x.json"}},
		{"gh=", Source{Path: "gh="}},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ParseSource(tt.arg)); diff != "" {
				t.Errorf("ParseSource(%q) (-want +got):\n%s", tt.arg, diff)
			}
		})
	}
}

func TestLoadSnapshot(t *testing.T) {
	snap, err := LoadSnapshot(Source{Path: "../examples/catalog.json"}, Source{Path: "testdata/openai.json", Server: "oa"})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version() != 1 || snap.Len() <= 67 {
		t.Errorf("snapshot v%d with %d tools, want v1 with the example's 67 tools and more", snap.Version(), snap.Len())
	}
	if _, err := LoadSnapshot(Source{Path: "testdata/no-such-file.json"}); err == nil || !strings.Contains(err.Error(), "no-such-file.json") {
		t.Errorf("missing file: err = %v, want one naming the file", err)
	}
}
