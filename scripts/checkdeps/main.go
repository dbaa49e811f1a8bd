// Command checkdeps checks the import direction of the module against the
// package table of DESIGN.md ("may import"), as `make checkdeps` runs it:
//
//	go run ./scripts/checkdeps
//
// It reads the packages with `go list` and prints one line per import that
// the table does not allow, naming what the importer may import; it exits
// with status 1 if there is any. The table below is DESIGN.md's, row for
// row; a package without a row is an error too, so a new package gets one.
//
// What the table's columns say about the module's own packages is checked
// for every non-test import; third-party imports are not (the column lists
// only some of them), except gRPC, which only the surfaces import (domain
// packages never see it; STYLE.md).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

const module = "github.com/toolsearch/toolsearch"

// A row of the package table: a package and everything below it (unless
// a longer row names it), and what it may import from the module.
type row struct {
	path string
	// mayImport lists packages (each with everything below it); "*" is
	// every package. A package may always import its own row's packages
	// and internal/ (utilities below every layer).
	mayImport []string
}

// libraries is every package below the surfaces (cmd/toolsearch's column).
var libraries = []string{"catalog", "query", "analysis", "fallback", "embed", "vectorindex", "learn", "search",
	"toolset", "source/mcp", "store/postgres", "evaluation"}

var table = []row{
	{"catalog", nil},
	{"query", []string{"analysis"}},
	{"analysis", nil},
	{"fallback", []string{"analysis", "query"}},
	{"embed", []string{"analysis"}},
	{"vectorindex", nil},
	{"learn", nil},
	{"search", []string{"catalog", "query", "fallback", "embed", "vectorindex", "learn"}},
	// search/searchpb converts results for both surfaces (the search row).
	{"search/searchpb", []string{"search", "clients/go/toolsearchv1"}},
	{"toolset", []string{"catalog"}},
	{"source/mcp", []string{"catalog"}},
	{"store/postgres", []string{"catalog"}},
	{"evaluation", nil},
	{"internal", nil},
	{"server", []string{"search", "toolset", "learn", "clients/go/toolsearchv1"}},
	{"mcpserver", []string{"search", "toolset", "source/mcp", "catalog", "clients/go"}},
	{"cmd/sidecar", []string{"*"}},
	{"cmd/toolsearch", append(slices.Clone(libraries), "clients/go")},
	{"cmd/embedmodel", []string{"embed"}},
	{"cmd/ollamamodel", []string{"embed"}},
	// Not in DESIGN.md's table: test-only packages (the Agent helpers'
	// conformance suite, the deployment manifests' checks) and this command.
	{"clients/conformance", nil},
	{"deploy", nil},
	{"scripts", nil},
}

// neverBelow: these packages never depend on catalog or search, even
// through another package (DESIGN.md, below the table).
var neverBelow = []string{"embed", "vectorindex", "fallback", "learn", "query", "analysis"}

// grpcImporters are the rows that may import google.golang.org/grpc.
var grpcImporters = []string{"server", "cmd/sidecar", "cmd/toolsearch"}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func main() {
	pkgs, err := list(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkdeps:", err)
		os.Exit(2)
	}
	clientPkgs, err := list("clients/go")
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkdeps:", err)
		os.Exit(2)
	}
	problems := check(pkgs, clientPkgs)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "checkdeps:", p)
	}
	if len(problems) > 0 {
		fmt.Fprintln(os.Stderr, "checkdeps: the package table is in DESIGN.md and in scripts/checkdeps/main.go")
		os.Exit(1)
	}
}

// list runs go list in dir.
func list(dir string) ([]pkg, error) {
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Deps", "./...")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w", dir, err)
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}

// check returns every violation of the rules by the root module's packages
// and by clients/go's.
func check(pkgs, clientPkgs []pkg) []string {
	var problems []string
	for _, p := range clientPkgs {
		for _, d := range p.Deps {
			if rel, ok := local(d); ok && !under(rel, "clients/go") {
				problems = append(problems, fmt.Sprintf("%s depends on %s: clients/go is its own module and imports nothing from the root module", p.ImportPath, d))
			}
		}
	}
	for _, p := range pkgs {
		rel, ok := local(p.ImportPath)
		if !ok {
			continue
		}
		r, ok := rowOf(rel)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no row in the package table: add one (DESIGN.md and scripts/checkdeps)", rel))
			continue
		}
		for _, imp := range p.Imports {
			if irel, ok := local(imp); ok && !r.allows(irel) {
				problems = append(problems, fmt.Sprintf("%s imports %s; it may import %s", rel, irel, r.describe()))
			}
			if under(imp, "google.golang.org/grpc") && !slices.Contains(grpcImporters, r.path) {
				problems = append(problems, fmt.Sprintf("%s imports %s; only %s import gRPC", rel, imp, strings.Join(grpcImporters, ", ")))
			}
		}
		for _, d := range p.Deps {
			drel, ok := local(d)
			if !ok {
				continue
			}
			if slices.ContainsFunc(neverBelow, func(b string) bool { return under(rel, b) }) && (under(drel, "catalog") || under(drel, "search")) {
				problems = append(problems, fmt.Sprintf("%s depends on %s (through %s); it never depends on catalog or search", rel, drel, via(p, pkgs, d)))
			}
			if helper(drel) && !helper(rel) {
				problems = append(problems, fmt.Sprintf("%s depends on the test helper package %s; only tests may", rel, drel))
			}
		}
	}
	return problems
}

// local returns the path of a package of the root module relative to it.
func local(path string) (string, bool) {
	if path == module {
		return "", true
	}
	return strings.CutPrefix(path, module+"/")
}

// under reports whether path is p or below it.
func under(path, p string) bool {
	return path == p || strings.HasPrefix(path, p+"/")
}

// helper reports whether a package is a test helper: its name ends in
// "test" (embed/embedtest, store/postgres/pgtest), or it is internal/testenv.
func helper(rel string) bool {
	return strings.HasSuffix(rel[strings.LastIndex(rel, "/")+1:], "test") || rel == "internal/testenv"
}

// rowOf returns the longest row that rel is under.
func rowOf(rel string) (row, bool) {
	var best row
	found := false
	for _, r := range table {
		if under(rel, r.path) && len(r.path) >= len(best.path) {
			best, found = r, true
		}
	}
	return best, found
}

// allows reports whether a package of row r may import rel.
func (r row) allows(rel string) bool {
	if under(rel, "internal") {
		return true
	}
	if own, _ := rowOf(rel); own.path == r.path {
		return true
	}
	for _, m := range r.mayImport {
		if m == "*" || under(rel, m) {
			return true
		}
	}
	return false
}

func (r row) describe() string {
	if len(r.mayImport) == 0 {
		return "only internal/ (and the standard library)"
	}
	return strings.Join(r.mayImport, ", ") + " and internal/"
}

// via returns the import of p through which it depends on dep: the first
// of p's imports that is dep or depends on it.
func via(p pkg, pkgs []pkg, dep string) string {
	for _, imp := range p.Imports {
		if imp == dep {
			return "its import of it"
		}
		for _, q := range pkgs {
			if q.ImportPath == imp && slices.Contains(q.Deps, dep) {
				rel, _ := local(imp)
				return rel
			}
		}
	}
	return "?"
}
