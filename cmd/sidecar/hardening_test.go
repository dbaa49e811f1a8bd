package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
