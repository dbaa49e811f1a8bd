#!/usr/bin/env bash
# Measures the sidecar's memory for docs/operations.md (sizing): runs the real
# sidecar binary on the bench catalogs (../shared/bench), waits until the
# semantic index is built, sends every labelled query of the datasets through
# `toolsearch eval --addr`, and prints the resident set size (VmRSS now,
# VmHWM peak) and the CPU time the sidecar used.
#
#   scripts/sizing.sh            # builtin embedder, all sizes
#   EMBEDDER=none scripts/sizing.sh
#
# rss_mb is the resident set after the queries, peak_mb the peak (VmHWM),
# cpu_s the sidecar's CPU time (start-up, indexing and all queries), ready_s
# the time from start until the semantic index was ready.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BENCH:-../shared/bench}
EMBEDDER=${EMBEDDER:-builtin}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -trimpath -o "$out/" ./cmd/sidecar ./cmd/toolsearch

lm=$BENCH/livemcpbench/tools.jsonl
bf=$BENCH/bfcl/tools.jsonl
st=$BENCH/stabletoolbench/tools.jsonl
# name|catalog flags: SERVER= prefixes give each copy distinct tool names
# (stabletoolbench once: a prefix makes one of its names too long).
configs=(
  "527 (livemcpbench)|--catalog $lm"
  "2015 (bfcl)|--catalog $bf"
  "5021 (all three)|--catalog $lm --catalog $bf --catalog $st"
  "10105 (stb + 3x bfcl, 3x lmb)|--catalog $st --catalog a=$bf --catalog b=$bf --catalog c=$bf --catalog a=$lm --catalog b=$lm --catalog c=$lm"
)
printf '%-32s %8s %8s %8s %8s\n' tools rss_mb peak_mb cpu_s ready_s
for c in "${configs[@]}"; do
  name=${c%%|*}
  flags=${c#*|}
  log=$out/log
  port=$((20000 + RANDOM % 20000))
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$out/sidecar" --listen 127.0.0.1:$port --metrics-listen '' --embedder "$EMBEDDER" $flags 2>"$log" &
  pid=$!
  for _ in $(seq 1 600); do
    if grep -q '"msg":"semantic index ready"\|"msg":"serving"' "$log" && { [ "$EMBEDDER" = none ] || grep -q 'semantic index ready' "$log"; }; then break; fi
    sleep 0.1
  done
  ready=$(echo "$(date +%s.%N) - $start" | bc)
  for d in livemcpbench bfcl stabletoolbench; do
    "$out/toolsearch" eval --addr 127.0.0.1:$port --queries "$BENCH/$d/queries.jsonl" --json >/dev/null 2>&1 || true
  done
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
  hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
  ticks=$(awk '{print $14 + $15}' /proc/$pid/stat)
  kill -TERM $pid; wait $pid || true
  printf '%-32s %8d %8d %8.1f %8.2f\n' "$name" $((rss / 1024)) $((hwm / 1024)) "$(echo "$ticks / $(getconf CLK_TCK)" | bc -l)" "$ready"
done
