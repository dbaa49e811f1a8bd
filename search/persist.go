package search

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/internal/safefile"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// A built vector index is saved in Config.IndexDir and loaded on the next
// start, so that a restart does not rebuild the graph: at 100k tools the
// build takes ~46 s and loading the saved index ~0.5 s
// (docs/benchmarks.md). The file holds the index (vectorindex's own
// versioned, checksummed format) after a header naming the model, the
// common component the vectors were projected with, and which tool text
// each vector ID embeds. On load, tools whose text is unchanged get their
// vector back; the others are embedded as usual, and vectors no tool has
// any more are deleted. A file that does not fit (another model or
// dimension, corrupt, truncated) is ignored with a log line, and the index
// is built as if there were none.

// indexFileMagic starts an index file; indexFileVersion is its layout.
const (
	indexFileMagic   = "toolsearch-index\n"
	indexFileVersion = 1
)

// indexMeta is the header of an index file.
type indexMeta struct {
	Version int    `json:"version"`
	Model   string `json:"model"`
	Dims    int    `json:"dims"`
	// PC is the common component removed from every vector.
	PC []float32 `json:"pc,omitempty"`
	// Next is the next free vector ID.
	Next int32 `json:"next"`
	// Texts maps a vector ID to the SHA-256 of the document text it embeds.
	Texts map[int32]string `json:"texts"`
}

// indexFile is the path of the index file for a model.
func indexFile(dir, model string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, model)
	return filepath.Join(dir, "index-"+safe+".bin")
}

func textHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// saveIndex writes the current state's vector index to Config.IndexDir,
// atomically (a temporary file renamed into place). Callers hold e.mu, so
// the index holds exactly the state's vectors.
func (e *Engine) saveIndex(st *state) error {
	if e.cfg.IndexDir == "" || st.sem == nil {
		return nil
	}
	meta := indexMeta{
		Version: indexFileVersion,
		Model:   st.sem.embedder.ModelID(),
		Dims:    st.sem.embedder.Dimensions(),
		PC:      st.sem.pc,
		Next:    e.vectors.next,
		Texts:   make(map[int32]string, st.sem.embedded),
	}
	for i, id := range st.sem.vid {
		if id >= 0 {
			meta.Texts[id] = textHash(st.sem.text.Get(i))
		}
	}
	head, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return writeAtomic(indexFile(e.cfg.IndexDir, meta.Model), func(w io.Writer) error {
		writeHeader(w, indexFileMagic, head)
		_, err := e.vectors.index.WriteTo(w)
		return err
	})
}

// staleTemp is how long a temporary file of writeAtomic must have gone
// unwritten to count as left by a killed process (a live writer touches it
// continuously).
const staleTemp = 10 * time.Minute

// writeHeader starts a saved file: magic, the length of head (u64,
// little-endian) and head, a JSON header. Errors surface at the writer's
// flush (see writeAtomic).
func writeHeader(w io.Writer, magic string, head []byte) {
	io.WriteString(w, magic)
	w.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(head))))
	w.Write(head)
}

// readHeader reads what writeHeader wrote into meta, refusing another
// magic, a truncated header or one over 1 GiB.
func readHeader(r io.Reader, magic string, meta any) error {
	got := make([]byte, len(magic))
	if _, err := io.ReadFull(r, got); err != nil || string(got) != magic {
		return fmt.Errorf("not a %q file", strings.TrimSpace(magic))
	}
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return fmt.Errorf("truncated header: %w", err)
	}
	size := binary.LittleEndian.Uint64(n[:])
	if size > 1<<30 {
		return fmt.Errorf("header of %d bytes", size)
	}
	head := make([]byte, size)
	if _, err := io.ReadFull(r, head); err != nil {
		return fmt.Errorf("truncated header: %w", err)
	}
	if err := json.Unmarshal(head, meta); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	return nil
}

// writeAtomic writes a file through write, atomically: into a temporary
// file in the same directory (created if need be), synced, then renamed
// into place, so a crash leaves the old file or the new one, never part of
// one. write's writer is buffered; its write errors surface at the end.
// Temporary files of path that a killed process left (untouched for
// staleTemp) are removed first: at 300k tools each is hundreds of MB.
func writeAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	prefix := "." + filepath.Base(path) + "-"
	if entries, err := os.ReadDir(dir); err == nil {
		for _, de := range entries {
			if fi, err := de.Info(); err == nil && strings.HasPrefix(de.Name(), prefix) && time.Since(fi.ModTime()) > staleTemp {
				os.Remove(filepath.Join(dir, de.Name()))
			}
		}
	}
	tmp, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	w := bufio.NewWriterSize(tmp, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// errIndexMismatch: a saved index of another model or dimension.
var errIndexMismatch = errors.New("saved for another model")

// loadIndex reads the index file of emb's model into a vector store and
// returns it with the header; os.ErrNotExist when there is none.
func (e *Engine) loadIndex(emb embed.Embedder) (*vectorStore, indexMeta, error) {
	path := indexFile(e.cfg.IndexDir, emb.ModelID())
	f, _, err := safefile.OpenIn(e.cfg.IndexDir, path, e.savedFileBound(e.state.Load().snap.Len(), emb.Dimensions()))
	if err != nil {
		return nil, indexMeta{}, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var meta indexMeta
	if err := readHeader(r, indexFileMagic, &meta); err != nil {
		return nil, indexMeta{}, err
	}
	if meta.Version != indexFileVersion || meta.Model != emb.ModelID() || meta.Dims != emb.Dimensions() {
		return nil, indexMeta{}, fmt.Errorf("%w: version %d, model %q, %d dimensions", errIndexMismatch, meta.Version, meta.Model, meta.Dims)
	}
	ix, err := vectorindex.ReadHNSW(r)
	if err != nil {
		return nil, indexMeta{}, err
	}
	if ix.Dim() != meta.Dims {
		return nil, indexMeta{}, fmt.Errorf("%w: index of %d dimensions", errIndexMismatch, ix.Dim())
	}
	if q := ix.Config().Quantization; q != e.cfg.HNSW.Quantization {
		return nil, indexMeta{}, fmt.Errorf("%w: vectors stored as %s, configured %s", errIndexMismatch, q, e.cfg.HNSW.Quantization)
	}
	return &vectorStore{index: ix, pc: meta.PC, next: meta.Next}, meta, nil
}

// restoreIndex loads the saved index for emb, if any, and gives the tools of
// sem whose text is unchanged their vectors back; vectors no tool uses are
// deleted. It returns the store to use: the loaded one, or nil when none
// could be used (then the caller builds a new one). version is the catalog
// version of sem: when the file held exactly its vectors, that version
// counts as saved. Callers hold e.mu.
func (e *Engine) restoreIndex(emb embed.Embedder, sem **semState, gate Gate, version uint64) *vectorStore {
	if e.cfg.IndexDir == "" {
		return nil
	}
	start := time.Now()
	vs, meta, err := e.loadIndex(emb)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		e.cfg.Log.Warn("ignoring the saved vector index; building a new one", "dir", e.cfg.IndexDir, "error", err.Error())
		return nil
	}
	byText := make(map[string]int32, len(meta.Texts))
	for id, h := range meta.Texts {
		byText[h] = id
	}
	ed := newSemState(vs.index, emb, gate, (*sem).text, vs.pc).edit()
	used := make(map[int32]bool, len(meta.Texts))
	for i, t := range ed.s.text.All() {
		if id, ok := byText[textHash(t)]; ok && !used[id] {
			ed.set(i, id)
			used[id] = true
		}
	}
	s := ed.done()
	var stale []int32
	for id := range meta.Texts {
		if !used[id] {
			stale = append(stale, id)
		}
	}
	vs.remove(stale)
	*sem = s
	e.cfg.Log.Info("loaded the saved vector index", "tools", s.embedded, "of", s.text.Len(), "stale_vectors", len(stale),
		"elapsed", time.Since(start).Round(time.Millisecond).String())
	if len(stale) == 0 && s.embedded == s.text.Len() {
		// The file holds exactly this catalog's vectors: saving them
		// again when the index turns ready would only rewrite it.
		e.savedVersion = version
	}
	return vs
}
