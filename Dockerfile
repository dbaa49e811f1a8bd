# syntax=docker/dockerfile:1
# toolsearch sidecar image: a static Go binary (the built-in embedding model
# inside it) on distroless/static, running as a non-root user.
#
#   docker build --build-arg VERSION=$(git describe --tags --always) -t toolsearch .
#   docker run --rm -p 50051:50051 -p 9090:9090 \
#     -e TOOLSEARCH_LISTEN=0.0.0.0:50051 -e TOOLSEARCH_METRICS_LISTEN=0.0.0.0:9090 toolsearch
#
# `make docker-verify` runs this file's build-stage COPY and RUN lines
# without a Docker engine (scripts/docker-verify.sh); docs/operations.md
# says what that does and does not verify.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOWORK=off GOFLAGS=-trimpath
# Modules first, so the download layer is cached across source changes.
# clients/go is the target of go.mod's replace directive: its go.mod must
# exist before `go mod download`.
COPY go.mod go.sum ./
COPY clients/go/go.mod clients/go/go.sum clients/go/
RUN go mod download
COPY . .
ARG VERSION=dev
RUN go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o out/sidecar ./cmd/sidecar
RUN mkdir -p out/etc/toolsearch out/cache && cp examples/catalog.json out/etc/toolsearch/catalog.json

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/out/sidecar /usr/local/bin/toolsearch-sidecar
COPY --from=build /src/out/etc/toolsearch/catalog.json /etc/toolsearch/catalog.json
# An empty directory the sidecar's user owns, for --cache-dir: a volume
# mounted here (compose) starts with this owner.
COPY --from=build --chown=65532:65532 /src/out/cache /var/cache/toolsearch
# The example catalog, until a catalog is mounted and named here.
ENV TOOLSEARCH_CATALOG=/etc/toolsearch/catalog.json
# 50051: gRPC (search, health, reflection); 9090: /metrics, /healthz, /readyz.
# Both listen on loopback unless TOOLSEARCH_LISTEN / TOOLSEARCH_METRICS_LISTEN
# say otherwise (the Kubernetes and compose examples set them).
EXPOSE 50051 9090
# distroless "nonroot": uid and gid 65532.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/toolsearch-sidecar"]
