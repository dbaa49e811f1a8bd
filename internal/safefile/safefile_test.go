package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ReadFile reads a regular file within its bound and refuses anything
// else by name, without reading or waiting on it.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.json")
	if err := os.WriteFile(outside, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkOut, linkIn, linkDev := filepath.Join(dir, "out"), filepath.Join(dir, "in"), filepath.Join(dir, "zero")
	for target, link := range map[string]string{outside: linkOut, file: linkIn, "/dev/zero": linkDev} {
		if err := os.Symlink(target, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	tests := []struct {
		name    string
		path    string
		max     int64
		inDir   bool
		want    string
		wantErr error
	}{
		{"regular", file, 0, false, "0123456789", nil},
		{"at its bound", file, 10, false, "0123456789", nil},
		{"over its bound", file, 9, false, "", ErrTooLarge},
		{"a named pipe", fifo, 0, false, "", ErrNotRegular},
		{"a device", "/dev/zero", 0, false, "", ErrNotRegular},
		{"a link to a device", linkDev, 0, false, "", ErrNotRegular},
		{"a directory", dir, 0, false, "", ErrNotRegular},
		{"missing", filepath.Join(dir, "none"), 0, true, "", fs.ErrNotExist},
		{"a link inside the directory", linkIn, 0, true, "0123456789", nil},
		{"a link out of the directory", linkOut, 0, true, "", ErrOutside},
		{"a link out, no directory to stay in", linkOut, 0, false, "{}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []byte
			var err error
			if tt.inDir {
				got, err = ReadFileIn(dir, tt.path, tt.max)
			} else {
				got, err = ReadFile(tt.path, tt.max)
			}
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name %s", err, tt.path)
			}
			if string(got) != tt.want {
				t.Errorf("read %q, want %q", got, tt.want)
			}
		})
	}
}
