package learn

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// maxPullBytes bounds a pulled learned-state file: 64 queries of a few
// hundred bytes for 10,000 tools is about 200 MB at worst; 256 MB leaves
// room and stops a misconfigured URL from exhausting memory.
const maxPullBytes = 256 << 20

// Pull imports the learned state at src — an http(s) URL or a file path —
// into s and returns how many records it read. A fleet shares what its
// sidecars learned by pointing every sidecar's --learn-from at one
// exported file (Import keeps the larger weight, so repeated pulls are
// idempotent).
func (s *Store) Pull(ctx context.Context, src string) (int, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("pull learned state from %s: %s", src, resp.Status)
		}
		return s.Import(io.LimitReader(resp.Body, maxPullBytes))
	}
	f, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return s.Import(io.LimitReader(f, maxPullBytes))
}
