#!/usr/bin/env bash
# Builds the sidecar's OCI image without a Docker daemon (make image):
# stages a root file system (static binary, CA certificates, example
# catalog, cache directory), builds deploy/image/Containerfile (FROM
# scratch) with buildah on the vfs storage driver, and writes the image as
# an OCI layout to bin/image (tag = VERSION). With VERIFY=1 it then unpacks
# the image with umoci and runs its entrypoint, with the image's
# environment and user, chrooted into the unpacked root file system, until
# the health service says SERVING over JSON on the gRPC port (podman run is
# not used: this sandbox's crun and runc cannot set rlimits).
#
#   scripts/image.sh                 # VERSION=git describe
#   VERIFY=1 scripts/image.sh        # build, unpack, run, check (CI)
#
# Needs buildah and umoci (Debian packages, installed by
# scripts/apt-install.sh when missing), Go, python3 and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
OUT=${OUT:-$repo/bin/image}
GO=${GO:-go}

scripts/apt-install.sh buildah umoci ca-certificates

tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  # vfs layers are plain directories; buildah's own rm keeps its state sane.
  buildah --storage-driver vfs --root "$tmp/storage" --runroot "$tmp/run" rm --all >/dev/null 2>&1 || true
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# --- the root file system (the build context)
ctx=$tmp/context
root=$ctx/rootfs
mkdir -p "$root/usr/local/bin" "$root/etc/toolsearch" "$root/etc/ssl/certs" "$root/var/cache/toolsearch" "$root/tmp"
CGO_ENABLED=0 GOWORK=off $GO build -trimpath -ldflags "-s -w -X main.version=$VERSION" -o "$root/usr/local/bin/toolsearch-sidecar" ./cmd/sidecar
cp examples/catalog.json "$root/etc/toolsearch/catalog.json"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
chown 65532:65532 "$root/var/cache/toolsearch" 2>/dev/null || true
chmod 1777 "$root/tmp"
cp deploy/image/Containerfile "$ctx/Containerfile"

# --- build, and write the OCI layout
b=(buildah --storage-driver vfs --root "$tmp/storage" --runroot "$tmp/run")
"${b[@]}" bud --quiet --isolation chroot --layers=false -f "$ctx/Containerfile" -t "toolsearch:$VERSION" "$ctx" >/dev/null
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
"${b[@]}" push --quiet "toolsearch:$VERSION" "oci:$OUT:$VERSION"
echo "image: wrote $OUT (OCI layout, tag $VERSION; e.g. skopeo copy oci:$OUT:$VERSION docker-daemon:toolsearch:$VERSION)"

[ "${VERIFY:-0}" = 1 ] || exit 0

# --- unpack and run the entrypoint
bundle=$tmp/bundle
if [ "$(id -u)" = 0 ]; then
  umoci unpack --image "$OUT:$VERSION" "$bundle" >/dev/null
else
  umoci unpack --rootless --image "$OUT:$VERSION" "$bundle" >/dev/null
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The image's entrypoint, environment and user, from the runtime config.
mapfile -t args < <(python3 -c 'import json,sys; [print(a) for a in json.load(open(sys.argv[1]))["process"]["args"]]' "$bundle/config.json")
mapfile -t envs < <(python3 -c 'import json,sys; [print(e) for e in json.load(open(sys.argv[1]))["process"]["env"]]' "$bundle/config.json")
user=$(python3 -c 'import json,sys; u=json.load(open(sys.argv[1]))["process"]["user"]; print("%d:%d" % (u["uid"], u["gid"]))' "$bundle/config.json")
[ "${args[0]}" = /usr/local/bin/toolsearch-sidecar ] || { echo "image: entrypoint ${args[*]}, want /usr/local/bin/toolsearch-sidecar" >&2; exit 1; }
[ "$user" = 65532:65532 ] || { echo "image: user $user, want 65532:65532" >&2; exit 1; }
log=$tmp/sidecar.log
if [ "$(id -u)" = 0 ]; then
  env -i "${envs[@]}" TOOLSEARCH_LISTEN=127.0.0.1:$port TOOLSEARCH_METRICS_LISTEN= \
    chroot --userspec="$user" "$bundle/rootfs" "${args[@]}" >"$log" 2>&1 &
else # without root: no chroot; the catalog path is rewritten into the bundle
  env -i "${envs[@]}" TOOLSEARCH_LISTEN=127.0.0.1:$port TOOLSEARCH_METRICS_LISTEN= \
    TOOLSEARCH_CATALOG="$bundle/rootfs/etc/toolsearch/catalog.json" "$bundle/rootfs${args[0]}" "${args[@]:1}" >"$log" 2>&1 &
fi
pid=$!
health=
for _ in $(seq 1 300); do # up to 60 s, while the process lives
  kill -0 "$pid" 2>/dev/null || break
  health=$(curl -s -m 2 -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$port/grpc.health.v1.Health/Check" || true)
  [ "$health" = '{"status":"SERVING"}' ] && break
  sleep 0.2
done
if [ "$health" != '{"status":"SERVING"}' ]; then
  echo "image: the unpacked entrypoint did not report SERVING (last answer: ${health:-none}); its log:" >&2
  cat "$log" >&2
  exit 1
fi
result=$(curl -s -H 'Content-Type: application/json' -d '{"query":"send slack message"}' "http://127.0.0.1:$port/toolsearch.v1.ToolSearchService/Search")
case $result in
  *'"tool_name":"slack__send_message"'*) ;;
  *) echo "image: search answered $result, want slack__send_message" >&2; exit 1 ;;
esac
grep -q "\"version\":\"$VERSION\"" "$log" || { echo "image: the log does not name version $VERSION:" >&2; cat "$log" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid" || { echo "image: the sidecar exited $? on SIGTERM, want 0" >&2; cat "$log" >&2; exit 1; }
pid=
echo "image: the unpacked image's entrypoint served health SERVING and a search on 127.0.0.1:$port as $user, and stopped on SIGTERM"
