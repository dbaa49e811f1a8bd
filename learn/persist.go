package learn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolsearch/toolsearch/internal/safefile"
)

// FileName is the learned state's file name in the cache directory.
const FileName = "learned.jsonl"

// BackupSuffix names the copy of the learned-state file that Save keeps
// of the file it replaces: learned.jsonl.bak is the previous save.
const BackupSuffix = ".bak"

// DamagedSuffix names the copy Load keeps of a file that held bad lines,
// before a save replaces it: learned.jsonl.damaged, for a look at what
// went wrong.
const DamagedSuffix = ".damaged"

// MaxFileBytes bounds what Load and Pull read: 64 queries of a few hundred
// bytes for 10,000 tools is about 200 MB at worst; past 256 MB the rest of
// a file (a sparse file of zeros, a runaway URL) is not read, which costs
// no memory (lines are read one at a time).
const MaxFileBytes = 256 << 20

// Save writes the store's JSONL export to path crash-safely: to a
// temporary file in the same directory, synced, then renamed over path and
// the directory synced. A crash (even kill -9) at any point leaves either
// the old file or the new one, never a torn one. The file replaced is kept
// as path + BackupSuffix (a hard link, so there is no moment without a
// file at path).
func (s *Store) Save(path string) error {
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

// LoadStats is what Load did: ImportStats, plus where the state came
// from.
type LoadStats struct {
	ImportStats
	// Truncated is true when the file was longer than MaxFileBytes and its
	// rest was not read.
	Truncated bool
	// Backup is true when path held nothing usable (every line bad) and
	// its backup (path + BackupSuffix) was loaded as well.
	Backup bool
	// Damaged is where a file with bad lines was kept ("" when it had none
	// or could not be kept).
	Damaged string
}

// Load imports the file at path (Import); a missing file is not an error
// (nothing learned yet) and loads 0 records. Only a regular file is read:
// a FIFO, a device or a symbolic link out of path's directory is refused
// by name. At most MaxFileBytes are read. Bad lines are skipped and
// counted; a file that held some is kept as path + DamagedSuffix before a
// save replaces it, and when it held no good line at all, the backup of
// the previous save is loaded too.
func (s *Store) Load(path string) (LoadStats, error) {
	st, err := s.loadFile(path)
	if err != nil || st.Skipped == 0 {
		return st, err
	}
	damaged := path + DamagedSuffix
	_ = os.Remove(damaged)
	if os.Link(path, damaged) == nil {
		st.Damaged = damaged
	}
	if st.Records == 0 {
		if b, berr := s.loadFile(path + BackupSuffix); berr == nil && b.Records > 0 {
			st.Records, st.Backup = b.Records, true
		}
	}
	return st, nil
}

// loadFile imports one file, bounded as Load says.
func (s *Store) loadFile(path string) (LoadStats, error) {
	f, size, err := safefile.OpenIn(filepath.Dir(path), path, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return LoadStats{}, nil
	}
	if err != nil {
		return LoadStats{}, err
	}
	defer f.Close()
	st, err := s.Import(io.LimitReader(f, MaxFileBytes))
	if err != nil {
		return LoadStats{ImportStats: st}, fmt.Errorf("%s: %w", path, err)
	}
	return LoadStats{ImportStats: st, Truncated: size > MaxFileBytes}, nil
}

// writeAtomic writes data to path through a synced temporary file and a
// rename.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	bak := path + BackupSuffix
	if err := os.Remove(bak); err == nil || errors.Is(err, fs.ErrNotExist) {
		_ = os.Link(path, bak) // best effort: no backup on a file system without hard links
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: not every file system syncs directories
		d.Close()
	}
	return nil
}
