package embed_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
)

const testModel = "fake:test/v1"

// tools is a small catalog of tool texts.
var tools = []string{
	"slack send message: Send a message to a Slack channel or user",
	"github create issue: Open an issue in a repository",
	"weather get forecast: Get the weather forecast for a city",
	"calendar list events: List upcoming calendar events",
	"files read: Read a file from the workspace",
}

// counting returns a fresh counting fake with the given model and dims.
func counting(model string, dims int) *embedtest.Counting {
	return &embedtest.Counting{Inner: &embedtest.Fake{Model: model, Dims: dims}}
}

// open wraps inner in a cache over dir and closes it at the end of the test.
func open(t *testing.T, inner embed.Embedder, dir string, opts ...embed.CacheOption) *embed.Cached {
	t.Helper()
	c, err := embed.NewCached(inner, dir, opts...)
	if err != nil {
		t.Fatalf("NewCached: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// embedDocs embeds texts as documents and checks the vectors against the
// fake's.
func embedDocs(t *testing.T, c *embed.Cached, texts []string) {
	t.Helper()
	got, err := c.Embed(context.Background(), embed.Document, texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	fake := &embedtest.Fake{Model: c.ModelID(), Dims: c.Dimensions()}
	want := make([][]float32, len(texts))
	for i, s := range texts {
		want[i] = fake.Vector(embed.Document, s)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Embed vectors (-want +got):\n%s", diff)
	}
}

// warm embeds tools into a fresh cache in dir and closes it.
func warm(t *testing.T, dir string) {
	t.Helper()
	c, err := embed.NewCached(counting(testModel, 16), dir)
	if err != nil {
		t.Fatal(err)
	}
	embedDocs(t, c, tools)
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// cacheFile returns the single cache file in dir.
func cacheFile(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.embcache"))
	if err != nil || len(m) != 1 {
		t.Fatalf("cache files in %s: %v, %v; want exactly one", dir, m, err)
	}
	return m[0]
}

func TestCachedRestart(t *testing.T) {
	recordSize := int64(32 + 4*16 + 4)
	changed := slicesWith(tools, 2, "weather get forecast: Get the 7-day forecast for a city")
	tests := []struct {
		name string
		// damage is applied to the warm cache directory before reopening.
		damage    func(t *testing.T, dir string)
		model     string
		dims      int
		texts     []string
		wantInner []string // texts that must reach the inner embedder
		wantLog   string   // a message the cache must log when it opens
		opts      []embed.CacheOption
	}{
		{
			name:      "warm restart embeds nothing",
			texts:     tools,
			wantInner: nil,
		},
		{
			name:      "one changed text is embedded alone",
			texts:     changed,
			wantInner: []string{changed[2]},
		},
		{
			name:      "new text is embedded alone",
			texts:     append(slicesWith(tools, 0, tools[0]), "jira close ticket: Close a Jira ticket"),
			wantInner: []string{"jira close ticket: Close a Jira ticket"},
		},
		{
			name:      "another model reuses nothing",
			model:     "fake:other/v1",
			texts:     tools,
			wantInner: tools,
		},
		{
			name:      "same model, other dimensions, reuses nothing",
			dims:      8,
			texts:     tools,
			wantInner: tools,
		},
		{
			name: "truncated tail: last record re-embedded",
			damage: func(t *testing.T, dir string) {
				f := cacheFile(t, dir)
				st, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(f, st.Size()-recordSize/2); err != nil {
					t.Fatal(err)
				}
			},
			texts:     tools,
			wantInner: tools[len(tools)-1:],
			wantLog:   "embedding cache: cut off a partial last record",
		},
		{
			name: "corrupted record: only it is re-embedded",
			damage: func(t *testing.T, dir string) {
				f := cacheFile(t, dir)
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				hdr := int64(len(b)) - recordSize*int64(len(tools))
				b[hdr+recordSize+40] ^= 0xff // inside record 1's vector
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			texts:     tools,
			wantInner: tools[1:2],
			wantLog:   `"msg":"embedding cache: repaired the file; the dropped vectors are embedded again when needed","path":`,
		},
		{
			name: "foreign header: file starts afresh",
			damage: func(t *testing.T, dir string) {
				f := cacheFile(t, dir)
				if err := os.WriteFile(f, []byte("not a cache file at all"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			texts:     tools,
			wantInner: tools,
			wantLog:   "embedding cache: the file was written for another model or format",
		},
		{
			name: "a 2 GB sparse file past CacheMaxBytes: discarded unread",
			damage: func(t *testing.T, dir string) {
				if err := os.Truncate(cacheFile(t, dir), 2<<30); err != nil {
					t.Skip("no sparse files here:", err)
				}
			},
			opts:      []embed.CacheOption{embed.CacheMaxBytes(1 << 20)},
			texts:     tools,
			wantInner: tools,
			wantLog:   "embedding cache: discarding the file unread; starting it afresh",
		},
		{
			name: "a link to /dev/zero: discarded unread",
			damage: func(t *testing.T, dir string) {
				f := cacheFile(t, dir)
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("/dev/zero", f); err != nil {
					t.Skip("no symbolic links here:", err)
				}
			},
			texts:     tools,
			wantInner: tools,
			wantLog:   "embedding cache: discarding the file unread; starting it afresh",
		},
		{
			name: "a FIFO: discarded unread, not waited on",
			damage: func(t *testing.T, dir string) {
				f := cacheFile(t, dir)
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(f, 0o600); err != nil {
					t.Skip("no named pipes here:", err)
				}
			},
			texts:     tools,
			wantInner: tools,
			wantLog:   "embedding cache: discarding the file unread; starting it afresh",
		},
		{
			name: "empty file: starts afresh",
			damage: func(t *testing.T, dir string) {
				if err := os.WriteFile(cacheFile(t, dir), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			texts:     tools,
			wantInner: tools,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			warm(t, dir)
			if tt.damage != nil {
				tt.damage(t, dir)
			}
			model, dims := testModel, 16
			if tt.model != "" {
				model = tt.model
			}
			if tt.dims != 0 {
				dims = tt.dims
			}

			inner := counting(model, dims)
			var log bytes.Buffer
			c := open(t, inner, dir, append(tt.opts, embed.CacheLogger(slog.New(slog.NewJSONHandler(&log, nil))))...)
			if tt.wantLog != "" && !strings.Contains(log.String(), tt.wantLog) {
				t.Errorf("log lacks %q:\n%s", tt.wantLog, log.String())
			}
			if tt.wantLog == "" && log.Len() != 0 {
				t.Errorf("log %q, want nothing", log.String())
			}
			embedDocs(t, c, tt.texts)
			if diff := cmp.Diff(tt.wantInner, inner.Seen()); diff != "" {
				t.Errorf("texts sent to the inner embedder (-want +got):\n%s", diff)
			}
			if err := c.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}

			// Whatever was lost is back: a third open embeds nothing.
			again := counting(model, dims)
			c2 := open(t, again, dir)
			embedDocs(t, c2, tt.texts)
			if n := again.Texts(); n != 0 {
				t.Errorf("after repair: %d texts re-embedded, want 0 (%q)", n, again.Seen())
			}
		})
	}
}

// slicesWith returns a copy of s with s[i] = v.
func slicesWith(s []string, i int, v string) []string {
	out := append([]string(nil), s...)
	out[i] = v
	return out
}

func TestCachedStats(t *testing.T) {
	inner := counting(testModel, 16)
	c := open(t, inner, "") // in memory
	ctx := context.Background()

	embedDocs(t, c, []string{"a", "b", "a"}) // "a" twice: embedded once
	embedDocs(t, c, []string{"b", "c"})
	if _, err := c.Embed(ctx, embed.Query, []string{"q1", "q1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(ctx, embed.Query, []string{"q1"}); err != nil {
		t.Fatal(err)
	}
	want := embed.CacheStats{Hits: 2, Misses: 3, Uncached: 3, Entries: 3}
	if diff := cmp.Diff(want, c.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "q1", "q1", "q1"}, inner.Seen()); diff != "" {
		t.Errorf("inner texts (-want +got):\n%s", diff)
	}
	if c.Path() != "" {
		t.Errorf("Path = %q, want \"\" for an in-memory cache", c.Path())
	}
}

func TestCachedQueries(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	inner := counting(testModel, 16)
	c := open(t, inner, dir, embed.CacheQueries(true))
	q, err := c.Embed(ctx, embed.Query, []string{"send a slack message"})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()

	again := counting(testModel, 16)
	c2 := open(t, again, dir, embed.CacheQueries(true))
	q2, err := c2.Embed(ctx, embed.Query, []string{"send a slack message"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(q, q2); diff != "" {
		t.Errorf("cached query vector (-first +second):\n%s", diff)
	}
	if again.Texts() != 0 {
		t.Errorf("query re-embedded %d times, want 0", again.Texts())
	}
	// A query and a document with the same text are different keys.
	d, err := c2.Embed(ctx, embed.Document, []string{"send a slack message"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Texts() != 1 || cmp.Equal(q, d) {
		t.Errorf("document with a query's text: %d inner texts (want 1), equal vectors %v (want false)", again.Texts(), cmp.Equal(q, d))
	}
}

func TestCachedReturnsCopies(t *testing.T) {
	c := open(t, counting(testModel, 4), "")
	ctx := context.Background()
	for range 2 { // once from the inner embedder, once from the cache
		v, err := c.Embed(ctx, embed.Document, []string{"x", "x"})
		if err != nil {
			t.Fatal(err)
		}
		v[0][0], v[1][1] = 42, 42
	}
	embedDocs(t, c, []string{"x"})
}

// badEmbedder returns what it is told to, whatever the input.
type badEmbedder struct {
	vecs [][]float32
	err  error
}

func (b *badEmbedder) Embed(context.Context, embed.Kind, []string) ([][]float32, error) {
	return b.vecs, b.err
}
func (b *badEmbedder) Dimensions() int { return 2 }
func (b *badEmbedder) ModelID() string { return "bad" }

func TestCachedInnerFailures(t *testing.T) {
	errDown := errors.New("embedder down")
	tests := []struct {
		name    string
		inner   *badEmbedder
		wantErr string
	}{
		{"inner error is returned unchanged", &badEmbedder{err: errDown}, "embedder down"},
		{"too few vectors", &badEmbedder{vecs: [][]float32{{1, 0}}}, "returned 1 vectors for 2 texts"},
		{"wrong dimensions", &badEmbedder{vecs: [][]float32{{1, 0}, {1, 0, 0}}}, "3-dimension vector, want 2"},
		{"NaN", &badEmbedder{vecs: [][]float32{{1, 0}, {float32(nanValue()), 0}}}, "NaN"},
		{"Inf", &badEmbedder{vecs: [][]float32{{float32(math.Inf(1)), 0}, {1, 0}}}, "infinite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c := open(t, tt.inner, dir)
			got, err := c.Embed(context.Background(), embed.Document, []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Fatalf("Embed = %v, %v; want nil and an error containing %q", got, err, tt.wantErr)
			}
			if tt.inner.err != nil && !errors.Is(err, tt.inner.err) {
				t.Errorf("error %v does not wrap the inner error", err)
			}
			if tt.inner.err == nil && (!errors.Is(err, embed.ErrInvalidVector) || !errors.Is(err, embed.ErrUnavailable)) {
				t.Errorf("error %v does not wrap ErrInvalidVector and ErrUnavailable", err)
			}
			if b, _ := os.ReadFile(cacheFile(t, dir)); len(b) != headerSize("bad", 2) {
				t.Errorf("cache file is %d bytes after a failed call, want the %d-byte header alone", len(b), headerSize("bad", 2))
			}
			if s := c.Stats(); s.Entries != 0 {
				t.Errorf("Entries = %d after a failed call, want 0", s.Entries)
			}
		})
	}
}

// headerSize is the size of a cache file header (magic, version, dims,
// model ID length, model ID).
func headerSize(model string, dims int) int { return 8 + 4 + 4 + 4 + len(model) }

// TestCachedZeroVectorNotCached: a zero vector ("no signal") is returned but
// neither kept nor written, so the text is asked again, after a restart too.
func TestCachedZeroVectorNotCached(t *testing.T) {
	dir := t.TempDir()
	inner := &badEmbedder{vecs: [][]float32{{0, 0}, {0.6, 0.8}}}
	c := open(t, inner, dir)
	got, err := c.Embed(context.Background(), embed.Document, []string{"unknown words", "known words"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{{0, 0}, {0.6, 0.8}}, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	if s := c.Stats(); s.Entries != 1 {
		t.Errorf("Entries = %d, want 1 (the zero vector is not cached)", s.Entries)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cacheFile(t, dir)); len(b) != headerSize("bad", 2)+32+2*4+4 {
		t.Errorf("cache file is %d bytes, want the header and one record", len(b))
	}
}

// poison overwrites record i of the cache file in dir with vector v and a
// valid checksum, as a broken embedder (or an older version that cached
// whatever the embedder answered) would have written it.
func poison(t *testing.T, dir string, i int, v []float32) {
	t.Helper()
	f := cacheFile(t, dir)
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	size := 32 + 4*len(v) + 4
	rec := b[headerSize(testModel, len(v))+i*size:][:size]
	for j, x := range v {
		binary.LittleEndian.PutUint32(rec[32+4*j:], math.Float32bits(x))
	}
	binary.LittleEndian.PutUint32(rec[size-4:], crc32.Checksum(rec[:size-4], crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCachedDropsInvalidRecords: records with a valid checksum but an
// unusable vector (zero, NaN, infinite, not normalized) are dropped when the
// file is opened, logged, removed from the file, and their texts embedded
// again; the other records are kept.
func TestCachedDropsInvalidRecords(t *testing.T) {
	unnormalized := make([]float32, 16)
	unnormalized[0] = 3
	nan := make([]float32, 16)
	nan[3] = float32(nanValue())
	inf := make([]float32, 16)
	inf[0] = float32(math.Inf(-1))
	tests := []struct {
		name string
		v    []float32
	}{
		{"all-zero", make([]float32, 16)},
		{"NaN", nan},
		{"infinite", inf},
		{"not normalized", unnormalized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			warm(t, dir)
			poison(t, dir, 3, tt.v)
			before, _ := os.Stat(cacheFile(t, dir))

			var log bytes.Buffer
			inner := counting(testModel, 16)
			c := open(t, inner, dir, embed.CacheLogger(slog.New(slog.NewJSONHandler(&log, nil))))
			if s := c.Stats(); s.Invalid != 1 || s.Entries != len(tools)-1 {
				t.Errorf("Stats() = %+v, want Invalid 1 and %d entries", s, len(tools)-1)
			}
			if !strings.Contains(log.String(), `"msg":"embedding cache: repaired the file`) || !strings.Contains(log.String(), `"invalid_vectors":1`) {
				t.Errorf("log lacks the repair with invalid_vectors 1:\n%s", log.String())
			}
			after, _ := os.Stat(cacheFile(t, dir))
			if after.Size() != before.Size()-int64(32+4*16+4) {
				t.Errorf("file is %d bytes after the repair, want %d (the bad record removed)", after.Size(), before.Size()-int64(32+4*16+4))
			}
			embedDocs(t, c, tools)
			if diff := cmp.Diff(tools[3:4], inner.Seen()); diff != "" {
				t.Errorf("texts re-embedded (-want +got):\n%s", diff)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}

			// Repaired for good: the next open logs nothing and embeds nothing.
			log.Reset()
			again := counting(testModel, 16)
			c2 := open(t, again, dir, embed.CacheLogger(slog.New(slog.NewJSONHandler(&log, nil))))
			embedDocs(t, c2, tools)
			if n := again.Texts(); n != 0 || log.Len() != 0 {
				t.Errorf("second open: %d texts re-embedded, log %q; want none", n, log.String())
			}
		})
	}
}

func nanValue() float64 {
	var zero float64
	return zero / zero
}

func TestNewCachedErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		inner embed.Embedder
		dir   string
	}{
		{"nil embedder", nil, ""},
		{"zero dimensions", &embedtest.Fake{Model: "m", Dims: 0}, ""},
		{"empty model ID", &embedtest.Fake{Model: "", Dims: 4}, ""},
		{"directory is a file", &embedtest.Fake{Model: "m", Dims: 4}, file},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, err := embed.NewCached(tt.inner, tt.dir); err == nil {
				c.Close()
				t.Errorf("NewCached succeeded, want an error")
			}
		})
	}
}

func TestNewCachedCreatesDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	c := open(t, counting(testModel, 4), dir)
	embedDocs(t, c, tools)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Path(), filepath.Join(dir, embed.CacheFileName(testModel, 4)); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
	if _, err := os.Stat(c.Path()); err != nil {
		t.Error(err)
	}
}

func TestCacheFileName(t *testing.T) {
	tests := []struct {
		model      string
		dims       int
		wantPrefix string
	}{
		{"builtin:wink-sg-100d/v1", 100, "builtin_wink-sg-100d_v1-100d-"},
		{"ollama:nomic-embed-text:latest@0a109f422b47", 768, "ollama_nomic-embed-text_latest_0a109f422b47-768d-"},
		{"../../etc/passwd", 4, ".._.._etc_passwd-4d-"},
		{strings.Repeat("x", 200), 4, strings.Repeat("x", 64) + "-4d-"},
	}
	for _, tt := range tests {
		got := embed.CacheFileName(tt.model, tt.dims)
		if !strings.HasPrefix(got, tt.wantPrefix) || !strings.HasSuffix(got, ".embcache") || strings.ContainsAny(got, `/\:`) {
			t.Errorf("CacheFileName(%q, %d) = %q, want %q + 8 hex digits + .embcache", tt.model, tt.dims, got, tt.wantPrefix)
		}
	}
	if a, b := embed.CacheFileName("a:b", 4), embed.CacheFileName("a_b", 4); a == b {
		t.Errorf("model IDs that sanitize alike share the file %q", a)
	}
}

// TestCachedConcurrent embeds overlapping batches from many goroutines;
// run with -race.
func TestCachedConcurrent(t *testing.T) {
	dir := t.TempDir()
	inner := counting(testModel, 16)
	c := open(t, inner, dir)
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = fmt.Sprintf("tool %d: does thing %d", i, i)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; i+10 <= len(texts); i += 5 {
				batch := texts[(i+g)%31 : (i+g)%31+10]
				got, err := c.Embed(context.Background(), embed.Document, batch)
				if err != nil {
					t.Error(err)
					return
				}
				fake := &embedtest.Fake{Model: testModel, Dims: 16}
				for j, s := range batch {
					if !cmp.Equal(got[j], fake.Vector(embed.Document, s)) {
						t.Errorf("vector for %q is wrong", s)
					}
				}
			}
			_ = c.Stats()
		})
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	again := counting(testModel, 16)
	c2 := open(t, again, dir)
	embedDocs(t, c2, texts)
	if n := again.Texts(); n != 0 {
		t.Errorf("after concurrent warm-up: %d texts re-embedded, want 0", n)
	}
}
