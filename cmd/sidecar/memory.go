package main

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
)

// The memory limit (--memory-limit): the sidecar turns it into the engine's
// memory budget (search.BudgetFor), so that an UpsertTools the pod cannot
// afford is RESOURCE_EXHAUSTED instead of an OOM kill.

// memoryLimitAuto is --memory-limit's default: the limit is GOMEMLIMIT if
// set, else the cgroup's (v2 memory.max, else v1 memory.limit_in_bytes),
// else there is none.
const memoryLimitAuto = "auto"

// memoryLimitNone turns the budget off.
const memoryLimitNone = "none"

// Where the cgroup's memory limit is read from, v2 first. A v1 limit of
// cgroupV1Unlimited or more means none (the kernel's "no limit" is the
// largest multiple of the page size below 2^63).
const (
	cgroupV2MemoryMax = "/sys/fs/cgroup/memory.max"
	cgroupV1Limit     = "/sys/fs/cgroup/memory/memory.limit_in_bytes"
	cgroupV1Unlimited = 1 << 62
)

// goSoftLimitShare is the share of the limit the sidecar gives the Go
// runtime's soft memory limit (debug.SetMemoryLimit) when GOMEMLIMIT is not
// set, before the file-backed pages are taken off (goSoftLimit): 90%, so
// the collector works harder before the kernel's limit is reached rather
// than at it (the Go guide to the GC suggests leaving 5–10%).
const goSoftLimitShare = 0.90

// goSoftLimitFloor is the least share of the limit goSoftLimit leaves the
// runtime, whatever the file-backed pages read: a half.
const goSoftLimitFloor = 0.5

// goSoftLimit is the Go runtime's soft limit for a process limited to
// limitBytes whose file-backed resident pages (the mapped binary) are
// fileRSS bytes: goSoftLimitShare of the limit less fileRSS, at least
// goSoftLimitFloor of it. The Go limit counts only the runtime's memory; the
// kernel's counts the binary's pages too (~29 MiB of RSS). With 90% alone,
// a sidecar filled to its budget's edge under 512 MiB peaked at 487 MiB on
// a quiet machine and 502–512 MiB under a load of 20 (the collector falls
// behind the upserts); less the file pages, 90% leaves the same 10% margin
// whatever the binary's size (TestBudgetEdgeUnderLimit; docs/benchmarks.md,
// memory).
func goSoftLimit(limitBytes, fileRSS int64) int64 {
	soft := int64(float64(limitBytes)*goSoftLimitShare) - max(fileRSS, 0)
	return max(soft, int64(float64(limitBytes)*goSoftLimitFloor))
}

// procSelfStatus is where fileBackedRSS reads the process's file-backed
// resident memory (Linux).
const procSelfStatus = "/proc/self/status"

// fileBackedRSS is the RssFile line of a /proc/<pid>/status text, in bytes,
// or 0 when there is none (not Linux, or an older kernel).
func fileBackedRSS(status []byte) int64 {
	for line := range strings.Lines(string(status)) {
		rest, ok := strings.CutPrefix(line, "RssFile:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil || kb < 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// memoryLimit is a resolved --memory-limit.
type memoryLimit struct {
	// bytes is the limit, 0 when there is none.
	bytes int64
	// source says where it came from: "--memory-limit", "GOMEMLIMIT",
	// "cgroup v2 memory.max", "cgroup v1 memory.limit_in_bytes", or "none".
	source string
}

// resolveMemoryLimit resolves the flag's value: a size, none, or auto
// (gomemlimit, GOMEMLIMIT's value, then the cgroup files read with
// readFile).
func resolveMemoryLimit(flagValue, gomemlimit string, readFile func(string) ([]byte, error)) (memoryLimit, error) {
	switch v := strings.TrimSpace(flagValue); v {
	case memoryLimitNone:
		return memoryLimit{source: "none"}, nil
	case memoryLimitAuto, "":
	default:
		n, err := parseBytes(v)
		if err != nil || n <= 0 {
			return memoryLimit{}, fmt.Errorf("--memory-limit %q: use a size such as 512Mi or 1Gi, auto (GOMEMLIMIT, else the cgroup's limit) or none", flagValue)
		}
		return memoryLimit{bytes: n, source: "--memory-limit"}, nil
	}
	if v := strings.TrimSpace(gomemlimit); v != "" && v != "off" {
		n, err := parseBytes(v)
		if err != nil || n <= 0 {
			return memoryLimit{}, fmt.Errorf("GOMEMLIMIT=%q is not a size such as 512MiB; fix it, or give --memory-limit", v)
		}
		if n < math.MaxInt64 {
			return memoryLimit{bytes: n, source: "GOMEMLIMIT"}, nil
		}
	}
	if b, err := readFile(cgroupV2MemoryMax); err == nil {
		v := strings.TrimSpace(string(b))
		if v == "max" {
			return memoryLimit{source: "none"}, nil
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return memoryLimit{bytes: n, source: "cgroup v2 memory.max"}, nil
		}
	}
	if b, err := readFile(cgroupV1Limit); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && n < cgroupV1Unlimited {
			return memoryLimit{bytes: n, source: "cgroup v1 memory.limit_in_bytes"}, nil
		}
	}
	return memoryLimit{source: "none"}, nil
}

// byteUnits are the unit suffixes parseBytes accepts: Kubernetes' (Ki, Mi,
// Gi, Ti; k, M, G, T) and Go's GOMEMLIMIT's (B, KiB, MiB, GiB, TiB).
var byteUnits = []struct {
	suffix string
	factor int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40},
	{"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12},
	{"B", 1},
}

// parseBytes parses a size: a whole number of bytes, optionally with a unit
// of byteUnits ("536870912", "512Mi", "512MiB", "1G").
func parseBytes(s string) (int64, error) {
	num, factor := s, int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, factor = rest, u.factor
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > math.MaxInt64/factor {
		return 0, errors.New("out of range")
	}
	return n * factor, nil
}

// memoryBudget is the engine's budget for limit: search.BudgetFor, or an
// error saying how much more a limit too small for any catalog needs.
func memoryBudget(limit memoryLimit) (int64, error) {
	if limit.bytes == 0 {
		return 0, nil
	}
	budget := search.BudgetFor(limit.bytes)
	if budget <= 0 {
		return 0, fmt.Errorf("the memory limit of %d MiB (%s) is below the sidecar's base of %d MiB: give the sidecar more memory (and --memory-limit, or none to turn the budget off)",
			limit.bytes>>20, limit.source, search.BaseMemory>>20)
	}
	return budget, nil
}

// mcpSessionShare is the share of the budget set aside for the MCP
// endpoint's HTTP sessions when it serves over HTTP: at most a quarter,
// and no more than --max-sessions sessions take (mcpserver.SessionMemory
// each). For example 512Mi leaves 224 MiB: 56 MiB (896 sessions) for the
// sessions, 168 MiB for the catalog.
const mcpSessionShare = 4

// mcpSessionBudget is the memory of the MCP endpoint's HTTP sessions out of
// budget (0: no budget, no bound but the number).
func mcpSessionBudget(budget int64, maxSessions int) int64 {
	if budget <= 0 {
		return 0
	}
	return min(budget/mcpSessionShare, int64(maxSessions)*mcpserver.SessionMemory)
}

// setGoMemoryLimit sets the Go runtime's soft memory limit from limit
// (goSoftLimit, with the file-backed pages read by readFile from
// procSelfStatus) when GOMEMLIMIT (gomemlimit) does not set it already (the
// runtime reads that itself), and returns the limit set (0 when none) and a
// function restoring the previous one.
func setGoMemoryLimit(limit memoryLimit, gomemlimit string, readFile func(string) ([]byte, error)) (soft int64, restore func()) {
	if limit.bytes == 0 || gomemlimit != "" {
		return 0, func() {}
	}
	var fileRSS int64
	if b, err := readFile(procSelfStatus); err == nil {
		fileRSS = fileBackedRSS(b)
	}
	soft = goSoftLimit(limit.bytes, fileRSS)
	prev := debug.SetMemoryLimit(soft)
	return soft, func() { debug.SetMemoryLimit(prev) }
}

// logMemory logs the limit, the Go soft limit the sidecar set (goSoft, 0
// when none), the budget and how many tools fit.
func logMemory(log *slog.Logger, limit memoryLimit, goSoft int64, m search.MemoryInfo) {
	if m.Budget == 0 {
		log.Info("no memory budget: UpsertTools is limited by --max-tools alone; set --memory-limit (or run in a container with a memory limit) to refuse changes the sidecar cannot afford",
			"memory_limit", limit.source, "catalog_estimate_mib", mib(m.Estimate), "tools", m.Tools)
		return
	}
	log.Info("memory budget", "memory_limit_mib", mib(limit.bytes), "source", limit.source, "go_soft_limit_mib", mib(goSoft), "budget_mib", mib(m.Budget),
		"catalog_estimate_mib", mib(m.Estimate), "tools", m.Tools, "dimensions", m.Dimensions, "tools_that_fit", m.Fit)
}

// mib is n bytes in MiB, rounded to a tenth.
func mib(n int64) float64 { return math.Round(float64(n)/(1<<20)*10) / 10 }
