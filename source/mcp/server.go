package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one configured MCP server and its connection. Its run loop is
// the only writer of the catalog for its namespace; mu guards the fields
// that CallTool, Serves and Status read.
type server struct {
	m      *Manager
	cfg    ServerConfig
	log    *slog.Logger
	client *mcp.Client

	changed   chan struct{} // list_changed seen; buffered 1, so bursts coalesce
	firstDone chan struct{} // closed when the first connect and listing ended
	firstOnce sync.Once

	mu      sync.Mutex
	session *mcp.ClientSession // nil unless up
	tools   map[string]string  // catalog name → the server's own tool name
	st      ServerStatus
	starts  []time.Time // recent starts, for the restart rate

	lastProc *process // the latest child process; only run's goroutine uses it
}

func newServer(m *Manager, cfg ServerConfig) *server {
	s := &server{
		m:         m,
		cfg:       cfg,
		log:       m.log.With("mcp_server", cfg.Name, "transport", cfg.Transport()),
		changed:   make(chan struct{}, 1),
		firstDone: make(chan struct{}),
		tools:     map[string]string{},
		st:        ServerStatus{Name: cfg.Name, Transport: cfg.Transport(), State: StateConnecting, Since: time.Now()},
	}
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case s.changed <- struct{}{}:
			default:
			}
		},
		ProgressNotificationHandler: m.handleProgress,
		// Input requests of a call (MCP 2026-07-28 multi round trip) go
		// back to CallTool's caller, whose client can answer them: the
		// SDK's middleware would answer them here, where no elicitation
		// or sampling handler exists (an error) and roots are empty.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	}
	if m.cfg.KeepAlive > 0 {
		opts.KeepAlive = m.cfg.KeepAlive
	}
	s.client = mcp.NewClient(&mcp.Implementation{Name: "toolsearch", Version: m.cfg.Version}, opts)
	return s
}

// run connects, lists and follows the server until ctx is done,
// reconnecting with backoff when it goes away.
func (s *server) run(ctx context.Context) {
	defer func() {
		s.markFirstDone()
		s.setState(StateStopped, nil)
		s.m.obs.ServerUp(s.cfg.Name, false)
	}()
	backoff := backoffMin
	var downSince time.Time
	missing := 0 // consecutive attempts whose executable was not found
	for attempt := 0; ; attempt++ {
		if !s.waitStartAllowed(ctx) {
			return
		}
		if attempt > 0 {
			s.mu.Lock()
			s.st.Reconnects++
			s.mu.Unlock()
			s.m.obs.Reconnect(s.cfg.Name)
			s.log.Info("reconnecting to mcp server", "attempt", attempt)
		}
		sess, proc, err := s.connect(ctx)
		if err != nil && ctx.Err() == nil {
			// Recorded before the first attempt counts as done, so that a
			// caller of WaitStartup sees why the server is not up.
			s.setState(StateDown, err)
		}
		s.markFirstDone()
		if err == nil {
			backoff, downSince = backoffMin, time.Time{}
			err = s.follow(ctx, sess)
			s.disconnect(sess, proc)
		}
		if ctx.Err() != nil {
			return
		}
		if downSince.IsZero() {
			downSince = time.Now()
		}
		removeAt := downSince.Add(s.m.cfg.GracePeriod)
		if missing = missing + 1; !missingExecutable(err) {
			missing = 0
		}
		if missing >= missingTries {
			err = fmt.Errorf("%w; gave up after %d tries: fix the command (--mcp or --mcp-config) and restart the sidecar", err, missing)
			s.setState(StateFailed, err)
			s.m.obs.ServerUp(s.cfg.Name, false)
			s.log.Error("mcp server cannot start; not retrying", "error", err.Error())
			s.waitDown(ctx, math.MaxInt64, removeAt) // until the manager closes
			return
		}
		s.setState(StateDown, err)
		s.m.obs.ServerUp(s.cfg.Name, false)
		s.log.Warn("mcp server is down; reconnecting", "error", errString(err), "retry_in", backoff.String(),
			"tools", s.toolCount(), "tools_removed_at", removeAt.UTC().Format(time.RFC3339),
			"stderr_tail", s.lastProc.stderrTail())
		if !s.waitDown(ctx, backoff, removeAt) {
			return
		}
		backoff = min(2*backoff, backoffMax)
	}
}

// waitDown waits d while the server is down, removing its tools from the
// catalog if removeAt passes meanwhile. It returns false when ctx is done.
func (s *server) waitDown(ctx context.Context, d time.Duration, removeAt time.Time) bool {
	retry := time.NewTimer(d)
	defer retry.Stop()
	var grace <-chan time.Time
	if s.toolCount() > 0 {
		t := time.NewTimer(max(0, time.Until(removeAt)))
		defer t.Stop()
		grace = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return false
		case <-retry.C:
			return true
		case <-grace:
			grace = nil
			s.removeAll(ctx)
		}
	}
}

// removeAll deletes the server's tools from the catalog at the end of its
// grace period.
func (s *server) removeAll(ctx context.Context) {
	s.mu.Lock()
	names := make([]string, 0, len(s.tools))
	for name := range s.tools {
		names = append(names, name)
	}
	s.mu.Unlock()
	snap := s.m.cfg.Catalog.Snapshot()
	var del []string
	for _, n := range names {
		if _, ok := snap.Lookup(n); ok {
			del = append(del, n)
		}
	}
	version, err := s.m.cfg.Catalog.Apply(ctx, nil, del)
	if err != nil {
		s.log.Error("removing the tools of a gone mcp server failed; retrying at the next reconnect", "error", err.Error())
		return
	}
	s.mu.Lock()
	s.tools = map[string]string{}
	s.st.Tools, s.st.RemoveAt = 0, time.Time{}
	s.mu.Unlock()
	s.m.obs.ServerTools(s.cfg.Name, 0)
	s.m.obs.ToolsChanged(s.cfg.Name, "deleted", len(del))
	s.log.Warn("mcp server gone past its grace period: its tools were removed from the catalog",
		"removed", len(del), "grace_period", s.m.cfg.GracePeriod.String(), "catalog_version", version)
}

// waitStartAllowed enforces the restart rate: at most restartBurst starts
// per restartWindow. It returns false when ctx is done.
func (s *server) waitStartAllowed(ctx context.Context) bool {
	s.mu.Lock()
	now := time.Now()
	kept := s.starts[:0]
	for _, t := range s.starts {
		if now.Sub(t) < restartWindow {
			kept = append(kept, t)
		}
	}
	s.starts = kept
	var wait time.Duration
	if len(s.starts) >= restartBurst {
		wait = restartWindow - now.Sub(s.starts[0])
	}
	s.mu.Unlock()
	if wait > 0 {
		s.log.Warn("mcp server restarted too often; waiting before the next start",
			"starts", restartBurst, "window", restartWindow.String(), "wait", wait.Round(time.Second).String())
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	s.mu.Lock()
	s.starts = append(s.starts, time.Now())
	s.mu.Unlock()
	return ctx.Err() == nil
}

// connect starts or dials the server, initializes the session and lists
// its tools into the catalog, all within ListTimeout.
func (s *server) connect(ctx context.Context) (*mcp.ClientSession, *process, error) {
	lctx, cancel := context.WithTimeout(ctx, s.m.cfg.ListTimeout)
	defer cancel()
	transport, proc, err := s.transport()
	if err != nil {
		return nil, nil, err
	}
	// A list_changed from an earlier session is answered by this listing.
	select {
	case <-s.changed:
	default:
	}
	// A child that has not answered by the deadline (or when the manager
	// closes) is killed at once: closing it politely would first wait
	// stopTimeout for an exit it may never make, past the readiness bound.
	stopKill := context.AfterFunc(lctx, proc.stop)
	sess, err := s.client.Connect(lctx, transport, nil)
	if err != nil {
		proc.stop()
		return nil, nil, fmt.Errorf("connect: %w", timeoutHint(err, lctx, s.m.cfg.ListTimeout))
	}
	info, desc := "", ""
	if ir := sess.InitializeResult(); ir != nil {
		if ir.ServerInfo != nil {
			info = strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)
			desc = strings.TrimSpace(ir.ServerInfo.Title)
		}
		if in := strings.TrimSpace(ir.Instructions); in != "" {
			desc = in
		}
	}
	s.mu.Lock()
	s.st.Server, s.st.Description = info, desc
	s.st.PID = proc.pid()
	s.mu.Unlock()
	if err := s.relist(lctx, sess); err != nil {
		s.disconnect(sess, proc)
		return nil, nil, err
	}
	if !stopKill() && lctx.Err() != nil {
		// The deadline passed just as the listing ended: the child is gone.
		s.disconnect(sess, proc)
		return nil, nil, fmt.Errorf("connect: %w", timeoutHint(lctx.Err(), lctx, s.m.cfg.ListTimeout))
	}
	s.mu.Lock()
	s.session = sess
	s.mu.Unlock()
	s.setState(StateUp, nil)
	s.m.obs.ServerUp(s.cfg.Name, true)
	s.log.Info("mcp server up", "server", info, "tools", s.toolCount(), "pid", proc.pid())
	return sess, proc, nil
}

// follow re-lists the server on every list_changed until the session ends
// or ctx is done.
func (s *server) follow(ctx context.Context, sess *mcp.ClientSession) error {
	closed := make(chan error, 1)
	go func() { closed <- sess.Wait() }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-closed:
			if err == nil {
				err = errors.New("the server closed the connection")
			}
			return fmt.Errorf("connection lost: %w", err)
		case <-s.changed:
		}
		t := time.NewTimer(relistDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		select {
		case <-s.changed:
		default:
		}
		start := time.Now()
		lctx, cancel := context.WithTimeout(ctx, s.m.cfg.ListTimeout)
		err := s.relist(lctx, sess)
		cancel()
		if err != nil {
			return fmt.Errorf("re-list after tools/list_changed: %w", err)
		}
		s.log.Info("mcp server tools changed: catalog follows", "tools", s.toolCount(),
			"elapsed", time.Since(start).Round(time.Microsecond).String())
	}
}

// disconnect closes the session (a stdio server's stdin; the SDK then
// waits for it to exit, and sends SIGTERM after stopTimeout) and makes sure
// the server's process group is gone.
func (s *server) disconnect(sess *mcp.ClientSession, proc *process) {
	s.mu.Lock()
	if s.session == sess {
		s.session = nil
	}
	s.st.PID = 0
	s.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
	proc.stop()
}

// transport builds the transport of one connection attempt: a fresh child
// process for stdio, an HTTP client with the configured headers for HTTP.
func (s *server) transport() (mcp.Transport, *process, error) {
	if s.cfg.IsHTTP() {
		h, err := s.headers()
		if err != nil {
			return nil, nil, err
		}
		return &mcp.StreamableClientTransport{
			Endpoint:   s.cfg.URL,
			HTTPClient: &http.Client{Transport: &headerTransport{base: http.DefaultTransport, h: h}},
		}, nil, nil
	}
	env := os.Environ()
	if s.cfg.EnvFile != "" {
		extra, err := ReadEnvFile(s.cfg.EnvFile)
		if err != nil {
			return nil, nil, err
		}
		env = append(env, extra...)
	}
	env = append(env, s.cfg.Env...)
	cmd := exec.Command(s.cfg.Command[0], s.cfg.Command[1:]...)
	cmd.Env = env
	cmd.Dir = s.cfg.Dir
	proc := &process{cmd: cmd, stderr: newTail(s.log)}
	s.lastProc = proc
	cmd.Stderr = proc.stderr
	cmd.WaitDelay = stopTimeout
	setProcAttrs(cmd)
	return &processTransport{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: stopTimeout}, proc: proc}, proc, nil
}

// headers returns the HTTP headers: Headers, then HeadersFile, then the
// bearer token, each read now so a rotated secret takes effect.
func (s *server) headers() (http.Header, error) {
	h := http.Header{}
	for k, v := range s.cfg.Headers {
		h.Set(k, v)
	}
	if s.cfg.HeadersFile != "" {
		fh, err := ReadHeadersFile(s.cfg.HeadersFile)
		if err != nil {
			return nil, err
		}
		for k, v := range fh {
			h.Set(k, v)
		}
	}
	if s.cfg.BearerTokenFile != "" {
		tok, err := readToken(s.cfg.BearerTokenFile)
		if err != nil {
			return nil, err
		}
		h.Set("Authorization", "Bearer "+tok)
	}
	return h, nil
}

// headerTransport adds headers to every request.
type headerTransport struct {
	base http.RoundTripper
	h    http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) == 0 {
		return t.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	maps.Copy(r.Header, t.h)
	return t.base.RoundTrip(r)
}

func (s *server) markFirstDone() { s.firstOnce.Do(func() { close(s.firstDone) }) }

// setState records a state change; err is the cause of going down.
func (s *server) setState(st State, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.State != st {
		s.st.State, s.st.Since = st, time.Now()
	}
	if err != nil {
		s.st.LastError = err.Error()
	} else if st == StateUp {
		s.st.LastError = ""
	}
	if st == StateDown && len(s.tools) > 0 && s.st.RemoveAt.IsZero() {
		s.st.RemoveAt = time.Now().Add(s.m.cfg.GracePeriod)
	}
	if st == StateUp {
		s.st.RemoveAt = time.Time{}
	}
}

func (s *server) status() ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

func (s *server) toolCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tools)
}

// missingExecutable reports whether err is a stdio server's executable
// not being found (on $PATH, or at the path given).
func missingExecutable(err error) bool {
	var ee *exec.Error
	var pe *fs.PathError
	return errors.Is(err, exec.ErrNotFound) || errors.As(err, &ee) && errors.Is(ee.Err, fs.ErrNotExist) ||
		errors.As(err, &pe) && pe.Op == "fork/exec" && errors.Is(pe.Err, fs.ErrNotExist)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// timeoutHint says which knob to raise when a connect or list timed out.
func timeoutHint(err error, ctx context.Context, d time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w (no answer within %v; raise --mcp-timeout if the server is slow to start)", err, d)
	}
	return err
}
