package main

import (
	"context"
	"github.com/toolsearch/toolsearch/mcpserver"
	"io/fs"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"536870912", 536870912},
		{"512Mi", 512 << 20},
		{"512MiB", 512 << 20},
		{"1Gi", 1 << 30},
		{"1GiB", 1 << 30},
		{"64Ki", 64 << 10},
		{"1G", 1e9},
		{"500M", 500e6},
		{"100B", 100},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseBytes(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("parseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "Mi", "1.5Gi", "-1Mi", "512MB", "lots", "99999999999Ti"} {
		if n, err := parseBytes(bad); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", bad, n)
		}
	}
}

func TestResolveMemoryLimit(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(name string) ([]byte, error) {
			if v, ok := m[name]; ok {
				return []byte(v), nil
			}
			return nil, fs.ErrNotExist
		}
	}
	for _, tc := range []struct {
		name       string
		flag       string
		gomemlimit string
		files      map[string]string
		want       memoryLimit
	}{
		{"flag wins", "1Gi", "512MiB", map[string]string{cgroupV2MemoryMax: "268435456\n"}, memoryLimit{1 << 30, "--memory-limit"}},
		{"none", "none", "512MiB", nil, memoryLimit{0, "none"}},
		{"GOMEMLIMIT first", "auto", "512MiB", map[string]string{cgroupV2MemoryMax: "268435456\n"}, memoryLimit{512 << 20, "GOMEMLIMIT"}},
		{"GOMEMLIMIT in bytes, as Kubernetes' resourceFieldRef writes it", "auto", "536870912", nil, memoryLimit{512 << 20, "GOMEMLIMIT"}},
		{"GOMEMLIMIT off: the cgroup", "auto", "off", map[string]string{cgroupV2MemoryMax: "268435456\n"}, memoryLimit{256 << 20, "cgroup v2 memory.max"}},
		{"cgroup v2", "auto", "", map[string]string{cgroupV2MemoryMax: "268435456\n"}, memoryLimit{256 << 20, "cgroup v2 memory.max"}},
		{"cgroup v2 unlimited", "auto", "", map[string]string{cgroupV2MemoryMax: "max\n", cgroupV1Limit: "268435456\n"}, memoryLimit{0, "none"}},
		{"cgroup v1", "auto", "", map[string]string{cgroupV1Limit: "268435456\n"}, memoryLimit{256 << 20, "cgroup v1 memory.limit_in_bytes"}},
		{"cgroup v1 unlimited", "auto", "", map[string]string{cgroupV1Limit: "9223372036854771712\n"}, memoryLimit{0, "none"}},
		{"no cgroup", "auto", "", nil, memoryLimit{0, "none"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveMemoryLimit(tc.flag, tc.gomemlimit, files(tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(memoryLimit{})); diff != "" {
				t.Errorf("resolveMemoryLimit (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := resolveMemoryLimit("auto", "half", files(nil)); err == nil || !strings.Contains(err.Error(), "GOMEMLIMIT") {
		t.Errorf("a malformed GOMEMLIMIT: %v, want an error naming it", err)
	}
}

func TestMemoryBudgetOfLimit(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		want  int64
	}{
		{0, 0},                 // no limit, no budget
		{512 << 20, 224 << 20}, // (512 − 64) / 2
		{1 << 30, 480 << 20},   // (1,024 − 64) / 2
		{2 << 30, (2048 - 64) << 19},
	} {
		got, err := memoryBudget(memoryLimit{bytes: tc.limit, source: "test"})
		if err != nil || got != tc.want {
			t.Errorf("memoryBudget(%d) = %d, %v; want %d", tc.limit, got, err, tc.want)
		}
	}
	_, err := memoryBudget(memoryLimit{bytes: 64 << 20, source: "--memory-limit"})
	if err == nil || !strings.Contains(err.Error(), "below the sidecar's base of 64 MiB") {
		t.Errorf("memoryBudget(64Mi) = %v, want an error naming the base", err)
	}
}

// TestMemoryLimit runs the real sidecar with a memory budget of 1 MiB: the
// example catalog (67 tools, about 0.3 MiB by the estimate) fits, an
// UpsertTools of 20 tools with 10 kB descriptions (about 0.8 MiB) does not
// and is RESOURCE_EXHAUSTED, and the catalog is unchanged.
func TestMemoryLimit(t *testing.T) {
	ctx := context.Background()
	t.Run("upsert past the budget", func(t *testing.T) {
		// GOMEMLIMIT is set, so the sidecar leaves the test process's Go
		// memory limit alone; the flag wins for the budget.
		r := launchEnv(t, map[string]string{"GOMEMLIMIT": "4GiB"}, "--memory-limit", "66Mi")
		for _, want := range []string{`"msg":"memory budget"`, `"memory_limit_mib":66`, `"source":"--memory-limit"`, `"budget_mib":1`, `"tools":67`} {
			if !strings.Contains(r.stderr.String(), want) {
				t.Errorf("start-up log lacks %s:\n%s", want, r.stderr.String())
			}
		}
		c := r.dial(t)
		before, err := c.Raw().GetCatalogInfo(ctx, &toolsearchv1.GetCatalogInfoRequest{})
		if err != nil {
			t.Fatal(err)
		}
		small := &toolsearchv1.Tool{Name: "t__small", Description: "A test tool."}
		if _, err := c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{small}}); err != nil {
			t.Fatalf("a small upsert within the budget: %v", err)
		}
		var big []*toolsearchv1.Tool
		for i := range 20 {
			big = append(big, &toolsearchv1.Tool{Name: "t__big" + string(rune('a'+i)), Description: strings.Repeat("lorem ipsum ", 850)})
		}
		_, err = c.Raw().UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: big})
		if status.Code(err) != codes.ResourceExhausted {
			t.Fatalf("upsert past the budget: %v, want ResourceExhausted", err)
		}
		for _, want := range []string{"over the budget of 1.0 MiB", "more tools of this batch's average size", "--memory-limit", "delete tools"} {
			if !strings.Contains(status.Convert(err).Message(), want) {
				t.Errorf("error %q does not say %q", status.Convert(err).Message(), want)
			}
		}
		after, err := c.Raw().GetCatalogInfo(ctx, &toolsearchv1.GetCatalogInfoRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := after.GetToolCount(), before.GetToolCount()+1; got != want {
			t.Errorf("tools after the refused upsert = %d, want %d", got, want)
		}
		if got, want := after.GetCatalogVersion(), before.GetCatalogVersion()+1; got != want {
			t.Errorf("catalog version after the refused upsert = %d, want %d (the small upsert only)", got, want)
		}
		if _, err := c.Raw().GetTools(ctx, &toolsearchv1.GetToolsRequest{Names: []string{"t__biga"}}); status.Code(err) != codes.NotFound {
			t.Errorf("GetTools of a refused tool: %v, want NotFound", err)
		}
	})
	t.Run("catalog past the budget at start-up", func(t *testing.T) {
		var stderr logbuf.Buffer
		code := run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--catalog", "../../examples/catalog.json", "--memory-limit", "65736Ki"},
			env(map[string]string{"GOMEMLIMIT": "4GiB"}), &stderr, hooks{})
		if code != 1 || !strings.Contains(stderr.String(), "the catalog of 67 tools needs an estimated") || !strings.Contains(stderr.String(), "--memory-limit") {
			t.Errorf("exit %d, stderr %s; want 1, the estimate and --memory-limit", code, stderr.String())
		}
	})
	t.Run("bad values", func(t *testing.T) {
		for _, v := range []string{"lots", "-1Gi", "0"} {
			var stderr logbuf.Buffer
			if code := run(ctx, []string{"--memory-limit", v}, env(nil), &stderr, hooks{}); code != 2 || !strings.Contains(stderr.String(), "--memory-limit") {
				t.Errorf("--memory-limit %s: exit %d, stderr %q; want 2 naming --memory-limit", v, code, stderr.String())
			}
		}
		var stderr logbuf.Buffer
		if code := run(ctx, []string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--memory-limit", "32Mi"}, env(nil), &stderr, hooks{}); code != 1 || !strings.Contains(stderr.String(), "below the sidecar's base") {
			t.Errorf("--memory-limit 32Mi: exit %d, stderr %q; want 1 naming the base", code, stderr.String())
		}
	})
}

func TestMCPSessionBudget(t *testing.T) {
	for _, tc := range []struct {
		name        string
		budget      int64
		maxSessions int
		want        int64
	}{
		{"no budget", 0, 10000, 0},
		{"a quarter of 512Mi's budget", 224 << 20, 10000, 56 << 20},
		{"fewer sessions than a quarter holds", 224 << 20, 100, 100 * mcpserver.SessionMemory},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mcpSessionBudget(tc.budget, tc.maxSessions); got != tc.want {
				t.Errorf("mcpSessionBudget(%d, %d) = %d, want %d", tc.budget, tc.maxSessions, got, tc.want)
			}
		})
	}
}

func TestGoSoftLimit(t *testing.T) {
	for _, tc := range []struct {
		name           string
		limit, fileRSS int64
		want           int64
	}{
		{"no file pages read", 1000 << 20, 0, 900 << 20},
		{"the binary's pages taken off", 1000 << 20, 29 << 20, 871 << 20},
		{"a negative reading counts as none", 1000 << 20, -5, 900 << 20},
		{"never below half the limit", 100 << 20, 80 << 20, 50 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := goSoftLimit(tc.limit, tc.fileRSS); got != tc.want {
				t.Errorf("goSoftLimit(%d, %d) = %d, want %d", tc.limit, tc.fileRSS, got, tc.want)
			}
		})
	}
}

func TestFileBackedRSS(t *testing.T) {
	status := "Name:\tsidecar\nVmHWM:\t  52000 kB\nRssAnon:\t   20000 kB\nRssFile:\t   29696 kB\nRssShmem:\t       0 kB\n"
	if got, want := fileBackedRSS([]byte(status)), int64(29696)<<10; got != want {
		t.Errorf("fileBackedRSS = %d, want %d", got, want)
	}
	for _, bad := range []string{"", "Name:\tsidecar\n", "RssFile:\tlots kB\n"} {
		if got := fileBackedRSS([]byte(bad)); got != 0 {
			t.Errorf("fileBackedRSS(%q) = %d, want 0", bad, got)
		}
	}
}

// TestSetGoMemoryLimit: the sidecar sets the Go limit from the limit less
// the file-backed pages read from /proc/self/status, leaves it alone under
// GOMEMLIMIT or without a limit, and restores the previous one.
func TestSetGoMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	status := func(string) ([]byte, error) { return []byte("RssFile:\t10240 kB\n"), nil }
	soft, restore := setGoMemoryLimit(memoryLimit{bytes: 1000 << 20, source: "--memory-limit"}, "", status)
	if want := int64(890 << 20); soft != want || debug.SetMemoryLimit(-1) != want {
		t.Errorf("soft limit %d (runtime %d), want %d", soft, debug.SetMemoryLimit(-1), want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("after restore the runtime's limit is %d, want %d", got, prev)
	}
	for _, tc := range []struct {
		name       string
		limit      memoryLimit
		gomemlimit string
	}{
		{"GOMEMLIMIT set", memoryLimit{bytes: 1000 << 20}, "4GiB"},
		{"no limit", memoryLimit{source: "none"}, ""},
	} {
		soft, restore := setGoMemoryLimit(tc.limit, tc.gomemlimit, status)
		if soft != 0 || debug.SetMemoryLimit(-1) != prev {
			t.Errorf("%s: soft %d, runtime %d; want 0 and the runtime's unchanged", tc.name, soft, debug.SetMemoryLimit(-1))
		}
		restore()
	}
}
