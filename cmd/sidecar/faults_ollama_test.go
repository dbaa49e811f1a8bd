package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
)

// Fault modes of embedProxy: each rewrites the real Ollama's /api/embed
// answer, so the sidecar talks to a real server whose answers go bad.
const (
	// faultZero answers every text with an all-zero vector.
	faultZero = "zero"
	// faultNaN answers with NaN values (which Ollama itself never sends:
	// JSON has no NaN, so the client fails to decode the answer).
	faultNaN = "nan"
	// faultConstant answers every text with the first text's vector.
	faultConstant = "constant"
	// faultDown answers 500, as an Ollama that lost its model runner does.
	faultDown = "down"
)

// setFault makes the proxy corrupt /api/embed answers from now on; "" stops.
func (p *embedProxy) setFault(mode string) {
	p.mu.Lock()
	p.fault = mode
	p.mu.Unlock()
}

// corrupt is the reverse proxy's ModifyResponse: it rewrites a successful
// /api/embed answer according to the fault mode.
func (p *embedProxy) corrupt(resp *http.Response) error {
	p.mu.Lock()
	mode := p.fault
	p.mu.Unlock()
	if mode == "" || resp.Request.URL.Path != "/api/embed" || resp.StatusCode != http.StatusOK {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if mode == faultDown {
		out := []byte(`{"error":"fault proxy: llama runner process has terminated"}`)
		resp.StatusCode, resp.Status = http.StatusInternalServerError, "500 Internal Server Error"
		resp.Body = io.NopCloser(bytes.NewReader(out))
		resp.ContentLength = int64(len(out))
		resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
		return nil
	}
	var answer map[string]any
	if err := json.Unmarshal(body, &answer); err != nil {
		return fmt.Errorf("fault proxy: /api/embed answer is not JSON: %w", err)
	}
	embs, _ := answer["embeddings"].([]any)
	for i, e := range embs {
		v := e.([]any)
		for j := range v {
			switch mode {
			case faultZero:
				v[j] = 0
			case faultNaN:
				v[j] = "NaN" // replaced by a bare NaN below
			case faultConstant:
				v[j] = embs[0].([]any)[j]
			}
		}
		embs[i] = v
	}
	out, err := json.Marshal(answer)
	if err != nil {
		return err
	}
	if mode == faultNaN {
		out = bytes.ReplaceAll(out, []byte(`"NaN"`), []byte(`NaN`))
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}

// cacheRecords returns the number of whole records in the embedding cache
// file of dir, whose header names model and which holds dims-dimension
// vectors (embed's file format: a 20-byte header plus the model ID, then
// records of a 32-byte key, the vector and a 4-byte checksum).
func cacheRecords(t *testing.T, dir, model string, dims int) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.embcache"))
	if err != nil || len(files) != 1 {
		t.Fatalf("cache files in %s: %v, %v; want one", dir, files, err)
	}
	st, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return int(st.Size()-int64(20+len(model))) / (32 + 4*dims + 4)
}

// waitIndexState polls CatalogInfo until the index is in state want.
func (s *testSidecar) waitIndexState(t *testing.T, want toolsearchv1.IndexState) *toolsearchv1.GetCatalogInfoResponse {
	t.Helper()
	start := time.Now()
	for {
		info, err := s.c.CatalogInfo(t.Context())
		if err != nil {
			t.Fatalf("CatalogInfo: %v", err)
		}
		if info.GetIndexState() == want {
			return info
		}
		if time.Since(start) > indexTimeout {
			t.Fatalf("index_state %v after %v, want %v; log:\n%s", info.GetIndexState(), indexTimeout, want, s.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestOllamaSidecarPoisonedVectors: a fault-injecting proxy in front of the
// real Ollama answers every embedding with zeros (NaN, one vector for
// everything): the sidecar reports the embedder unhealthy (index DEGRADED,
// searches fall back with embedder_unavailable) and caches nothing; once the
// proxy turns healthy, semantic search returns by itself, the cache fills,
// and a restart reuses it.
func TestOllamaSidecarPoisonedVectors(t *testing.T) {
	srv := startOllamaWithModel(t)
	for _, mode := range []string{faultZero, faultNaN, faultConstant} {
		t.Run(mode, func(t *testing.T) {
			proxy := newEmbedProxy(t, srv.Addr)
			proxy.setFault(mode)
			cacheDir := t.TempDir()
			args := ollamaArgs(proxy.addr(), "--cache-dir", cacheDir, "--query-timeout", queryTimeout)
			sc := startSidecar(t, args...)

			info := sc.waitIndexState(t, toolsearchv1.IndexState_INDEX_STATE_DEGRADED)
			if info.GetIndexedTools() != 0 {
				t.Errorf("poisoned: %d tools indexed, want 0", info.GetIndexedTools())
			}
			model, dims := info.GetEmbedder(), int(info.GetEmbeddingDimensions())
			if model == "" || dims == 0 {
				t.Fatalf("poisoned: embedder %q with %d dimensions; want the connected model", model, dims)
			}
			if n := cacheRecords(t, cacheDir, model, dims); n != 0 {
				t.Errorf("poisoned: the cache holds %d vectors, want 0", n)
			}
			// The indexer stores DEGRADED as it logs why, and the log
			// reaches the test through the sidecar's stderr pipe: wait for
			// the warning rather than read the log at once (a hang guard,
			// not a verdict).
			testenv.WaitFor(t, "the indexer's warning in the log", func() bool {
				return strings.Contains(sc.stderr.String(), `"msg":"embedding the catalog failed; lexical search answers meanwhile"`)
			})
			q := semanticQueries[0]
			resp := sc.search(t, q.query)
			if md := resp.GetSearchMetadata(); md.GetFallbackReason() != "embedder_unavailable" {
				t.Errorf("poisoned: %q answered %s with fallback_reason %q, want embedder_unavailable", q.query, md.GetSearchType(), md.GetFallbackReason())
			}

			proxy.setFault("")
			healed := time.Now()
			info, _ = sc.waitIndexed(t)
			t.Logf("%s: index ready %v after the proxy turned healthy", mode, time.Since(healed).Round(time.Millisecond))
			for _, q := range semanticQueries {
				checkSemantic(t, sc.search(t, q.query), q.want)
			}
			if n := cacheRecords(t, cacheDir, model, dims); n < int(info.GetToolCount()) {
				t.Errorf("healthy: the cache holds %d vectors, want at least the %d tools", n, info.GetToolCount())
			}
			sc.stop(t)

			// A restart over the same cache embeds no document: what was
			// cached is the healthy vectors, and nothing had to be deleted.
			proxy.reset()
			sc = startSidecar(t, args...)
			sc.waitIndexed(t)
			if n := documentInputs(proxy.embedCalls()); n != 0 {
				t.Errorf("restart: %d document texts embedded, want 0 (all from the cache)", n)
			}
			checkSemantic(t, sc.search(t, q.query), q.want)
			if strings.Contains(sc.stderr.String(), "embedding cache: repaired") {
				t.Errorf("restart: the cache needed a repair:\n%s", sc.stderr.String())
			}
		})
	}
}

// TestOllamaSidecarOutageWarningsRateLimited: while Ollama fails every
// query embedding, each search answers with keyword results, and the
// sidecar writes at most logRepeatBurst warnings about it per window, not
// one per search.
func TestOllamaSidecarOutageWarningsRateLimited(t *testing.T) {
	srv := startOllamaWithModel(t)
	proxy := newEmbedProxy(t, srv.Addr)
	sc := startSidecar(t, ollamaArgs(proxy.addr(), "--query-timeout", queryTimeout)...)
	sc.waitIndexed(t)

	proxy.setFault(faultDown)
	start := time.Now()
	const searches = 12
	for i := range searches {
		// A new query each time: answered query vectors are kept.
		resp := sc.search(t, fmt.Sprintf("send a message number %d", i))
		if r := resp.GetSearchMetadata().GetFallbackReason(); r != "embedder_unavailable" {
			t.Errorf("search %d with Ollama failing: fallback_reason %q, want embedder_unavailable", i, r)
		}
	}
	const warn = `"msg":"embedding a query failed; answering with keyword search"`
	n := strings.Count(sc.stderr.String(), warn)
	elapsed := time.Since(start)
	// logRepeatBurst per window begun; one window on any machine but a
	// very loaded one (12 searches take ≈ 4 s: each retries twice).
	most := logRepeatBurst * (int(elapsed/logRepeatWindow) + 1)
	if n < 1 || n > most || most >= searches {
		t.Errorf("%d searches in %v wrote %d warnings, want 1 to %d (and fewer than one per search):\n%s", searches, elapsed.Round(time.Millisecond), n, most, sc.stderr.String())
	}
	t.Logf("%d searches with Ollama failing wrote %d warnings in %v", searches, n, time.Since(start).Round(time.Millisecond))
}

// poisonCache overwrites every vector of the cache file in dir with zeros
// under a valid checksum: the file an older sidecar left after caching a
// broken Ollama's answers (the repro).
func poisonCache(t *testing.T, dir, model string, dims int) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.embcache"))
	if len(files) != 1 {
		t.Fatalf("cache files in %s: %v, want one", dir, files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	size := 32 + 4*dims + 4
	n := 0
	for off := 20 + len(model); off+size <= len(b); off += size {
		rec := b[off : off+size]
		clear(rec[32 : size-4])
		binary.LittleEndian.PutUint32(rec[size-4:], crc32.Checksum(rec[:size-4], crc32.MakeTable(crc32.Castagnoli)))
		n++
	}
	if err := os.WriteFile(files[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOllamaSidecarPoisonedCacheRepaired: a cache holding all-zero vectors
// (left by a version that cached whatever Ollama answered) is repaired at
// start-up: the bad vectors are dropped and logged, the catalog is embedded
// again through the healthy Ollama, and semantic search works — without
// anyone deleting the cache.
func TestOllamaSidecarPoisonedCacheRepaired(t *testing.T) {
	srv := startOllamaWithModel(t)
	proxy := newEmbedProxy(t, srv.Addr)
	cacheDir := t.TempDir()
	args := ollamaArgs(proxy.addr(), "--cache-dir", cacheDir, "--query-timeout", queryTimeout)
	sc := startSidecar(t, args...)
	info, _ := sc.waitIndexed(t)
	sc.stop(t)
	n := poisonCache(t, cacheDir, info.GetEmbedder(), int(info.GetEmbeddingDimensions()))
	// The older sidecar saved no vector index (this one saves the built
	// graph beside the cache and would start from it).
	saved, _ := filepath.Glob(filepath.Join(cacheDir, "index-*.bin"))
	if len(saved) != 1 {
		t.Fatalf("saved vector index files: %v, want one", saved)
	}
	if err := os.Remove(saved[0]); err != nil {
		t.Fatal(err)
	}

	proxy.reset()
	sc = startSidecar(t, args...)
	sc.waitIndexed(t)
	log := sc.stderr.String()
	if !strings.Contains(log, `"msg":"embedding cache: repaired the file`) || !strings.Contains(log, fmt.Sprintf(`"invalid_vectors":%d`, n)) {
		t.Errorf("log lacks the repair of %d invalid vectors:\n%s", n, log)
	}
	if got := documentInputs(proxy.embedCalls()); got < int(info.GetToolCount()) {
		t.Errorf("after the repair %d documents were embedded again, want the %d tools", got, info.GetToolCount())
	}
	for _, q := range semanticQueries {
		checkSemantic(t, sc.search(t, q.query), q.want)
	}
}
