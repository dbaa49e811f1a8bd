// Package logbuf is a bytes.Buffer that a logger and a test can use at
// once: tests hand it to slog (or a sidecar's stderr) and read what was
// logged while the code under test still writes.
package logbuf

import (
	"bytes"
	"sync"
)

// Buffer collects bytes. It is safe for concurrent use; the zero value is
// an empty buffer.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written since the last Reset.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Reset empties the buffer.
func (l *Buffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}
