package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/learn"
)

// hungServer accepts connections and never answers, as a learned-state
// URL in an outage can; accepted receives each connection's arrival.
func hungServer(t *testing.T) (url string, accepted <-chan struct{}) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	acc := make(chan struct{}, 16)
	done := make(chan struct{})
	var conns []net.Conn
	go func() {
		defer close(done)
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			select {
			case acc <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		lis.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + lis.Addr().String() + "/learned.jsonl", acc
}

// A --learn-from URL that never answers neither holds readiness (the pull
// is bounded and the sidecar serves with a warning) nor a signal (the
// start-up ends at once).
func TestStartupHungLearnFrom(t *testing.T) {
	url, accepted := hungServer(t)
	args := []string{"--learn", "--learn-from", url, "--learn-pull-interval", "1h"}
	t.Run("ready with a warning", func(t *testing.T) {
		r := launchHooks(t, hooks{startPullTimeout: 200 * time.Millisecond}, nil, args...)
		if log := r.stderr.String(); !strings.Contains(log, "pulling learned state failed") {
			t.Errorf("no warning about the pull:\n%s", log)
		}
	})
	t.Run("a signal during the pull stops the sidecar", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var stderr logbuf.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", "../../examples/catalog.json"}, args...),
				env(nil), &stderr, hooks{}) // the pull's own timeout: 10 s
		}()
		select {
		case <-accepted:
		case code := <-done:
			t.Fatalf("exited with %d before pulling:\n%s", code, stderr.String())
		}
		cancel() // SIGTERM
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit code %d, want 0:\n%s", code, stderr.String())
			}
		case <-time.After(time.Minute): // a hang guard, not the verdict
			t.Fatalf("still running a minute after the signal:\n%s", stderr.String())
		}
		if log := stderr.String(); strings.Contains(log, `"msg":"serving"`) {
			t.Errorf("served after the signal:\n%s", log)
		}
	})
}

// A catalog that is a named pipe (standing for a read that never returns)
// fails the start at once, naming it.
func TestStartupFIFOCatalog(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "catalog.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	var stderr logbuf.Buffer
	code := run(context.Background(), []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", fifo}, env(nil), &stderr, hooks{})
	if log := stderr.String(); code != 1 || !strings.Contains(log, fifo) || !strings.Contains(log, "named pipe") {
		t.Errorf("exit %d; want 1 and a message naming %s as a named pipe:\n%s", code, fifo, log)
	}
}

// within bounds a read that never returns, and ends the wait on a signal.
func TestWithin(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	hung := func() (int, error) { <-block; return 0, nil }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		timeout time.Duration
		f       func() (int, error)
		want    string
	}{
		{"returns", context.Background(), time.Hour, func() (int, error) { return 1, nil }, ""},
		{"hangs past the timeout", context.Background(), time.Millisecond, hung, "catalog /mnt/c.json: not read after 1ms"},
		{"a signal", cancelled, time.Hour, hung, "catalog /mnt/c.json: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := within(tt.ctx, "/mnt/c.json", tt.timeout, tt.f)
			if got := fmt.Sprint(err); (tt.want == "" && err != nil) || !strings.HasPrefix(got, tt.want) {
				t.Errorf("within = %v, want %q", err, tt.want)
			}
		})
	}
}

// learnedLine is one learned-state record as of now.
func learnedLine(tool, query string, weight float64, sessions int) string {
	s := fmt.Sprintf(`{"tool":%q,"query":%q,"weight":%g,"at":%q`, tool, query, weight, time.Now().UTC().Format(time.RFC3339))
	if sessions > 0 {
		s += fmt.Sprintf(`,"sessions":%d`, sessions)
	}
	return s + "}\n"
}

// learnedTools lists the tools the sidecar has learned something for.
func learnedTools(t *testing.T, c *toolsearch.Client) []string {
	t.Helper()
	got, err := c.Raw().GetLearned(context.Background(), &toolsearchv1.GetLearnedRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range got.GetTools() {
		names = append(names, tl.GetToolName())
	}
	slices.Sort(names)
	return names
}

// A junk line appended to learned.jsonl costs that line: the other learned
// queries survive the restart, the damaged file is kept aside, and the
// next save writes the file whole again.
func TestLearnedStateSurvivesABadLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, learn.FileName)
	good := learnedLine("slack__send_message", "post to the team channel", 1, 2) + learnedLine("weather__get_forecast", "will it rain", 1, 2)
	for name, tail := range map[string]string{"junk appended": "junk\n", "torn tail": `{"tool":"git__status","query":"wha`} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(good+tail), 0o644); err != nil {
				t.Fatal(err)
			}
			want := []string{"slack__send_message", "weather__get_forecast"}
			r := launch(t, "--learn", "--cache-dir", dir)
			if got := learnedTools(t, r.dial(t)); !slices.Equal(got, want) {
				t.Errorf("learned after the restart: %v, want %v", got, want)
			}
			if log := r.stderr.String(); !strings.Contains(log, `"skipped_lines":1`) {
				t.Errorf("the bad line was not reported:\n%s", log)
			}
			if b, err := os.ReadFile(path + learn.DamagedSuffix); err != nil || !strings.HasSuffix(string(b), tail) {
				t.Errorf("the damaged file was not kept: %v", err)
			}
			if code := r.stop(t); code != 0 {
				t.Fatalf("exit %d", code)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), tail) || strings.Count(string(b), "\n") != 2 {
				t.Errorf("the file saved at shutdown:\n%s", b)
			}
		})
	}
}

// A crafted learned record — one claimed session, weight 3 — from the
// file or --learn-from does not bring slack__send_message into the top 5
// for "weather forecast"; the same record claiming three sessions does
// (the control: the record is read).
func TestCraftedLearnedRecordLiftsNothing(t *testing.T) {
	tests := []struct {
		name     string
		sessions int
		lifted   bool
	}{
		{"crafted: weight 3, no sessions", 0, false},
		{"crafted: weight 3, one session", 1, false},
		{"claimed by three sessions", 3, true},
	}
	for _, tt := range tests {
		for _, source := range []string{"file", "--learn-from"} {
			t.Run(tt.name+" via "+source, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, learn.FileName)
				if err := os.WriteFile(path, []byte(learnedLine("slack__send_message", "weather forecast for tomorrow", 3, tt.sessions)), 0o644); err != nil {
					t.Fatal(err)
				}
				args := []string{"--learn", "--cache-dir", dir}
				if source == "--learn-from" {
					args = []string{"--learn", "--learn-from", path, "--learn-pull-interval", "1h"}
				}
				r := launch(t, args...)
				resp, err := r.dial(t).Search(context.Background(), "weather forecast", toolsearch.WithMaxResults(5))
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, ref := range resp.GetToolReferences() {
					names = append(names, ref.GetToolName())
				}
				if got := slices.Contains(names, "slack__send_message"); got != tt.lifted {
					t.Errorf("slack__send_message in the top 5 = %v, want %v: %v", got, tt.lifted, names)
				}
			})
		}
	}
}

// Catalog files larger than the memory budget are refused from their size,
// before any is read.
func TestReadCatalogsBudget(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, make([]byte, 600), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sources := catalog.ParseSources(a, b)
	tests := []struct {
		name    string
		budget  int64
		wantErr string
	}{
		{"no budget", 0, ""},
		{"within the budget", 1200, ""},
		{"over it together", 1199, "the catalog files hold 1200 bytes (0.0 MiB), more than the whole memory budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := readCatalogs(context.Background(), sources, tt.budget, time.Minute)
			if tt.wantErr == "" {
				if err != nil || len(data) != 2 || len(data[0])+len(data[1]) != 1200 {
					t.Errorf("readCatalogs = %d files, %v", len(data), err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("readCatalogs error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
