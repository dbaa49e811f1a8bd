// Package pgtest starts a throwaway PostgreSQL server for tests: Debian's
// postgresql binaries, initdb into a temporary directory (as the postgres
// user when the test runs as root, since initdb refuses root), a free
// loopback port, password authentication. A test package shares one server
// (Shared, stopped by Main) and gives each test its own database (NewDB);
// fault tests start their own server (Start) and kill -9 and restart it;
// a kill waits until every process of the server is gone (kill.go), so
// that the restart finds its shared memory free.
//
// Without the binaries the tests skip, except under CI=true, where they fail:
// CI must run them (.ci/run installs the postgresql package).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/internal/testenv"
)

// BinDir is where Debian's postgresql-15 package installs the server
// binaries; PGTEST_BINDIR overrides it.
const BinDir = "/usr/lib/postgresql/15/bin"

// Password is the superuser's password on every test server.
const Password = "pgtest-secret"

// startTimeout bounds a server's start (a hang guard, not a verdict: a
// loaded 2-core machine starts PostgreSQL in seconds).
const startTimeout = 2 * time.Minute

// Server is one running test PostgreSQL. Its methods are safe for
// concurrent use.
type Server struct {
	dir    string
	port   int
	bin    string
	cred   *syscall.Credential
	tls    []string // the server's TLS settings (-c options), nil without
	caFile string
	tb     testing.TB // the test that started it (Start); nil for Shared

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  *os.File
}

// binDir is PGTEST_BINDIR, else BinDir when it exists, else the newest
// /usr/lib/postgresql/*/bin (another Debian release's version).
func binDir() string {
	if d := os.Getenv("PGTEST_BINDIR"); d != "" {
		return d
	}
	if _, err := os.Stat(filepath.Join(BinDir, "postgres")); err == nil {
		return BinDir
	}
	if dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(dirs) > 0 {
		return dirs[len(dirs)-1]
	}
	return BinDir
}

// Available reports why PostgreSQL cannot be started here ("" when it can).
func Available() string {
	if _, err := os.Stat(filepath.Join(binDir(), "postgres")); err != nil {
		return "PostgreSQL binaries not found in " + binDir() + " (apt-get install postgresql, or make postgres)"
	}
	if os.Geteuid() == 0 {
		if _, err := user.Lookup("postgres"); err != nil {
			return "running as root and there is no postgres user to run initdb as"
		}
	}
	return ""
}

// Require skips t when PostgreSQL cannot be started here, and fails it
// under CI=true.
func Require(t testing.TB) {
	t.Helper()
	if why := Available(); why != "" {
		testenv.SkipOrFail(t, "%s", why)
	}
}

// Start starts a new server for t alone and stops it when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	Require(t)
	s, err := start(false)
	if err != nil {
		t.Fatal(err)
	}
	s.tb = t
	t.Cleanup(s.Stop)
	return s
}

// StartTLS is Start with TLS on: the server's certificate, for 127.0.0.1,
// is signed by a test CA whose certificate is in CAFile.
func StartTLS(t testing.TB) *Server {
	t.Helper()
	Require(t)
	s, err := start(true)
	if err != nil {
		t.Fatal(err)
	}
	s.tb = t
	t.Cleanup(s.Stop)
	return s
}

// CAFile is the PEM file of the CA that signed a StartTLS server's
// certificate ("" without TLS).
func (s *Server) CAFile() string { return s.caFile }

var (
	sharedOnce sync.Once
	shared     *Server
	sharedErr  error
	dbSeq      atomic.Int64
)

// Shared returns the package's shared server, starting it on first use;
// Main stops it.
func Shared(t testing.TB) *Server {
	t.Helper()
	Require(t)
	sharedOnce.Do(func() { shared, sharedErr = start(false) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// Main runs a test package's tests and stops the shared server after them:
// call it from TestMain as os.Exit(pgtest.Main(m)), or wrap it for
// goleak.VerifyTestMain (Runner).
func Main(m interface{ Run() int }) int {
	code := m.Run()
	if shared != nil {
		if err := shared.stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = max(code, 1)
		}
	}
	return code
}

// NewDB creates an empty database on the shared server for t and returns
// its URL; it is dropped when t ends.
func NewDB(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		if err != nil {
			return // the server is gone: nothing to drop
		}
		defer conn.Close(context.Background())
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return s.URL(name)
}

// URL returns the connection URL of database db.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/%s?sslmode=disable", Password, s.port, db)
}

// Port returns the server's TCP port.
func (s *Server) Port() int { return s.port }

func start(withTLS bool) (*Server, error) {
	s := &Server{bin: binDir()}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, err
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	pwfile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwfile, []byte(Password+"\n"), 0o600); err != nil {
		return nil, err
	}
	if s.cred != nil {
		if err := os.Chown(pwfile, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return nil, err
		}
	}
	initdb := exec.Command(filepath.Join(s.bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres",
		"--auth=scram-sha-256", "--pwfile="+pwfile, "--no-sync", "-E", "UTF8", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if withTLS {
		if err := s.makeCerts(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	// A free port can be taken between choosing and binding it: retry.
	for attempt := 0; ; attempt++ {
		if s.port, err = freePort(); err == nil {
			if err = s.Restart(); err == nil {
				return s, nil
			}
		}
		if attempt == 4 {
			_ = s.stop()
			return nil, err
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Restart starts the server again after Kill (or for the first time) on
// the same port and data, and waits until it accepts connections.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("pgtest: server already running")
	}
	logf, err := os.OpenFile(filepath.Join(s.dir, "server.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(s.bin, "postgres"), "-D", filepath.Join(s.dir, "data"),
		"-p", strconv.Itoa(s.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+s.dir,
		"-c", "fsync=off", "-c", "max_connections=200", "-c", "shared_buffers=16MB")
	cmd.Args = append(cmd.Args, s.tls...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done, s.log = cmd, done, logf
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-done:
			s.cmd = nil
			logf.Close()
			tail, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("postgres exited at start-up: %s", lastLines(string(tail), 10))
		case <-ctx.Done():
			_ = s.killLocked()
			return fmt.Errorf("postgres did not accept connections within %s: %v", startTimeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Kill kills the server and all its processes with SIGKILL (a crash: no
// shutdown checkpoint) and waits until all have exited, so that Restart
// finds the server's shared memory free. It fails the test that started
// the server if some process outlives the hang guard.
func (s *Server) Kill() {
	s.mu.Lock()
	err := s.killLocked()
	s.mu.Unlock()
	s.fail(err)
}

// killLocked kills the postmaster, then every process still attached to
// its shared memory (its children, each in a session of its own), and
// waits until none is.
func (s *Server) killLocked() error {
	if s.cmd == nil {
		return nil
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	s.log.Close()
	s.cmd = nil
	seg, ok := s.shmSegment()
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(startTimeout))
	defer cancel()
	return seg.reap(ctx)
}

// Stop kills the server, removes its shared memory segment and its
// directory.
func (s *Server) Stop() { s.fail(s.stop()) }

func (s *Server) stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.killLocked()
	if seg, ok := s.shmSegment(); ok && err == nil {
		seg.remove()
	}
	os.RemoveAll(s.dir)
	return err
}

// fail reports err to the test that started s (Shared's server has none:
// Main reports it).
func (s *Server) fail(err error) {
	if err == nil {
		return
	}
	if s.tb == nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	s.tb.Helper()
	s.tb.Fatal(err)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Runner runs M's tests with Main, for TestMain wrappers that take a
// testing.M-like value (goleak.VerifyTestMain(pgtest.Runner{M: m})).
type Runner struct{ M interface{ Run() int } }

// Run runs the tests and stops the shared server.
func (r Runner) Run() int { return Main(r.M) }
