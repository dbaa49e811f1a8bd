package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
)

func TestSyntheticCatalog(t *testing.T) {
	tools, parts := syntheticCatalog(5000, 1)
	if len(tools) != 5000 || len(parts) != 5000 {
		t.Fatalf("got %d tools, %d parts; want 5000", len(tools), len(parts))
	}
	again, _ := syntheticCatalog(5000, 1)
	if diff := cmp.Diff(tools, again); diff != "" {
		t.Errorf("same n and seed, different catalogs (-first +second):\n%s", diff)
	}
	other, _ := syntheticCatalog(5000, 2)
	if cmp.Equal(tools, other) {
		t.Error("seeds 1 and 2 gave the same catalog")
	}
	// Valid: unique names, object schemas (NewSnapshot checks both).
	if _, err := catalog.NewSnapshot(tools); err != nil {
		t.Fatalf("synthetic catalog is not valid: %v", err)
	}
	for _, tool := range tools[:20] {
		if tool.Server == "" || tool.Description == "" || len(tool.Parameters()) == 0 {
			t.Errorf("tool %+v lacks a server, description or parameters", tool)
		}
	}
	// A prefix of a larger catalog is the smaller one: sizes nest.
	small, _ := syntheticCatalog(100, 1)
	if diff := cmp.Diff(small, tools[:100]); diff != "" {
		t.Errorf("the 100-tool catalog is not the first 100 of the 5,000-tool one:\n%s", diff)
	}
}

func TestSyntheticQueries(t *testing.T) {
	_, parts := syntheticCatalog(1000, 1)
	qs := syntheticQueries(parts, 200, 1)
	if len(qs) != 200 || !slices.Equal(qs, syntheticQueries(parts, 200, 1)) {
		t.Fatalf("queries not deterministic or wrong count: %d", len(qs))
	}
	for _, q := range qs {
		if q == "" {
			t.Fatal("empty query")
		}
	}
	if syntheticQueries(nil, 10, 1) != nil {
		t.Error("queries drawn from an empty catalog")
	}
}

func TestSyntheticPatterns(t *testing.T) {
	tools, parts := syntheticCatalog(1000, 1)
	ps := syntheticPatterns(parts, 300, 1)
	if len(ps) != 300 || !slices.Equal(ps, syntheticPatterns(parts, 300, 1)) {
		t.Fatalf("patterns not deterministic or wrong count: %d", len(ps))
	}
	// Every pattern is valid and finds tools: globs (name characters and
	// "*") match whole names, the others are RE2 patterns.
	for _, p := range ps {
		var re *regexp.Regexp
		if strings.HasSuffix(p, "_*") {
			re = regexp.MustCompile("^" + regexp.QuoteMeta(strings.TrimSuffix(p, "*")))
		} else {
			re = regexp.MustCompile("(?i)" + p)
		}
		if !slices.ContainsFunc(tools, func(tl catalog.Tool) bool { return re.MatchString(tl.Name) || re.MatchString(tl.Description) }) {
			t.Errorf("pattern %q matches no tool", p)
		}
	}
	if syntheticPatterns(nil, 10, 1) != nil {
		t.Error("patterns drawn from an empty catalog")
	}
}

func TestWriteCatalogRoundTrip(t *testing.T) {
	tools, _ := syntheticCatalog(300, 7)
	path := filepath.Join(t.TempDir(), "synthetic.jsonl")
	if err := writeJSONL(path, tools); err != nil {
		t.Fatal(err)
	}
	read, err := catalog.Load(catalog.Source{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	want, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	got, err := catalog.NewSnapshot(read)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Tools(), got.Tools()); diff != "" {
		t.Errorf("catalog read back differs (-written +read):\n%s", diff)
	}
}
