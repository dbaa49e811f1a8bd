package mcp

import (
	"bytes"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
)

// process is a stdio server's child process for one connection.
type process struct {
	cmd    *exec.Cmd
	stderr *tail
}

// pid is the child's process id, 0 if none.
func (p *process) pid() int {
	if p == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// stop kills what is left of the child's process group (its own children,
// such as the node process under npx), after the SDK closed its stdin and
// waited. It is safe to call on a nil process and more than once.
func (p *process) stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	killGroup(p.cmd)
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
