package catalog

import (
	"strings"
)

// ParseSource reads a catalog argument of the form [SERVER=]PATH, as the
// sidecar's --catalog flag takes it: "github=tools/gh.json" loads
// tools/gh.json with the namespace "github", so its create_issue becomes
// github__create_issue. An argument whose part before "=" contains a path
// separator, or is empty, is a plain path.
func ParseSource(arg string) Source {
	server, path, ok := strings.Cut(arg, "=")
	if !ok || server == "" || path == "" || strings.ContainsAny(server, `/\`) {
		return Source{Path: arg}
	}
	return Source{Path: path, Server: server}
}

// ParseSources parses each argument with ParseSource.
func ParseSources(args ...string) []Source {
	sources := make([]Source, len(args))
	for i, a := range args {
		sources[i] = ParseSource(a)
	}
	return sources
}
