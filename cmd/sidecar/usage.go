package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// sidecar --help, --version, and the message for a mistyped flag.

// flagGroups orders --help as docs/operations.md's table orders the flags:
// each group's title and its flags, in order. A flag in no group is listed
// last, under "other" (TestHelpGroupsEveryFlag fails on it: add it here).
var flagGroups = []struct {
	title string
	flags []string
}{
	{"serving", []string{"listen", "metrics-listen", "catalog", "log-format", "log-level", "log-queries", "shutdown-timeout", "ready-when", "stop-with-parent"}},
	{"embedding and sessions", []string{"embedder", "ollama-host", "ollama-model", "cache-dir", "quantize", "query-timeout", "max-sessions", "session-ttl"}},
	{"learning from use", []string{"learn", "learn-half-life", "learn-from", "learn-pull-interval", "learn-shared", "learn-report-rate", "learn-pin", "learn-pin-share", "learn-pin-min-sessions"}},
	{"fleet state", []string{"store", "store-max-conns"}},
	{"live MCP servers", []string{"mcp", "mcp-config", "mcp-env", "mcp-headers", "mcp-bearer-token-file", "mcp-timeout", "mcp-grace-period"}},
	{"tool lists", []string{"deferral-threshold", "deferral-mode", "system-prompt-file", "keywords-file"}},
	{"MCP endpoint", []string{"mcp-listen", "mcp-stdio", "mcp-visible-tools", "mcp-always-loaded", "mcp-token-scopes", "mcp-call-timeout"}},
	{"limits", []string{"max-message-size", "max-query-length", "max-results-cap", "max-tools", "memory-limit", "request-timeout", "max-concurrent-streams", "keepalive-min-time", "keepalive-time"}},
	{"security", []string{"tls-cert", "tls-key", "tls-client-ca", "auth-token-file"}},
}

// errVersion is parseConfig's answer to --version.
var errVersion = errors.New("version requested")

// wantsVersion reports whether args ask for the version (before any
// other parsing, so that --version works beside any other flag).
func wantsVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--version" || a == "-version" {
			return true
		}
	}
	return false
}

// printUsage writes sidecar --help: the flags of fs by group.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `usage: sidecar [flags]

toolsearch sidecar: loads tool catalogs and answers tool searches over gRPC
(toolsearch.v1.ToolSearchService), with the standard health service and
server reflection. Every flag's default can be set with the environment
variable shown beside it; docs/operations.md explains each group.
sidecar --version prints the version.
`)
	listed := map[string]bool{}
	for _, g := range flagGroups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.flags {
			if f := fs.Lookup(name); f != nil {
				printFlag(w, f)
				listed[name] = true
			}
		}
	}
	var other []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			other = append(other, f)
		}
	})
	if len(other) > 0 {
		fmt.Fprint(w, "\nother:\n")
		for _, f := range other {
			printFlag(w, f)
		}
	}
}

// printFlag writes one flag as flag.PrintDefaults does, with the "--" the
// documentation uses.
func printFlag(w io.Writer, f *flag.Flag) {
	typ, usage := flag.UnquoteUsage(f)
	var b strings.Builder
	b.WriteString("  --" + f.Name)
	if typ != "" {
		b.WriteString(" " + typ)
	}
	b.WriteString("\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t"))
	switch {
	case f.DefValue == "" || f.DefValue == "false" || f.DefValue == "0" || f.DefValue == "0s":
	case typ == "string":
		fmt.Fprintf(&b, " (default %q)", f.DefValue)
	default:
		fmt.Fprintf(&b, " (default %v)", f.DefValue)
	}
	fmt.Fprintln(w, b.String())
}

// parseError rewrites the flag package's error for a flag that does not
// exist ("flag provided but not defined: -listn") as one naming the
// closest flag; other errors are returned as they are.
func parseError(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		// "invalid value "x" for flag -max-tools: ...", with the "--" of
		// the documentation.
		return errors.New(strings.Replace(err.Error(), " for flag -", " for --", 1))
	}
	name = strings.TrimPrefix(name, "-")
	if best := closestFlag(fs, name); best != "" {
		return fmt.Errorf("unknown flag --%s; did you mean --%s? (sidecar --help lists every flag)", name, best)
	}
	return fmt.Errorf("unknown flag --%s (sidecar --help lists every flag)", name)
}

// closestFlag returns the flag of fs nearest to name: at most 2 edits
// away, or of which name is a prefix; "" when none is.
func closestFlag(fs *flag.FlagSet, name string) string {
	best, bestDist := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if d > 2 && strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = 2
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = slices.Min([]int{prev[j] + 1, cur[j-1] + 1, prev[j-1] + cost})
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
