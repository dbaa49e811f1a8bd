// Package ollamatest starts private, real Ollama servers for integration
// tests: each on a free 127.0.0.1 port, with its own HOME and model store in
// a temporary directory, so a test never touches a user's ~/.ollama. A
// server can be killed and started again on the same address with the same
// models, as a crash and a restart would.
//
// The binary is found in this order: $TOOLSEARCH_OLLAMA_BIN, <repo>/.tmp/bin/ollama
// (built by scripts/ollama/build.sh, or `make ollama`), `ollama` on PATH.
// Without one, tests skip — or fail when CI=true, since CI must provide it.
//
// The package only manages processes; registering a model is the caller's
// (embed.CreateOllamaModel), so that package embed's own tests can use it
// without an import cycle.
package ollamatest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/testenv"
)

// Environment variables the package reads.
const (
	// EnvBin names the Ollama binary to start.
	EnvBin = "TOOLSEARCH_OLLAMA_BIN"
	// EnvHost names a running server to use instead of starting one, for
	// tests that need no control over the process (see ExternalHost).
	EnvHost = "TOOLSEARCH_OLLAMA_HOST"
)

// StartTimeout bounds how long Start waits for /api/version to answer.
const StartTimeout = 60 * time.Second

// Binary returns the Ollama binary to start, or "" when there is none.
func Binary() string {
	if b := os.Getenv(EnvBin); b != "" {
		return b
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		b := filepath.Join(filepath.Dir(file), "..", "..", ".tmp", "bin", "ollama")
		if st, err := os.Stat(b); err == nil && !st.IsDir() {
			return b
		}
	}
	if b, err := exec.LookPath("ollama"); err == nil {
		return b
	}
	return ""
}

// ExternalHost returns $TOOLSEARCH_OLLAMA_HOST: the address of a server the
// caller should use instead of starting one, or "".
func ExternalHost() string { return os.Getenv(EnvHost) }

// SkipOrFail skips the test because Ollama is missing, or fails it when
// CI=true: CI must provide Ollama.
func SkipOrFail(t testing.TB, why string) {
	t.Helper()
	testenv.SkipOrFail(t, "%s: a test against a real Ollama; build it with `make ollama` (scripts/ollama/build.sh) or set %s", why, EnvBin)
}

// Server is a private Ollama server process. Its address and model store
// stay the same across Stop and Start.
type Server struct {
	// Bin is the binary, Addr the "127.0.0.1:port" it listens on, and Dir
	// the directory of its HOME, models and log.
	Bin, Addr, Dir string

	cmd *exec.Cmd
	log *os.File
}

// New prepares a server on a free port without starting it (see Start),
// and stops it when the test ends. It skips, or fails in CI, when there is
// no Ollama binary.
func New(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		SkipOrFail(t, "no Ollama binary found")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Bin: bin, Addr: l.Addr().String(), Dir: t.TempDir()}
	l.Close()
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Start returns a running server from New.
func Start(t testing.TB) *Server {
	t.Helper()
	s := New(t)
	s.Start(t)
	return s
}

// Start starts the server and waits until /api/version answers. Models
// registered before a Stop are served again.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	if s.Running() {
		t.Fatalf("ollamatest: the server on %s is already running", s.Addr)
	}
	var err error
	s.log, err = os.OpenFile(s.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(s.Bin, "serve")
	s.cmd.Env = append(os.Environ(),
		"HOME="+filepath.Join(s.Dir, "home"),
		"OLLAMA_HOST="+s.Addr,
		"OLLAMA_MODELS="+filepath.Join(s.Dir, "models"),
		"OLLAMA_NO_CLOUD=1",
	)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	// Own process group, so that Stop also kills the model runner it forks.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		s.log.Close()
		s.cmd = nil
		t.Fatalf("start %s: %v", s.Bin, err)
	}
	start := time.Now()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := client.Get("http://" + s.Addr + "/api/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				client.CloseIdleConnections()
				t.Logf("ollamatest: %s serving on %s after %v", filepath.Base(s.Bin), s.Addr, time.Since(start).Round(time.Millisecond))
				return
			}
		}
		if time.Since(start) > StartTimeout {
			s.Stop(t)
			t.Fatalf("Ollama on %s did not answer within %v; log:\n%s", s.Addr, StartTimeout, s.LogTail(30))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Running reports whether the server process was started and not stopped.
func (s *Server) Running() bool { return s.cmd != nil }

// Stop kills the server and its model runner at once (SIGKILL to the
// process group, as a crash would). It does nothing when not running.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	_ = s.cmd.Wait()
	s.cmd = nil
	s.log.Close()
}

func (s *Server) logPath() string { return filepath.Join(s.Dir, "ollama.log") }

// LogTail returns the last n lines of the server's log.
func (s *Server) LogTail(n int) string {
	b, _ := os.ReadFile(s.logPath())
	lines := strings.Split(string(b), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// RSSMB returns the resident memory of the server and of its children (the
// model runner), in MB, read from /proc; zeros when not running or not on
// Linux.
func (s *Server) RSSMB() (server, children float64) {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0, 0
	}
	pid := s.cmd.Process.Pid
	server = procRSS(pid)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name "(…)": state, ppid, …
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			f := strings.Fields(string(stat[i+1:]))
			if len(f) > 1 && f[1] == strconv.Itoa(pid) {
				children += procRSS(p)
			}
		}
	}
	return server, children
}

func procRSS(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
