// Package deploy holds the deployment examples (kubernetes/, compose/) and
// the tests that check them: every file parses, and the fields that decide
// whether the sidecar works are right — native sidecar, probes, resources,
// mounts that match the paths the flags name, environment variables that are
// real flags. scripts/deploy-validate.sh validates the Kubernetes manifests
// against the Kubernetes JSON schemas as well.
package deploy
