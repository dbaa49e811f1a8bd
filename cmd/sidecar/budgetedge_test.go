package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// servingAddrRE finds the gRPC address in the sidecar's "serving" log line.
var servingAddrRE = regexp.MustCompile(`"msg":"serving","addr":"([^"]+)"`)

// peakRSS is the VmHWM of process pid, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/%d/status", pid)
	}
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return kb << 10
}

// edgeTool is the i-th tool of the fill: a description of ~100 words from
// a vocabulary of a few thousand, as real catalogs repeat their words.
func edgeTool(i int) *toolsearchv1.Tool {
	var b strings.Builder
	for j := range 100 {
		n := (i*131 + j*7919) % 4000
		fmt.Fprintf(&b, "%s%s%s ", syllables[n%20], syllables[n/20%20], syllables[n/400%20])
	}
	return &toolsearchv1.Tool{Name: fmt.Sprintf("edge__tool_%06d", i), Description: b.String()}
}

var syllables = strings.Fields("ka lo mi ne su ra te vi do pa zu ge ho fi ba wo yu ce ri xa")

// TestBudgetEdgeUnderLimit runs the real sidecar binary with
// --memory-limit 512Mi, fills the catalog with upserts until the budget
// refuses one (RESOURCE_EXHAUSTED), then runs 64 concurrent searches whose
// words the catalog does not know, and upsert/delete churn under
// concurrent searches: the process's peak RSS (VmHWM) stays under the
// limit. Bounded by counts, not by time.
//
// The Go soft limit (goSoftLimit: 90% less the binary's file-backed
// pages, which VmHWM counts and the Go limit does not) leaves the margin:
// at 95% this test peaked at 513–514 MiB, at 90% alone at 487–502 MiB (512
// once under load), with the file pages taken off at 474–486 MiB under a
// load of 20–80.
func TestBudgetEdgeUnderLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads VmHWM from /proc")
	}
	const limit = 512 << 20
	bin := filepath.Join(t.TempDir(), "sidecar")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var stderr logbuf.Buffer
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--metrics-listen", "",
		"--catalog", "../../examples/catalog.json", "--memory-limit", "512Mi")
	// As in production: no GOMEMLIMIT, so the sidecar sets Go's own.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := testenv.Receive(t, "the sidecar's exit after SIGTERM", exited); err != nil {
			t.Errorf("sidecar exit: %v\n%s", err, stderr.String())
		}
	})
	var addr string
	testenv.WaitFor(t, "the sidecar serving", func() bool {
		if m := servingAddrRE.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Each call gets its own hang guard (the client's WithTimeout applies
	// to a call whose context has no deadline): one guard shared by the
	// whole test would bound its total time, and filling to the edge and
	// the churn under searches take minutes on a loaded machine.
	ctx := t.Context()
	pid := cmd.Process.Pid
	check := func(stage string) {
		t.Helper()
		rss := peakRSS(t, pid)
		t.Logf("%s: peak RSS %.0f MiB", stage, float64(rss)/(1<<20))
		if rss >= limit {
			t.Errorf("%s: peak RSS %d MiB, over --memory-limit 512Mi", stage, rss>>20)
		}
	}

	// Fill to the edge: batches of 500, then 50, then 5, until refused.
	tools := 0
	for batch := 500; batch >= 5; batch /= 10 {
		for range 1000 {
			var ts []*toolsearchv1.Tool
			for i := range batch {
				ts = append(ts, edgeTool(tools+i))
			}
			_, err := c.UpsertTools(ctx, ts...)
			if status.Code(err) == codes.ResourceExhausted {
				break
			}
			if err != nil {
				t.Fatalf("upsert at %d tools: %v", tools, err)
			}
			tools += batch
		}
	}
	if tools == 0 {
		t.Fatal("the budget refused the first batch")
	}
	check(fmt.Sprintf("filled to the edge (%d tools)", tools))

	// (a) 64 concurrent searches whose words the catalog does not know.
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			q := fmt.Sprintf("qzxv%d plorbtwq%d snerkfluv gwyndrax%d", g, g*7, g*13)
			if _, err := c.Search(ctx, q); err != nil {
				t.Errorf("search %q: %v", q, err)
			}
		})
	}
	wg.Wait()
	check("64 searches of unknown words")

	// (b) Upsert/delete churn at the edge, under concurrent searches.
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				victim := edgeTool((w*25 + i) * 37 % tools)
				if _, err := c.DeleteTools(ctx, victim.GetName()); err != nil {
					t.Errorf("delete %s: %v", victim.GetName(), err)
					return
				}
				if _, err := c.UpsertTools(ctx, victim); err != nil && status.Code(err) != codes.ResourceExhausted {
					t.Errorf("upsert %s: %v", victim.GetName(), err)
					return
				}
			}
		})
	}
	for g := range 16 {
		wg.Go(func() {
			for i := range 8 {
				q := fmt.Sprintf("%s%s unknownword%d", syllables[(g+i)%20], syllables[i%20], g*8+i)
				if _, err := c.Search(ctx, q); err != nil {
					t.Errorf("search %q: %v", q, err)
				}
			}
		})
	}
	wg.Wait()
	check("churn under search")
}
