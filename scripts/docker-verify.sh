#!/usr/bin/env bash
# Verifies the Dockerfile without a Docker engine: runs its build stage's own
# instructions (ARG, ENV, WORKDIR, COPY, RUN, in order) in a temporary
# directory that stands for the image's file system, with a build context
# made from the work tree minus .dockerignore; then checks that every file the
# runtime stage copies from the build stage exists, that the binary is
# statically linked and stamped with the version, and that it runs (--help).
#
# Not verified here: the base images (pulled by a real build), USER, EXPOSE
# and ENTRYPOINT in a running container, and the image itself.
#
#   scripts/docker-verify.sh               # VERSION=verify-<commit>
#   VERSION=v1.2.3 scripts/docker-verify.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
dockerfile=$repo/Dockerfile
VERSION=${VERSION:-verify-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
root=$tmp/root   # the build stage's file system
ctx=$tmp/context # the build context
mkdir -p "$root" "$ctx"

# --- the build context: tracked and untracked-but-not-ignored files, minus
# .dockerignore (its patterns as Docker reads them: relative to the context
# root, "**/" for any depth, a directory excluding what is under it).
mapfile -t patterns < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' .dockerignore)
ignored() {
  local p=$1 pat
  for pat in "${patterns[@]}"; do
    pat=${pat#/}
    if [[ $pat == '**/'* ]]; then
      pat=${pat#'**/'}
      # shellcheck disable=SC2053
      [[ $p == $pat || $p == */$pat || $p == $pat/* || $p == */$pat/* ]] && return 0
    else
      # shellcheck disable=SC2053
      [[ $p == $pat || $p == $pat/* ]] && return 0
    fi
  done
  return 1
}
n=0
while IFS= read -r -d '' f; do
  [ -e "$f" ] || continue # deleted in the work tree
  ignored "$f" && continue
  mkdir -p "$ctx/$(dirname "$f")"
  cp -p "$f" "$ctx/$f"
  n=$((n + 1))
done < <(git ls-files -z --cached --others --exclude-standard)
echo "docker-verify: build context of $n files (.dockerignore applied)"

# --- the Dockerfile's instructions, one per logical line (continuations
# joined), with the stage each belongs to.
mapfile -t lines < <(awk '
  /^[[:space:]]*#/ { next }
  { sub(/[[:space:]]+$/, "") }
  /\\$/ { sub(/\\$/, ""); buf = buf $0 " "; next }
  { line = buf $0; buf = ""; if (line ~ /[^[:space:]]/) print line }
' "$dockerfile")

declare -A args=([VERSION]=$VERSION)
workdir=/
stage=0 # 1 = the build stage, 2 = the runtime stage
expand() { # substitutes ${NAME} and $NAME from ARG/ENV values
  local s=$1 k
  for k in "${!args[@]}"; do s=${s//\$\{$k\}/${args[$k]}}; s=${s//\$$k/${args[$k]}}; done
  printf '%s' "$s"
}
map() { # an image path to its place under $root
  local p=$1
  [[ $p == /* ]] || p=$workdir/$p
  printf '%s' "$root$p"
}
runtime_copies=()
for line in "${lines[@]}"; do
  read -r instr rest <<<"$line"
  instr=${instr^^}
  if [ "$instr" = FROM ]; then
    stage=$((stage + 1)); echo "docker-verify: stage $stage: FROM $rest"; continue
  fi
  if [ $stage -ge 2 ]; then
    [ "$instr" = COPY ] && runtime_copies+=("$rest")
    continue
  fi
  case $instr in
    ARG)
      name=${rest%%=*}
      if [ -z "${args[$name]+set}" ]; then
        if [[ $rest == *=* ]]; then args[$name]=$(expand "${rest#*=}"); else args[$name]=""; fi
      fi ;;
    ENV)
      for kv in $rest; do args[${kv%%=*}]=${kv#*=}; export "${kv%%=*}=${kv#*=}"; done ;;
    WORKDIR)
      workdir=$(expand "$rest"); mkdir -p "$(map "$workdir")" ;;
    COPY)
      read -r -a parts <<<"$(expand "$rest")"
      dst=${parts[-1]}
      unset 'parts[-1]'
      target=$(map "$dst")
      echo "docker-verify: COPY ${parts[*]} $dst"
      if [[ $dst == */ ]] || [ ${#parts[@]} -gt 1 ]; then mkdir -p "$target"; fi
      for src in "${parts[@]}"; do
        if [ "$src" = . ]; then cp -a "$ctx/." "$target/"; else cp -a "$ctx/$src" "$target"; fi
      done ;;
    RUN)
      cmd=$(expand "$rest")
      echo "docker-verify: RUN $cmd"
      (cd "$(map "$workdir")" && bash -euo pipefail -c "$cmd") ;;
    *) echo "docker-verify: $instr not run here" ;;
  esac
done

# --- the runtime stage's COPY --from=build sources exist.
bin=""
declare -A image_files # runtime path -> file made by the build stage
for c in "${runtime_copies[@]}"; do
  read -r -a words <<<"$c"
  parts=()
  from=""
  for w in "${words[@]}"; do
    case $w in --from=*) from=$w ;; --*) ;; *) parts+=("$w") ;; esac
  done
  [ -n "$from" ] || { echo "docker-verify: runtime COPY without --from: $c" >&2; exit 1; }
  parts=("$from" "${parts[@]}")
  src=$root${parts[1]}
  [ -e "$src" ] || { echo "docker-verify: runtime stage copies ${parts[1]}, which the build stage did not make" >&2; exit 1; }
  echo "docker-verify: runtime COPY ${parts[1]} -> ${parts[2]}: present"
  image_files[${parts[2]}]=$src
  [[ ${parts[2]} == */bin/* ]] && bin=$src
done
[ -n "$bin" ] || { echo "docker-verify: no binary copied into the runtime stage" >&2; exit 1; }

# --- the binary: static, trimmed, stamped, and it runs.
if command -v file >/dev/null; then
  desc=$(file -b "$bin")
  echo "docker-verify: file: $desc"
  [[ $desc == *"statically linked"* ]] || { echo "docker-verify: the binary is not statically linked" >&2; exit 1; }
fi
info=$(go version -m "$bin")
for want in "CGO_ENABLED=0" "-trimpath=true"; do
  grep -q -- "$want" <<<"$info" || { echo "docker-verify: build info lacks $want:" >&2; echo "$info" >&2; exit 1; }
done
echo "docker-verify: build info has CGO_ENABLED=0 and -trimpath=true"
# Run it as the image would: with the catalog the image's ENV names, which
# must be one of the files the runtime stage copies.
catalog_env=$(grep -o 'TOOLSEARCH_CATALOG=[^ ]*' "$dockerfile" | head -1 | cut -d= -f2)
[ -n "${image_files[$catalog_env]:-}" ] || { echo "docker-verify: TOOLSEARCH_CATALOG=$catalog_env is not a file the image holds" >&2; exit 1; }
export TOOLSEARCH_CATALOG=${image_files[$catalog_env]}
# -trimpath leaves -ldflags out of the build info: the stamped version is
# checked in the sidecar's own start-up log instead.
"$bin" --listen 127.0.0.1:0 --metrics-listen '' --embedder none >"$tmp/run.log" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q '"msg":"serving"' "$tmp/run.log" && break; sleep 0.1; done
kill -TERM $pid; wait $pid || { cat "$tmp/run.log" >&2; echo "docker-verify: the sidecar did not stop cleanly on SIGTERM" >&2; exit 1; }
grep -q "\"version\":\"$VERSION\"" "$tmp/run.log" || { cat "$tmp/run.log" >&2; echo "docker-verify: the sidecar does not report version $VERSION" >&2; exit 1; }
grep -q '"msg":"serving".*"tools":[1-9]' "$tmp/run.log" || { cat "$tmp/run.log" >&2; echo "docker-verify: no catalog served" >&2; exit 1; }
echo "docker-verify: the binary serves the example catalog and reports version $VERSION; SIGTERM stops it with 0"
"$bin" --help >"$tmp/help" 2>&1 || { cat "$tmp/help" >&2; echo "docker-verify: --help failed" >&2; exit 1; }
grep -q -- "-metrics-listen" "$tmp/help"
echo "docker-verify: ok ($bin --help runs; image itself not built: no Docker engine)"
