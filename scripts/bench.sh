#!/usr/bin/env bash
# End-to-end benchmark of the sidecar over loopback gRPC, as docs/benchmarks.md
# ("Performance at scale") reports it: for each catalog size, write the
# synthetic catalog, start the sidecar on it, time start-up to a ready
# semantic index, run `toolsearch bench --addr` per search type, and read the
# sidecar's RSS from /proc/PID/status. Loopback only; every run is bounded
# by --duration.
#
#   scripts/bench.sh                        # sizes 1000 10000 100000
#   SIZES="10000" DURATION=10s CONCURRENCY=1 scripts/bench.sh
#
# Prints one JSON line per run (the bench output plus size, type and
# startup_ms) on stdout; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"1000 10000 100000"}
TYPES=${TYPES:-"default keyword"}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-2s}
CONCURRENCY=${CONCURRENCY:-1}
CONNS=${CONNS:-1}
PORT=${PORT:-50199}
LOG_LEVEL=${LOG_LEVEL:-info}
OUT=${OUT:-.tmp/bench}

mkdir -p "$OUT"
go build -o "$OUT/sidecar" ./cmd/sidecar
go build -o "$OUT/toolsearch" ./cmd/toolsearch
TS="$OUT/toolsearch"

pid=""
cleanup() { if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

for n in $SIZES; do
	cat="$OUT/synthetic-$n.jsonl"
	[[ -f "$cat" ]] || "$TS" bench --synthetic "$n" --write-catalog "$cat"
	start=$(date +%s%N)
	"$OUT/sidecar" --catalog "$cat" --listen "127.0.0.1:$PORT" --log-level "$LOG_LEVEL" >"$OUT/sidecar-$n.log" 2>&1 &
	pid=$!
	# One search once the index is ready: bench waits for READY (bounded).
	"$TS" bench --addr "127.0.0.1:$PORT" --synthetic "$n" --requests 1 --warmup 0 --json >/dev/null
	startup_ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo "bench: $n tools: sidecar ready in $startup_ms ms (pid $pid)" >&2
	for t in $TYPES; do
		res=$("$TS" bench --addr "127.0.0.1:$PORT" --synthetic "$n" --type "$t" --concurrency "$CONCURRENCY" \
			--conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --rss-pid "$pid" --json)
		echo "{\"size\":$n,\"type\":\"$t\",\"startup_ms\":$startup_ms,\"bench\":$res}"
	done
	cleanup
	pid=""
done
