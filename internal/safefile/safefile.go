// Package safefile opens the files a process reads at start-up with their
// size known before anything is read: regular files only (a FIFO, a
// device, a socket or a directory is refused by name, never read or
// waited on), of at most a given size, and, for files of a cache
// directory, never through a symbolic link that leaves it.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNotRegular is wrapped by the refusal of a file that is not a regular
// file (a FIFO, a device, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the refusal of a file over its size bound.
var ErrTooLarge = errors.New("too large")

// ErrOutside is wrapped by the refusal of a symbolic link out of the
// directory a file must stay in.
var ErrOutside = errors.New("outside its directory")

// Open opens path for reading if it is a regular file of at most max bytes
// (max ≤ 0: any size) and returns it with its size. The file is opened
// non-blocking, so a FIFO is refused at once instead of waiting for a
// writer; the check is on the opened file (fstat), so a symbolic link to
// /dev/zero is refused as the device it is.
func Open(path string, max int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w (%s): give a plain file", path, ErrNotRegular, kind(fi.Mode()))
	}
	if max > 0 && fi.Size() > max {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w: %d bytes, over the bound of %d", path, ErrTooLarge, fi.Size(), max)
	}
	return f, fi.Size(), nil
}

// OpenIn is Open for a file that must stay inside dir (a cache
// directory): a symbolic link whose target leaves dir is refused by name.
func OpenIn(dir, path string, max int64) (*os.File, int64, error) {
	if err := inside(dir, path); err != nil {
		return nil, 0, err
	}
	return Open(path, max)
}

// ReadFile reads the file at path whole, as Open checks it (max ≤ 0: any
// size); a file that grows past its size while read is refused.
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, size, max)
}

// ReadFileIn is ReadFile for a file that must stay inside dir.
func ReadFileIn(dir, path string, max int64) ([]byte, error) {
	if err := inside(dir, path); err != nil {
		return nil, err
	}
	return ReadFile(path, max)
}

// readAll reads f, of size bytes when opened, allowing it no further than
// max (or its size when max ≤ 0 grows past it: the buffer is sized once).
func readAll(f *os.File, path string, size, max int64) ([]byte, error) {
	limit := size
	if max > 0 {
		limit = max
	}
	buf := make([]byte, 0, size+1)
	w := &bufWriter{buf: buf}
	n, err := io.Copy(w, io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("%s: %w: it grew past %d bytes while read", path, ErrTooLarge, limit)
	}
	return w.buf, nil
}

type bufWriter struct{ buf []byte }

func (w *bufWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// inside refuses path when it resolves (through symbolic links) to a
// place outside dir. A path that does not exist is not refused here: the
// open reports it.
func inside(dir, path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("%s: %w: it links to %s, outside %s", path, ErrOutside, real, dir)
	}
	return nil
}

// kind names a non-regular file's type for messages.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&os.ModeIrregular != 0:
		return "an irregular file"
	}
	return m.Type().String()
}
