#!/usr/bin/env bash
# Builds the Ollama server (CPU only, cgo) from the Go module proxy, pinned to
# OLLAMA_VERSION, into .tmp/bin/ollama. Skips the build when that binary
# already exists and was built from the pinned version with the version stamp.
#
# Needs: Go, a C/C++ toolchain, and the Debian packages nlohmann-json3-dev and
# libstb-dev (installed with apt-get when missing and running as root).
# The module zip drops llama.cpp's vendor/ headers; json and stb come from the
# packages above, and miniaudio from the stub in scripts/ollama/miniaudio/.
#
# Usage: scripts/ollama/build.sh            # prints the binary's path
# Env:   OLLAMA_VERSION (default 0.17.4), TOOLSEARCH_TMP (default <repo>/.tmp)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="${OLLAMA_VERSION:-0.17.4}"
tmp="${TOOLSEARCH_TMP:-$root/.tmp}"
bin="$tmp/bin/ollama"

log() { echo "ollama-build: $*" >&2; }

# up_to_date reports whether $bin was built from the pinned module version
# with the version stamped in (otherwise /api/version says 0.0.0).
up_to_date() {
	[[ -x "$bin" ]] || return 1
	local info
	info="$(go version -m "$bin" 2>/dev/null)" || return 1
	grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/ollama/ollama[[:space:]]+v${version}([[:space:]]|$)" <<<"$info" &&
		grep -q "version.Version=${version}" <<<"$info"
}

if up_to_date; then
	log "$bin is v$version, skipping the build"
	echo "$bin"
	exit 0
fi

# Debian packages for llama.cpp's vendored json and stb headers.
missing=()
for pkg in nlohmann-json3-dev libstb-dev; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
	sudo=""
	if [[ "$(id -u)" != 0 ]]; then
		command -v sudo >/dev/null || { log "install ${missing[*]} (apt-get install -y ${missing[*]}) and rerun"; exit 1; }
		sudo="sudo"
	fi
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		log "apt-get install failed; running apt-get update first"
		$sudo apt-get update >&2
		$sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2
	fi
fi

mkdir -p "$tmp/bin" "$tmp/ollama-build"
stage="$(mktemp -d "$tmp/ollama-build/gobin.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

log "building github.com/ollama/ollama@v$version (a cold build takes several minutes)"
start=$(date +%s)
GOWORK=off GOFLAGS=-buildvcs=false GOBIN="$stage" CGO_ENABLED=1 \
	CGO_CPPFLAGS="-I$here${CGO_CPPFLAGS:+ $CGO_CPPFLAGS}" \
	go install -ldflags "-X github.com/ollama/ollama/version.Version=$version" \
	"github.com/ollama/ollama@v$version"
mv -f "$stage/ollama" "$bin"
log "built $bin in $(($(date +%s) - start))s"
echo "$bin"
