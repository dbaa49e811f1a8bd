package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"os/exec"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// process is a stdio server's child process for one connection. The SDK
// starts it (inside Client.Connect); processTransport records its pid, so
// that stop, which may run concurrently (at a deadline), never reads the
// *exec.Cmd the SDK writes. It is safe for concurrent use.
type process struct {
	cmd    *exec.Cmd
	stderr *tail

	mu      sync.Mutex
	pidv    int  // 0 until started
	stopped bool // stop was called: a process started later is killed at once
}

// started records the child's pid once Start returned; called on the
// goroutine that started it.
func (p *process) started() {
	if p.cmd.Process == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pidv = p.cmd.Process.Pid
	if p.stopped {
		killGroup(p.pidv)
	}
}

// pid is the child's process id, 0 if none.
func (p *process) pid() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pidv
}

// stop kills what is left of the child's process group (its own children,
// such as the node process under npx), after the SDK closed its stdin and
// waited, or at once at a deadline. It is safe to call on a nil process,
// concurrently and more than once.
func (p *process) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.pidv != 0 {
		killGroup(p.pidv)
	}
}

// processTransport is the SDK's CommandTransport, recording the child's pid
// as soon as it is started.
type processTransport struct {
	inner *mcp.CommandTransport
	proc  *process
}

func (t *processTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	t.proc.started()
	return conn, err
}

// stderrTail returns the last lines the child wrote to stderr, joined, ""
// if none: what a crashed server said last.
func (p *process) stderrTail() string {
	if p == nil {
		return ""
	}
	return strings.Join(p.stderr.lines(), "\n")
}

// tailLines is how many of a child's last stderr lines are kept, to log
// with its exit.
const tailLines = 10

// maxLineBytes caps one logged stderr line.
const maxLineBytes = 2048

// tail logs a child's stderr at debug level, line by line, and keeps the
// last tailLines lines. It is safe for concurrent use.
type tail struct {
	log  *slog.Logger
	mu   sync.Mutex
	buf  []byte
	last []string
}

func newTail(log *slog.Logger) *tail { return &tail{log: log} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			if len(t.buf) > maxLineBytes {
				t.line(string(t.buf[:maxLineBytes]))
				t.buf = t.buf[:0]
			}
			return len(p), nil
		}
		t.line(string(t.buf[:min(i, maxLineBytes)]))
		t.buf = t.buf[i+1:]
	}
}

// line records one line; callers hold mu.
func (t *tail) line(s string) {
	s = strings.TrimRight(s, "\r")
	if s == "" {
		return
	}
	t.log.Debug("mcp server stderr", "line", s)
	t.last = append(t.last, s)
	if len(t.last) > tailLines {
		t.last = t.last[len(t.last)-tailLines:]
	}
}

func (t *tail) lines() []string {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.last...)
}
