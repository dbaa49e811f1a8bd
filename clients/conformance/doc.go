// Package conformance holds the conformance suite of the Agent helpers:
// script.json is a set of scripted 3-turn agent loops (portable, Anthropic
// native, OpenAI native) that the Go (clients/go), TypeScript
// (clients/typescript) and Python (clients/python) helpers each run against
// one real sidecar; conformance_test.go runs all three and requires their
// transcripts to be identical, so the helpers cannot drift apart.
package conformance
