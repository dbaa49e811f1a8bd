package main

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	m := func(rel string) string { return module + "/" + rel }
	for _, tc := range []struct {
		name    string
		pkgs    []pkg
		clients []pkg
		want    []string // a substring of each problem, in order
	}{
		{name: "allowed", pkgs: []pkg{
			{ImportPath: m("fallback"), Imports: []string{m("analysis"), m("query"), m("internal/pvec"), "strings"}, Deps: []string{m("analysis"), m("query")}},
			{ImportPath: m("embed/embedtest"), Imports: []string{m("embed")}},
			{ImportPath: m("cmd/toolsearch"), Imports: []string{m("embed"), m("vectorindex"), m("clients/go/toolsearchv1"), "google.golang.org/grpc/status"}},
			{ImportPath: m("cmd/sidecar"), Imports: []string{m("server"), m("mcpserver")}},
			{ImportPath: m("server/servertest"), Imports: []string{m("server")}},
		}},
		{name: "a lower layer imports a higher one", pkgs: []pkg{
			{ImportPath: m("fallback"), Imports: []string{m("catalog")}, Deps: []string{m("catalog")}},
		}, want: []string{"fallback imports catalog; it may import analysis, query and internal/", "fallback depends on catalog (through its import of it)"}},
		{name: "through another package", pkgs: []pkg{
			{ImportPath: m("vectorindex"), Imports: []string{m("internal/x")}, Deps: []string{m("internal/x"), m("search")}},
			{ImportPath: m("internal/x"), Imports: []string{m("search")}, Deps: []string{m("search")}},
		}, want: []string{"vectorindex depends on search (through internal/x)", "internal/x imports search"}},
		{name: "a library imports a surface", pkgs: []pkg{
			{ImportPath: m("cmd/toolsearch"), Imports: []string{m("server")}},
		}, want: []string{"cmd/toolsearch imports server"}},
		{name: "no row", pkgs: []pkg{{ImportPath: m("newthing")}}, want: []string{"newthing has no row"}},
		{name: "gRPC below the surfaces", pkgs: []pkg{
			{ImportPath: m("search"), Imports: []string{"google.golang.org/grpc/status"}},
		}, want: []string{"search imports google.golang.org/grpc/status; only server"}},
		{name: "a test helper in production", pkgs: []pkg{
			{ImportPath: m("search"), Imports: []string{m("embed/embedtest")}, Deps: []string{m("embed/embedtest")}},
		}, want: []string{"search depends on the test helper package embed/embedtest"}},
		{name: "the client module", clients: []pkg{
			{ImportPath: m("clients/go"), Deps: []string{m("clients/go/toolsearchv1"), m("search")}},
		}, want: []string{"clients/go depends on " + m("search")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := check(tc.pkgs, tc.clients)
			if len(got) != len(tc.want) {
				t.Fatalf("problems:\n%s\nwant %d", strings.Join(got, "\n"), len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}
