package learn

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/toolsearch/toolsearch/internal/safefile"
)

// Pull imports the learned state at src — an http(s) URL or a file path —
// into s and returns what it imported: bad lines are skipped and counted
// (Import), at most MaxFileBytes are read (lines one at a time: memory
// stays bounded whatever the source sends), and a file must be a regular
// file. ctx bounds the whole pull, body included: give it a deadline, a
// source that trickles a byte a second is otherwise waited on. A fleet
// shares what its sidecars learned by pointing every sidecar's
// --learn-from at one exported file (Import keeps the larger weight, so
// repeated pulls are idempotent).
func (s *Store) Pull(ctx context.Context, src string) (ImportStats, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return ImportStats{}, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return ImportStats{}, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return ImportStats{}, fmt.Errorf("pull learned state from %s: %s", src, resp.Status)
		}
		return s.Import(io.LimitReader(resp.Body, MaxFileBytes))
	}
	f, _, err := safefile.Open(src, 0)
	if err != nil {
		return ImportStats{}, err
	}
	defer f.Close()
	return s.Import(io.LimitReader(f, MaxFileBytes))
}
