package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/internal/safefile"
)

// The cache file format (version 1), one file per (model ID, dimensions):
//
//	header:  magic "TSEMBCAC" | version uint32 | dims uint32 | len(model ID) uint32 | model ID
//	record:  key [32]byte | dims × float32 | CRC-32C of key and vector, uint32
//
// All integers and floats are little-endian. The key is the SHA-256 of the
// kind name, a NUL byte and the text. Records are appended after each batch
// of misses; since every record has the same size and its own checksum, a
// crash mid-write leaves at worst a partial last record (cut off at open) and
// a corrupted record is skipped without losing its neighbours. A header that
// does not match the embedder exactly (another model, another version) makes
// the file start afresh, so one model never reads another's vectors.
const (
	cacheMagic   = "TSEMBCAC"
	cacheVersion = 1
	// cacheFileExt ends every cache file name, e.g.
	// "builtin_wink-sg-100d_v1-100d-5e2a91c4.embcache".
	cacheFileExt = ".embcache"
	// cacheNameMax caps the sanitized model ID part of a file name (bytes);
	// the hash suffix keeps truncated names distinct.
	cacheNameMax = 64
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// CacheStats counts what a Cached embedder did since it was opened.
type CacheStats struct {
	// Hits is the number of texts answered without the inner embedder: from
	// the cache, or as a repeat of a text earlier in the same call.
	Hits uint64
	// Misses is the number of texts sent to the inner embedder.
	Misses uint64
	// Uncached is the number of texts passed straight to the inner embedder
	// because their kind is not cached (queries, unless CacheQueries).
	Uncached uint64
	// Entries is the number of vectors the cache holds.
	Entries int
	// Corrupted is the number of records of the file that failed their
	// checksum when it was opened, and TruncatedBytes the size of a partial
	// last record cut off then (a crash mid-write). Both were repaired.
	Corrupted      int
	TruncatedBytes int
	// Invalid is the number of records whose checksum was right but whose
	// vector was not usable (all-zero, NaN, infinite, not normalized): written
	// by a broken embedder or an older version. They were dropped from the
	// file, and their texts are embedded again when next asked for.
	Invalid int
	// SharedHits is the number of texts answered by the shared tier
	// (CacheShared), SharedInvalid the number of its vectors dropped as
	// unusable (and deleted from it), and SharedErrors the number of calls
	// to it that failed (the texts were then embedded here).
	SharedHits, SharedInvalid, SharedErrors uint64
}

// CacheOption configures NewCached.
type CacheOption func(*Cached)

// CacheQueries sets whether Query texts are cached too. By default only
// Document texts are: a catalog's tool texts are few, stable and costly to
// re-embed at every start-up, while queries are many, mostly unique, and
// already kept in the search engine's in-memory LRU; persisting them would
// grow the file without bound.
func CacheQueries(on bool) CacheOption {
	return func(c *Cached) { c.queries = on }
}

// CacheMaxBytes bounds the cache file read at start-up (n ≤ 0, the
// default: any size). A larger file is discarded unread, with a warning,
// and the cache starts afresh: opening reads the file whole and keeps its
// vectors, so it costs about twice the file's size for a moment. Give it
// what the memory budget allows.
func CacheMaxBytes(n int64) CacheOption {
	return func(c *Cached) { c.maxBytes = n }
}

// CacheLogger sets where the cache logs what it repaired or dropped when it
// opened its file; nil (the default) means slog.Default().
func CacheLogger(log *slog.Logger) CacheOption {
	return func(c *Cached) { c.log = log }
}

// Cached wraps an Embedder with a persistent cache keyed by (model ID,
// dimensions, kind, SHA-256 of the text): texts whose vectors are cached are
// not sent to the inner embedder; the misses of a call are embedded in one
// inner call (in order, each distinct text once) and appended to the cache
// file, so a restart re-embeds nothing that did not change.
//
// Cached is itself an Embedder and is safe for concurrent use. The inner
// call runs without holding the cache's lock, so two concurrent calls that
// miss the same text may both embed it; the result is the same.
type Cached struct {
	inner   Embedder
	dims    int
	model   string
	queries bool
	// maxBytes bounds the file read at start-up (CacheMaxBytes).
	maxBytes int64
	path     string // "" when in memory only
	log      *slog.Logger
	// repair counts what open repaired; read-only after NewCached.
	corrupted, truncated, invalid int

	mu       sync.Mutex
	entries  map[[32]byte][]float32
	file     *os.File // append handle; nil in memory, after Close, or after a write error
	writeErr error    // first error writing the file, reported by Flush and Close
	hits     uint64
	misses   uint64
	uncached uint64
	// shared is the second tier (CacheShared), nil without one; its
	// counters are guarded by mu.
	shared                                  SharedCache
	sharedHits, sharedInvalid, sharedErrors uint64
}

var _ Embedder = (*Cached)(nil)

// NewCached returns inner wrapped with a cache persisted in dir (created if
// needed), in the file CacheFileName(inner.ModelID(), inner.Dimensions()).
// dir "" keeps the cache in memory only. An existing file is loaded; a
// partial last record (a crash mid-write) is cut off, corrupted records are
// skipped, and a file written for another model or format is replaced by an
// empty one. inner must report positive dimensions and a non-empty model ID.
func NewCached(inner Embedder, dir string, opts ...CacheOption) (*Cached, error) {
	if inner == nil {
		return nil, errors.New("embedding cache: inner embedder is nil")
	}
	c := &Cached{
		inner:   inner,
		dims:    inner.Dimensions(),
		model:   inner.ModelID(),
		entries: make(map[[32]byte][]float32),
	}
	if c.dims <= 0 {
		return nil, fmt.Errorf("embedding cache: embedder %q reports %d dimensions; it must be positive", c.model, c.dims)
	}
	if c.model == "" {
		return nil, errors.New("embedding cache: embedder has an empty model ID, which the cache needs to tell models apart")
	}
	for _, o := range opts {
		o(c)
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if dir == "" {
		return c, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("embedding cache: create directory: %w", err)
	}
	c.path = filepath.Join(dir, CacheFileName(c.model, c.dims))
	if err := c.open(); err != nil {
		return nil, fmt.Errorf("embedding cache %s: %w", c.path, err)
	}
	return c, nil
}

// CacheFileName returns the name of the cache file for a model ID and
// dimensions: the model ID with every byte outside [A-Za-z0-9._-] replaced
// by '_' (cut to 64 bytes), the dimensions, and 8 hex digits of the model
// ID's SHA-256 so that IDs that sanitize alike stay apart. Example:
// CacheFileName("builtin:wink-sg-100d/v1", 100) is
// "builtin_wink-sg-100d_v1-100d-<8 hex>.embcache".
func CacheFileName(model string, dims int) string {
	var b strings.Builder
	for i := 0; i < len(model) && b.Len() < cacheNameMax; i++ {
		ch := model[i]
		switch {
		case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9', ch == '.', ch == '-', ch == '_':
			b.WriteByte(ch)
		default:
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(model))
	return fmt.Sprintf("%s-%dd-%x%s", b.String(), dims, sum[:4], cacheFileExt)
}

// Path returns the cache file's path, or "" when the cache is in memory only.
func (c *Cached) Path() string { return c.path }

// Dimensions returns the inner embedder's dimensions.
func (c *Cached) Dimensions() int { return c.dims }

// ModelID returns the inner embedder's model ID: caching does not change
// the vectors.
func (c *Cached) ModelID() string { return c.model }

// Stats returns the counters since the cache was opened.
func (c *Cached) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Uncached: c.uncached, Entries: len(c.entries),
		Corrupted: c.corrupted, TruncatedBytes: c.truncated, Invalid: c.invalid,
		SharedHits: c.sharedHits, SharedInvalid: c.sharedInvalid, SharedErrors: c.sharedErrors}
}

// Embed returns one vector per text, in order, as the inner embedder would.
// Cached texts are answered from memory; the others are embedded in a single
// inner call and added to the cache. Vectors are returned as fresh slices the
// caller may modify. An error from the inner embedder is returned unchanged
// and nothing is cached; so is an answer that fails validation (the wrong
// number or length of vectors, NaN or infinite values: ErrInvalidVector). An
// all-zero vector ("no signal") is returned but not cached, so a text the
// model could not embed is asked again next time. A failure to write the cache file does not fail
// Embed: the vectors stay cached in memory, further writes stop, and Flush
// and Close report the error.
func (c *Cached) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	if !c.caches(kind) {
		c.mu.Lock()
		c.uncached += uint64(len(texts))
		c.mu.Unlock()
		return c.inner.Embed(ctx, kind, texts)
	}

	out := make([][]float32, len(texts))
	keys := make([][32]byte, len(texts))
	var (
		missTexts []string
		missKeys  [][32]byte
		missAt    map[[32]byte]int // key → index in missTexts
	)
	c.mu.Lock()
	for i, t := range texts {
		keys[i] = cacheKey(kind, t)
		if v, ok := c.entries[keys[i]]; ok {
			out[i] = slices.Clone(v)
			c.hits++
			continue
		}
		if missAt == nil {
			missAt = make(map[[32]byte]int)
		}
		if _, dup := missAt[keys[i]]; dup {
			c.hits++
			continue
		}
		missAt[keys[i]] = len(missTexts)
		missTexts = append(missTexts, t)
		missKeys = append(missKeys, keys[i])
	}
	c.mu.Unlock()
	if len(missTexts) == 0 {
		return out, nil
	}

	vecs := make([][]float32, len(missTexts))
	innerAt := c.fromShared(ctx, missKeys, vecs)
	if len(innerAt) > 0 {
		texts := make([]string, len(innerAt))
		for k, j := range innerAt {
			texts[k] = missTexts[j]
		}
		computed, err := c.inner.Embed(ctx, kind, texts)
		if err != nil {
			return nil, err
		}
		if err := c.check(computed, len(texts)); err != nil {
			return nil, err
		}
		for k, j := range innerAt {
			vecs[j] = computed[k]
		}
		c.toShared(ctx, missKeys, vecs, innerAt)
	}

	c.mu.Lock()
	c.misses += uint64(len(innerAt))
	var rec []byte
	for j, k := range missKeys {
		if _, ok := c.entries[k]; ok {
			continue // a concurrent call cached it meanwhile
		}
		if isZero(vecs[j]) {
			continue // no signal: never cached
		}
		v := slices.Clone(vecs[j])
		c.entries[k] = v
		if c.file != nil {
			rec = appendRecord(rec, k, v)
		}
	}
	c.write(rec)
	c.mu.Unlock()

	for i := range out {
		if out[i] == nil {
			out[i] = slices.Clone(vecs[missAt[keys[i]]])
		}
	}
	return out, nil
}

// Flush forces records written so far to stable storage and returns the
// first error met writing the cache file, if any. It is a no-op for an
// in-memory cache.
func (c *Cached) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flush()
}

func (c *Cached) flush() error {
	if c.file != nil {
		if err := c.file.Sync(); err != nil && c.writeErr == nil {
			c.writeErr = fmt.Errorf("embedding cache %s: sync: %w", c.path, err)
		}
	}
	return c.writeErr
}

// Close flushes and closes the cache file. The Cached embedder keeps
// working afterwards, from memory and the inner embedder, but persists
// nothing more. Close is idempotent; it does not close the inner embedder.
func (c *Cached) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.flush()
	if c.file != nil {
		if cerr := c.file.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("embedding cache %s: close: %w", c.path, cerr)
		}
		c.file = nil
	}
	return err
}

// caches reports whether texts of kind are cached.
func (c *Cached) caches(kind Kind) bool {
	return kind == Document || (kind == Query && c.queries)
}

// check validates the inner embedder's answer before it is cached, so a
// misbehaving embedder cannot poison the cache file.
func (c *Cached) check(vecs [][]float32, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("embedding cache: embedder %q returned %d vectors for %d texts; nothing cached: %w: %w", c.model, len(vecs), n, ErrInvalidVector, ErrUnavailable)
	}
	for i, v := range vecs {
		if _, err := checkVector(v, c.dims); err != nil {
			return fmt.Errorf("embedding cache: embedder %q returned %v for text %d; nothing cached: %w: %w", c.model, err, i, ErrInvalidVector, ErrUnavailable)
		}
	}
	return nil
}

// cacheKey is the SHA-256 of the kind name, a NUL byte and the text.
func cacheKey(kind Kind, text string) [32]byte {
	h := sha256.New()
	h.Write([]byte(kind.String()))
	h.Write([]byte{0})
	h.Write([]byte(text))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// header returns the file header for this cache's model and dimensions.
func (c *Cached) header() []byte {
	h := []byte(cacheMagic)
	h = binary.LittleEndian.AppendUint32(h, cacheVersion)
	h = binary.LittleEndian.AppendUint32(h, uint32(c.dims))
	h = binary.LittleEndian.AppendUint32(h, uint32(len(c.model)))
	return append(h, c.model...)
}

// recordSize is the size in bytes of one record.
func (c *Cached) recordSize() int { return 32 + 4*c.dims + 4 }

func appendRecord(b []byte, key [32]byte, v []float32) []byte {
	start := len(b)
	b = append(b, key[:]...)
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable))
}

// open loads c.path into memory and opens it for appending, creating or
// replacing it (atomically) when it is missing or has another header. A
// file with corrupted records, a partial last record or invalid vectors is
// repaired: rewritten (atomically) with its good records only, and logged.
func (c *Cached) open() error {
	hdr := c.header()
	// Never a FIFO, a device, a link out of the directory or a file past
	// maxBytes: such a file is discarded unread and replaced.
	data, err := safefile.ReadFileIn(filepath.Dir(c.path), c.path, c.maxBytes)
	if errors.Is(err, safefile.ErrTooLarge) || errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrOutside) {
		c.log.Warn("embedding cache: discarding the file unread; starting it afresh", "path", c.path, "reason", err.Error())
		data, err = nil, fs.ErrNotExist
	}
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !bytes.HasPrefix(data, hdr)) {
		if err == nil && len(data) > 0 {
			c.log.Warn("embedding cache: the file was written for another model or format; starting it afresh",
				"path", c.path, "model", c.model, "dimensions", c.dims)
		}
		if err := c.create(hdr, nil); err != nil {
			return err
		}
		data = hdr
	} else if err != nil {
		return err
	}

	size := c.recordSize()
	body := data[len(hdr):]
	n := len(body) / size
	c.truncated = len(body) - n*size
	slab := make([]float32, n*c.dims)
	var good [][]byte // records kept, when some are dropped
	for i := range n {
		rec := body[i*size : (i+1)*size]
		if binary.LittleEndian.Uint32(rec[size-4:]) != crc32.Checksum(rec[:size-4], crcTable) {
			c.corrupted++ // corrupted record: skip it, keep the others
			continue
		}
		v := slab[i*c.dims : (i+1)*c.dims : (i+1)*c.dims]
		for j := range v {
			v[j] = math.Float32frombits(binary.LittleEndian.Uint32(rec[32+4*j:]))
		}
		if checkCachedVector(v, c.dims) != nil {
			c.invalid++ // poisoned: drop it, its text is embedded again
			continue
		}
		c.entries[[32]byte(rec[:32])] = v
		good = append(good, rec)
	}

	if c.corrupted > 0 || c.invalid > 0 {
		// Rewrite the file with the good records only, so that the bad ones
		// are not read (and logged) again at every start-up.
		if err := c.create(hdr, good); err != nil {
			return err
		}
		c.log.Warn("embedding cache: repaired the file; the dropped vectors are embedded again when needed",
			"path", c.path, "kept", len(good), "corrupted_records", c.corrupted, "invalid_vectors", c.invalid,
			"partial_record_bytes", c.truncated)
	}
	f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if c.corrupted == 0 && c.invalid == 0 && c.truncated > 0 {
		// A partial record at the end (a crash mid-write): cut it off so
		// the next record starts on a record boundary.
		if err := f.Truncate(int64(len(hdr) + n*size)); err != nil {
			f.Close()
			return err
		}
		c.log.Warn("embedding cache: cut off a partial last record (the sidecar stopped while writing it)",
			"path", c.path, "bytes", c.truncated, "kept", n)
	}
	c.file = f
	return nil
}

// create writes a file holding hdr and the records recs to a temporary name
// and renames it over c.path, so a crash never leaves a half-written file
// behind.
func (c *Cached) create(hdr []byte, recs [][]byte) error {
	dir := filepath.Dir(c.path)
	tmp, err := os.CreateTemp(dir, filepath.Base(c.path)+".tmp*")
	if err != nil {
		return err
	}
	buf := slices.Concat(append([][]byte{hdr}, recs...)...)
	_, err = tmp.Write(buf)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if d, err := os.Open(dir); err == nil { // persist the rename; best effort
		d.Sync()
		d.Close()
	}
	return nil
}

// write appends rec to the file; the first error stops further writes.
// c.mu must be held.
func (c *Cached) write(rec []byte) {
	if len(rec) == 0 || c.file == nil {
		return
	}
	if _, err := c.file.Write(rec); err != nil {
		c.writeErr = fmt.Errorf("embedding cache %s: write: %w", c.path, err)
		c.file.Close()
		c.file = nil
	}
}
