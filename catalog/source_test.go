package catalog

import (
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
