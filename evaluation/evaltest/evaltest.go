// Package evaltest finds the public benchmark data (../shared/bench beside
// the repository) for tests. Tests that need it skip when it is missing on a
// developer's machine, and fail when CI=true: CI always has it, and a test
// that silently skips there would pass without testing anything.
package evaltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolsearch/toolsearch/internal/testenv"
)

// Bench returns the path of rel (such as "livemcpbench/tools.jsonl")
// under the shared benchmark folder, ../shared/bench from the repository's
// root (the directory holding go.work). When the file is missing it skips
// the test, or fails it when the environment has CI=true.
func Bench(tb testing.TB, rel string) string {
	tb.Helper()
	root, err := repoRoot()
	if err == nil {
		path := filepath.Join(root, "..", "shared", "bench", rel)
		if _, err = os.Stat(path); err == nil {
			return path
		}
	}
	testenv.SkipOrFail(tb, "benchmark data %s is not available (%v); it lives in ../shared/bench beside the repository", rel, err)
	return ""
}

// repoRoot walks up from the working directory to the directory that
// holds go.work.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
