package learn

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileName is the learned state's file name in the cache directory.
const FileName = "learned.jsonl"

// Save writes the store's JSONL export to path crash-safely: to a
// temporary file in the same directory, synced, then renamed over path and
// the directory synced. A crash (even kill -9) at any point leaves either
// the old file or the new one, never a torn one.
func (s *Store) Save(path string) error {
	var buf bytes.Buffer
	if err := s.Export(&buf); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

// Load imports the file at path (Import); a missing file is not an error
// (nothing learned yet) and loads 0 records.
func (s *Store) Load(path string) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := s.Import(f)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
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
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: not every file system syncs directories
		d.Close()
	}
	return nil
}
