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
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/internal/par"
	"github.com/toolsearch/toolsearch/internal/safefile"
)

// The keyword index of the start-up catalog is saved in Config.IndexDir
// too, and loaded by the next start over the same catalog, so that a warm
// restart analyses no tool: at 300k tools the build takes about 6 s of the
// start (schemas parsed, every field analysed, posting lists, phrase pairs,
// trigrams) and the load about 1 s (docs/benchmarks.md).
//
// The file is used only by the same program over the same catalog: its
// header holds a digest of the executable that wrote it (any change to the
// analysis or the scoring ships in a new executable, so no version number
// has to be remembered) and a digest of every tool's searched content in
// ID order. A file that does not match, or that fallback.ReadIndex refuses,
// is ignored with a log line and the index is built as if there were none.
// Catalog changes after start-up are not saved: a restart starts from its
// catalog files again, which is the catalog saved.

// keywordFileMagic starts a keyword file; keywordFileVersion is the layout
// of its header.
const (
	keywordFileMagic   = "toolsearch-keyword-file\n"
	keywordFileVersion = 1
	keywordFileName    = "keyword.bin"
)

// keywordMeta is the header of a keyword file.
type keywordMeta struct {
	Version int    `json:"version"`
	Program string `json:"program"` // programDigest of the writer
	Catalog string `json:"catalog"` // catalogDigest of its tools
	Tools   int    `json:"tools"`
}

// programDigest is the SHA-256 of the running executable, "" when it
// cannot be read (then no keyword index is saved or loaded).
var programDigest = sync.OnceValue(func() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// catalogDigest is the SHA-256 of what the keyword index reads of each
// tool of snap (lexicalDocument: name, server, category, description,
// search-only text and input schema), in ID order, each field
// length-prefixed.
//
// The tools are hashed in blocks of digestBlock on every core, and the
// digest is that of the tool count and the blocks' digests in order.
func catalogDigest(snap *catalog.Snapshot, keywords map[string]string) string {
	blocks := (snap.Len() + digestBlock - 1) / digestBlock
	sums := make([][sha256.Size]byte, blocks)
	par.For(blocks, func(lo, hi int) {
		var buf []byte
		for b := lo; b < hi; b++ {
			h := sha256.New()
			for id := b * digestBlock; id < min((b+1)*digestBlock, snap.Len()); id++ {
				t := snap.Tool(id)
				buf = buf[:0]
				for _, f := range []string{t.Name, t.Server, t.Category, t.Description, searchOnlyText(t, keywords)} {
					buf = binary.LittleEndian.AppendUint64(buf, uint64(len(f)))
					buf = append(buf, f...)
				}
				buf = binary.LittleEndian.AppendUint64(buf, uint64(len(t.InputSchema)))
				h.Write(buf)
				h.Write(t.InputSchema)
			}
			h.Sum(sums[b][:0])
		}
	})
	h := sha256.New()
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(snap.Len())))
	for _, s := range sums {
		h.Write(s[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// digestBlock is how many tools catalogDigest hashes as one block.
const digestBlock = 1024

// loadKeyword returns the saved keyword index of snap, or nil (with a log
// line saying why, unless there is no file) when there is none it can use.
// It also returns snap's catalogDigest when it computed one ("" if not), so
// that saveKeyword need not compute it again.
func (e *Engine) loadKeyword(snap *catalog.Snapshot) (*fallback.Index, string) {
	if e.cfg.IndexDir == "" || programDigest() == "" {
		return nil, ""
	}
	start := time.Now()
	path := filepath.Join(e.cfg.IndexDir, keywordFileName)
	ix, digest, err := readKeyword(path, snap, e.cfg.Keywords, e.savedFileBound(snap.Len(), 0))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, digest
	case errors.Is(err, safefile.ErrTooLarge), errors.Is(err, safefile.ErrNotRegular), errors.Is(err, safefile.ErrOutside):
		// Never read: it could not be this catalog's, or is not a file.
		// The save after the build replaces it.
		e.cfg.Log.Warn("discarding the saved keyword index unread; building it", "file", path, "reason", err.Error())
		return nil, digest
	case err != nil:
		e.cfg.Log.Info("not using the saved keyword index; building it", "file", path, "reason", err.Error())
		return nil, digest
	}
	e.cfg.Log.Info("loaded the saved keyword index", "tools", ix.Len(), "elapsed", time.Since(start).Round(time.Millisecond).String())
	return ix, digest
}

// readKeyword reads the keyword file at path, if it was written by this
// program for snap's tools and is a regular file of at most max bytes in
// its directory (safefile; max ≤ 0: any size). It returns snap's
// catalogDigest if it computed it: only a file of this program and of as
// many tools asks for it. keywords are Config.Keywords, part of the digest.
func readKeyword(path string, snap *catalog.Snapshot, keywords map[string]string, max int64) (*fallback.Index, string, error) {
	f, _, err := safefile.OpenIn(filepath.Dir(path), path, max)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var meta keywordMeta
	if err := readHeader(r, keywordFileMagic, &meta); err != nil {
		return nil, "", err
	}
	digest := ""
	switch {
	case meta.Version != keywordFileVersion:
		return nil, "", fmt.Errorf("header version %d, this build reads %d", meta.Version, keywordFileVersion)
	case meta.Program != programDigest():
		return nil, "", errors.New("written by another build of the program")
	case meta.Tools == snap.Len():
		digest = catalogDigest(snap, keywords)
	}
	if digest == "" || meta.Catalog != digest {
		return nil, digest, fmt.Errorf("saved for another catalog (%d tools; now %d)", meta.Tools, snap.Len())
	}
	ix, err := readKeywordIndex(f, r)
	if err != nil {
		return nil, digest, err
	}
	if ix.Len() != snap.Len() {
		return nil, digest, fmt.Errorf("%w: holds %d tools, its header says %d", fallback.ErrCorrupt, ix.Len(), snap.Len())
	}
	return ix, digest, nil
}

// readKeywordIndex reads the index that follows the header, read through r
// from f.
func readKeywordIndex(f *os.File, r *bufio.Reader) (*fallback.Index, error) {
	// What is left of the file after the header: its size less the file
	// offset, plus what r has read ahead.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return fallback.ReadIndex(r, fi.Size()-pos+int64(r.Buffered()))
}

// saveKeyword writes st's keyword index to Config.IndexDir (atomically),
// logging the outcome; see the top of this file. digest is st's
// catalogDigest, or "" to compute it.
func (e *Engine) saveKeyword(st *state, digest string) {
	if e.cfg.IndexDir == "" || programDigest() == "" {
		return
	}
	start := time.Now()
	if digest == "" {
		digest = catalogDigest(st.snap, st.keywords)
	}
	path := filepath.Join(e.cfg.IndexDir, keywordFileName)
	head, err := json.Marshal(keywordMeta{Version: keywordFileVersion, Program: programDigest(), Catalog: digest, Tools: st.snap.Len()})
	if err == nil {
		err = writeAtomic(path, func(w io.Writer) error {
			writeHeader(w, keywordFileMagic, head)
			_, err := st.lex.WriteTo(w)
			return err
		})
	}
	if err != nil {
		e.cfg.Log.Warn("saving the keyword index failed; the next start-up builds it again", "file", path, "error", err.Error())
		return
	}
	e.cfg.Log.Info("saved the keyword index", "tools", st.snap.Len(), "elapsed", time.Since(start).Round(time.Millisecond).String())
}
