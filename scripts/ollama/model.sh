#!/usr/bin/env bash
# Builds the Ollama embedding model from the built-in model's word vectors
# (cmd/ollamamodel: GGUF + Modelfile under .tmp/ollama/model/) and registers
# it with `ollama create` on the server at OLLAMA_HOST (start one with
# serve.sh). Prints MODEL=<name> on success.
#
# Usage: OLLAMA_HOST=127.0.0.1:11545 scripts/ollama/model.sh [NAME]
#   NAME defaults to toolsearch-wink (toolsearch-topics with -demo vectors).
# Env:  VECTORS (default embed/model/wink100.bin; "demo" for the small topic
#       vocabulary of embed/gguf/topics), OLLAMA_BIN, TOOLSEARCH_TMP
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="${TOOLSEARCH_TMP:-$root/.tmp}"
vectors="${VECTORS:-$root/embed/model/wink100.bin}"
: "${OLLAMA_HOST:?set OLLAMA_HOST, e.g. eval \"\$(scripts/ollama/serve.sh)\"; export OLLAMA_HOST}"
export OLLAMA_HOST

log() { echo "ollama-model: $*" >&2; }

if [[ "$vectors" == demo ]]; then
	name="${1:-toolsearch-topics}"
	src=(-demo)
	out="$tmp/ollama/model-demo"
elif [[ -f "$vectors" ]]; then
	name="${1:-toolsearch-wink}"
	src=(-vectors "$vectors")
	out="$tmp/ollama/model"
else
	log "no word vectors at $vectors; build the built-in model first, or set VECTORS=demo"
	exit 1
fi

bin="${OLLAMA_BIN:-$("$here/build.sh")}"
cd "$root"
# Always rebuilt: it takes about a second, and `ollama create` reuses the
# blob when the file did not change.
start=$(date +%s%N)
go run ./cmd/ollamamodel "${src[@]}" -out "$out" >&2
log "built $out/model.gguf in $((($(date +%s%N) - start) / 1000000)) ms (including go run's compile)"
(cd "$out" && "$bin" create "$name" -f Modelfile) >&2
log "registered $name on $OLLAMA_HOST"
echo "MODEL=$name"
