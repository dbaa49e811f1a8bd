#!/usr/bin/env bash
# Runs examples/node against a real sidecar: builds the sidecar, starts it on
# free loopback ports with the example catalog and a bearer token, waits for
# /readyz, installs the example's locked dependencies (npm ci), runs a search
# and checks the reference-format JSON it prints; then checks that a wrong
# token is refused and that the metrics listener counted the searches.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null && command -v npm >/dev/null || { echo 'node-example: node and npm are needed' >&2; exit 1; }

tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/sidecar" ./cmd/sidecar
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$token" >"$tmp/token"
"$tmp/sidecar" --listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 --catalog examples/catalog.json \
  --auth-token-file "$tmp/token" 2>"$tmp/log" &
pid=$!
addr="" maddr=""
for _ in $(seq 1 300); do
  addr=$(sed -n 's/.*"msg":"serving","addr":"\([^"]*\)".*/\1/p' "$tmp/log" | head -1)
  maddr=$(sed -n 's/.*"msg":"metrics listening","addr":"\([^"]*\)".*/\1/p' "$tmp/log" | head -1)
  [ -n "$addr" ] && [ -n "$maddr" ] && curl -fsS "http://$maddr/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
[ -n "$addr" ] || { cat "$tmp/log" >&2; echo 'node-example: the sidecar did not start' >&2; exit 1; }
echo "node-example: sidecar on $addr, metrics on $maddr"

(cd examples/node && npm ci --no-audit --no-fund --loglevel=error)

out=$(TOOLSEARCH_ADDR=$addr TOOLSEARCH_TOKEN=$token node examples/node/search.js "send a message to the team on slack")
echo "$out"
node -e '
const r = JSON.parse(process.argv[1]);
const fail = (m) => { console.error("node-example: " + m); process.exit(1); };
if (!Array.isArray(r.tool_references) || r.tool_references.length === 0) fail("no tool_references");
if (!r.tool_references[0].tool_name.startsWith("slack__")) fail("top result is not a slack tool: " + r.tool_references[0].tool_name);
for (const t of r.tool_references) if (!(t.relevance_score >= 0 && t.relevance_score <= 1)) fail("score out of [0,1]");
if (!r.search_metadata || !r.search_metadata.search_type) fail("no search_metadata.search_type");
if (typeof r.total_matches !== "number") fail("no total_matches");
' "$out"

out=$(TOOLSEARCH_ADDR=$addr TOOLSEARCH_TOKEN=$token node examples/node/search.js --type regex 'github__.*issue')
node -e 'const r = JSON.parse(process.argv[1]); if (r.search_metadata.search_type !== "regex" || !r.tool_references.length) { console.error("node-example: regex search failed"); process.exit(1) }' "$out"

if TOOLSEARCH_ADDR=$addr TOOLSEARCH_TOKEN=wrong node examples/node/search.js "slack" 2>"$tmp/err"; then
  echo 'node-example: a wrong token was accepted' >&2; exit 1
fi
grep -q UNAUTHENTICATED "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
echo "node-example: a wrong token is refused: $(cat "$tmp/err")"

metrics=$(curl -fsS "http://$maddr/metrics")
ok=$(sed -n 's/^toolsearch_grpc_requests_total{code="OK",method="Search",service="toolsearch.v1.ToolSearchService"} //p' <<<"$metrics")
unauth=$(sed -n 's/^toolsearch_grpc_requests_total{code="Unauthenticated",method="Search",service="toolsearch.v1.ToolSearchService"} //p' <<<"$metrics")
[ "$ok" = 2 ] && [ "$unauth" = 1 ] || { echo "node-example: metrics show $ok OK and $unauth refused searches, want 2 and 1" >&2; exit 1; }
echo "node-example: ok (curl /metrics: $ok searches OK, $unauth refused)"
