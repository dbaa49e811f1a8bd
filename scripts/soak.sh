#!/usr/bin/env bash
# Load and soak test: a sustained end-to-end run against a real sidecar on
# loopback, bounded in time, with the sidecar's RSS sampled from
# /proc/PID/status every REPORT seconds (`toolsearch bench --report-every
# --rss-pid`). It passes when the run has zero errors and the RSS after
# warm-up stays within RSS_SLACK_MB of its first post-warm-up sample.
#
#   scripts/soak.sh                                   # 10k tools, 64 clients, 3 minutes
#   SIZE=1000 CONCURRENCY=64 DURATION=10m scripts/soak.sh
#
# Progress lines (JSON: elapsed_s, qps, done, errors, rss_mb) go to
# $OUT/soak-progress.jsonl; the final bench JSON to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${SIZE:-10000}
CONCURRENCY=${CONCURRENCY:-64}
CONNS=${CONNS:-4}
DURATION=${DURATION:-3m}
WARMUP=${WARMUP:-20s}
REPORT=${REPORT:-10s}
TYPE=${TYPE:-default}
PORT=${PORT:-50198}
RSS_SLACK_MB=${RSS_SLACK_MB:-10}
OUT=${OUT:-.tmp/soak}

mkdir -p "$OUT"
go build -o "$OUT/sidecar" ./cmd/sidecar
go build -o "$OUT/toolsearch" ./cmd/toolsearch
TS="$OUT/toolsearch"
cat="$OUT/synthetic-$SIZE.jsonl"
[[ -f "$cat" ]] || "$TS" bench --synthetic "$SIZE" --write-catalog "$cat"

"$OUT/sidecar" --catalog "$cat" --listen "127.0.0.1:$PORT" >"$OUT/sidecar.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT

echo "soak: $SIZE tools, $CONCURRENCY clients over $CONNS connections, $TYPE mode, $DURATION after $WARMUP warm-up (sidecar pid $pid)" >&2
res=$("$TS" bench --addr "127.0.0.1:$PORT" --synthetic "$SIZE" --type "$TYPE" --concurrency "$CONCURRENCY" --conns "$CONNS" \
	--duration "$DURATION" --warmup "$WARMUP" --report-every "$REPORT" --rss-pid "$pid" --json 2>"$OUT/soak-progress.jsonl")
echo "$res"
grep '^{' "$OUT/soak-progress.jsonl" >&2 || true

# Verdict: zero errors, RSS flat (max - first sample ≤ slack).
python3 - "$OUT/soak-progress.jsonl" "$RSS_SLACK_MB" "$res" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
slack, res = float(sys.argv[2]), json.loads(sys.argv[3])
rss = [l["rss_mb"] for l in lines]
ok = res["errors"] == 0 and rss and max(rss) - rss[0] <= slack
print(f"soak: {res['queries']} searches, {res['errors']} errors, {res['qps']:.0f}/s, p99 {res['p99_us']} µs; "
      f"sidecar RSS {rss[0]:.1f} → {rss[-1]:.1f} MB (max {max(rss):.1f}, {len(rss)} samples): {'PASS' if ok else 'FAIL'}", file=sys.stderr)
sys.exit(0 if ok else 1)
PY
