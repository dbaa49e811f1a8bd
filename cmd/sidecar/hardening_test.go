package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestShortTokenWarned: a bearer token shorter than minTokenLength is
// accepted (the sidecar starts) with a warning at start-up that says how to
// make a good one; a long one is not warned about.
func TestShortTokenWarned(t *testing.T) {
	const warning = "the bearer token of --auth-token-file is short enough to guess"
	for name, tc := range map[string]struct {
		token string
		warn  bool
	}{
		"1 character":  {"x", true},
		"15":           {"0123456789abcde", true},
		"64 hex chars": {strings.Repeat("a1", 32), false},
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(file, []byte(tc.token+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			sc := startSidecar(t, "--catalog", exampleCatalog, "--embedder", "none", "--auth-token-file", file)
			sc.stop(t)
			log := sc.stderr.String()
			if got := strings.Contains(log, warning); got != tc.warn {
				t.Errorf("warned %v, want %v; log:\n%s", got, tc.warn, log)
			}
			if strings.Contains(log, tc.token) && len(tc.token) > 1 {
				t.Errorf("the log shows the token:\n%s", log)
			}
		})
	}
}

// TestOversizeDescriptionRejected: an UpsertTools with a large description
// is refused — a 5 MB one by the message limit with the default
// --max-message-size, in words naming the flag; a 50 MB one by gRPC itself
// (over twice the limit it is not read); and a 50 MB one by the
// description limit (64 KiB) when the message limit lets it in — and the
// sidecar keeps serving. The server-side time is logged (the request log's
// duration_ms); docs/benchmarks.md has the numbers.
func TestOversizeDescriptionRejected(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		size int
		code codes.Code
		want string
	}{
		{"over the limit", nil, 5 << 20, codes.ResourceExhausted, "over the sidecar's message limit of 4194304 bytes (--max-message-size)"},
		{"over twice the limit", nil, 50 << 20, codes.ResourceExhausted, "larger than max"},
		{"64 MiB limit", []string{"--max-message-size", "67108864"}, 50 << 20, codes.InvalidArgument, "over the limit of 65536"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			big := strings.Repeat("lorem ipsum ", tc.size/12)
			sc := startSidecar(t, append([]string{"--catalog", exampleCatalog, "--embedder", "none"}, tc.args...)...)
			_, err := sc.c.UpsertTools(t.Context(), &toolsearchv1.Tool{Name: "big", Description: big})
			if status.Code(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("UpsertTools of a %d-byte description: %v; want %v with %q", tc.size, err, tc.code, tc.want)
			}
			if _, err := sc.c.Search(t.Context(), "weather"); err != nil {
				t.Errorf("Search after the oversize upsert: %v", err)
			}
			for _, line := range strings.Split(sc.stderr.String(), "\n") {
				if strings.Contains(line, "UpsertTools") {
					t.Logf("server: %s", line)
				}
			}
		})
	}
}
