#!/usr/bin/env bash
# The MCP endpoint's bar, end to end: builds the sidecar and starts it on free
# loopback ports with the livemcpbench catalog file, a live
# server-everything (--mcp, the pinned npm reference server) and the MCP
# endpoint (--mcp-listen) behind a bearer token; then runs
# mcpserver/testdata/client/flow.mjs (the official TypeScript SDK client):
# tools/list holds tool_search alone, tool_search finds everything__echo,
# tools/list_changed arrives, the new list holds it with its schema, the call
# goes through to server-everything and answers "Echo: …", and an unrevealed
# tool is refused with "search first". Then the same over stdio
# (--mcp-stdio, the sidecar launched by the client as a host does). Between
# the two, the stateless mode of MCP 2026-07-28 on the same URL with the Go
# SDK client (mcpserver/testdata/goclient): tools/list holds tool_search and
# call_tool before and after a search, tool_search returns everything__echo
# with its input schema, call_tool runs it.
# Needs node and npm, and ../shared/bench beside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null && command -v npm >/dev/null || { echo 'mcp-endpoint-e2e: node and npm are needed' >&2; exit 1; }
catalog=../shared/bench/livemcpbench/tools.jsonl
[ -f "$catalog" ] || { echo "mcp-endpoint-e2e: $catalog is missing (../shared beside the clone)" >&2; exit 1; }
everything="$PWD/source/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
[ -f "$everything" ] || { echo 'mcp-endpoint-e2e: server-everything is not installed; run make mcp-servers' >&2; exit 1; }
[ -d mcpserver/testdata/client/node_modules ] || { echo 'mcp-endpoint-e2e: the client is not installed; run make mcp-client' >&2; exit 1; }

tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/sidecar" ./cmd/sidecar
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$token" >"$tmp/token"
live="everything=node $everything stdio"
"$tmp/sidecar" --listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 --catalog "$catalog" --mcp "$live" \
  --mcp-listen 127.0.0.1:0 --auth-token-file "$tmp/token" 2>"$tmp/log" &
pid=$!
url="" maddr=""
for _ in $(seq 1 600); do
  url=$(sed -n 's/.*"msg":"mcp listening","url":"\([^"]*\)".*/\1/p' "$tmp/log" | head -1)
  maddr=$(sed -n 's/.*"msg":"metrics listening","addr":"\([^"]*\)".*/\1/p' "$tmp/log" | head -1)
  [ -n "$url" ] && [ -n "$maddr" ] && curl -fsS "http://$maddr/readyz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/log" >&2; echo 'mcp-endpoint-e2e: the sidecar did not start its MCP endpoint' >&2; exit 1; }
echo "mcp-endpoint-e2e: MCP endpoint at $url"

flow() { # flow TRANSPORT_JSON: the bar's flow over one transport
  node mcpserver/testdata/client/flow.mjs "{$1,
    \"query\": \"echo back the input message\", \"expectTool\": \"everything__echo\",
    \"call\": {\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hello through the sidecar\"}, \"expectText\": \"Echo: hello through the sidecar\"},
    \"unrevealed\": \"everything__get-sum\"}"
}
flow "\"url\": \"$url\", \"headers\": {\"Authorization\": \"Bearer $token\"}"
# Stateless mode (MCP 2026-07-28) on the same URL, with the official Go SDK client.
go run ./mcpserver/testdata/goclient "$url" "$token" "echo back a message" everything__echo \
  '{"message": "hello in 2026"}' "Echo: hello in 2026"
# Both modes' searches count with the gRPC ones.
searches=$(curl -fsS "http://$maddr/metrics" | awk '/^toolsearch_searches_total/ {n += $2} END {print n + 0}')
[ "$searches" -ge 2 ] || { echo "mcp-endpoint-e2e: toolsearch_searches_total is $searches after two MCP searches, want at least 2" >&2; exit 1; }
echo "mcp-endpoint-e2e: toolsearch_searches_total counts the MCP searches ($searches)"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}' "$url")
[ "$code" = 401 ] || { echo "mcp-endpoint-e2e: a request without the token got HTTP $code, want 401" >&2; exit 1; }
echo "mcp-endpoint-e2e: a request without the token is refused (401)"

flow "\"command\": \"$tmp/sidecar\", \"args\": [\"--mcp-stdio\", \"--listen\", \"127.0.0.1:0\", \"--metrics-listen\", \"\",
  \"--catalog\", \"$PWD/$catalog\", \"--mcp\", \"$live\"]"
echo 'mcp-endpoint-e2e: ok'
