#!/usr/bin/env bash
# Validates deploy/kubernetes against the Kubernetes API's schemas with
# kubernetes-models (npm, locked in deploy/validate/package-lock.json): types,
# required fields and enums of every object. A deliberately broken copy of a
# manifest must fail, so a validator that checks nothing cannot pass.
# (kubeconform installs from the Go module proxy but downloads its schemas
# from GitHub at run time, which CI cannot reach.)
set -euo pipefail
cd "$(dirname "$0")/../deploy/validate"
command -v node >/dev/null && command -v npm >/dev/null || { echo 'deploy-validate: node and npm are needed' >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error
node validate.js ../kubernetes/*.yaml

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/containerPort: 50051/containerPort: "50051"/' ../kubernetes/agent-with-ollama-sidecar.yaml >"$tmp/broken.yaml"
if node validate.js "$tmp/broken.yaml" >/dev/null 2>&1; then
  echo 'deploy-validate: a manifest with a string containerPort passed: the validator checks nothing' >&2
  exit 1
fi
echo 'deploy-validate: ok (and a broken manifest is rejected)'
