#!/usr/bin/env bash
# Builds the Ollama server (CPU only, cgo) from the Go module proxy, pinned to
# OLLAMA_VERSION, into .tmp/bin/ollama. A build is kept outside the clone, in
# ${XDG_CACHE_HOME:-$HOME/.cache}/toolsearch/ollama-v<version>/ollama, so a
# fresh clone (CI) reuses it instead of building again (a cold build takes
# 4-17 minutes on 2 cores). In order:
#   1. .tmp/bin/ollama is the pinned version (module version and stamp,
#      read with `go version -m`): nothing to do;
#   2. the cached binary is: link it (or copy it) into .tmp/bin;
#   3. else build, store the result in the cache, and link it into .tmp/bin.
#
# Needs: Go, a C/C++ toolchain, and the Debian packages nlohmann-json3-dev and
# libstb-dev (installed with apt-get when missing and running as root).
# The module zip drops llama.cpp's vendor/ headers; json and stb come from the
# packages above, and miniaudio from the stub in scripts/ollama/miniaudio/.
#
# Usage: scripts/ollama/build.sh            # prints the binary's path
# Env:   OLLAMA_VERSION (default 0.17.4), TOOLSEARCH_TMP (default <repo>/.tmp),
#        TOOLSEARCH_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/toolsearch;
#        "off": no cache outside the clone)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="${OLLAMA_VERSION:-0.17.4}"
tmp="${TOOLSEARCH_TMP:-$root/.tmp}"
bin="$tmp/bin/ollama"
user_cache="${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}"
cache="${TOOLSEARCH_CACHE:-${user_cache:+$user_cache/toolsearch}}"
cached=""
[[ -z "$cache" || "$cache" == off ]] || cached="$cache/ollama-v$version/ollama"

log() { echo "ollama-build: $*" >&2; }

# up_to_date FILE reports whether FILE was built from the pinned module
# version with the version stamped in (otherwise /api/version says 0.0.0).
up_to_date() {
	[[ -f "$1" && -x "$1" ]] || return 1
	local info
	info="$(go version -m "$1" 2>/dev/null)" || return 1
	grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/ollama/ollama[[:space:]]+v${version}([[:space:]]|$)" <<<"$info" &&
		grep -q "version.Version=${version}" <<<"$info"
}

# install SRC DST puts SRC at DST atomically: a hard link when both are on
# one file system, else a copy.
install_bin() {
	local src="$1" dst="$2" part
	mkdir -p "$(dirname "$dst")"
	part="$dst.part.$$"
	ln -f "$src" "$part" 2>/dev/null || cp -f "$src" "$part"
	mv -f "$part" "$dst"
}

if up_to_date "$bin"; then
	log "$bin is v$version, skipping the build"
	if [[ -n "$cached" ]] && ! up_to_date "$cached"; then
		install_bin "$bin" "$cached"
		log "saved it to $cached for fresh clones"
	fi
	echo "$bin"
	exit 0
fi
if [[ -n "$cached" ]] && up_to_date "$cached"; then
	install_bin "$cached" "$bin"
	log "reused $cached (v$version) as $bin"
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
	log "the Ollama build needs the Debian packages ${missing[*]} (C headers for llama.cpp: JSON and image loading); installing them with apt-get install -y --no-install-recommends ${missing[*]}"
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
log "built v$version in $(($(date +%s) - start))s"
if [[ -n "$cached" ]]; then
	install_bin "$stage/ollama" "$cached"
	install_bin "$cached" "$bin"
	log "saved it to $cached; linked it as $bin"
else
	mv -f "$stage/ollama" "$bin"
fi
echo "$bin"
