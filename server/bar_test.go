package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/search"
)

// TestAgentAnswersWhatTheModelSees runs the model-facing tool_search of
// issue 24 end to end — the Go Agent helper against a real sidecar over
// the example catalog — and checks what the model receives: no padding
// with other servers' tools, nothing revealed by an answer without a
// confident match, select: as models write it, a hint for a query without
// words, and a pattern answered as regex in the default mode.
func TestAgentAnswersWhatTheModelSees(t *testing.T) {
	c, e := learningSidecar(t, search.LearnConfig{}, "../examples/catalog.json")
	agent := toolsearch.NewAgent(c)
	ctx := context.Background()
	call := func(session, args string) (names []string, out struct {
		Hint     string `json:"hint"`
		Metadata struct {
			SearchType     string `json:"search_type"`
			FallbackReason string `json:"fallback_reason"`
		} `json:"search_metadata"`
	}) {
		t.Helper()
		text, err := agent.HandleToolCall(ctx, session, args)
		if err != nil {
			t.Fatal(err)
		}
		var refs struct {
			Refs []struct {
				Name string `json:"tool_name"`
			} `json:"tool_references"`
		}
		if err := json.Unmarshal([]byte(text), &refs); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			t.Fatal(err)
		}
		for _, r := range refs.Refs {
			names = append(names, r.Name)
		}
		return names, out
	}

	names, _ := call("w", `{"query":"weather forecast"}`)
	if len(names) == 0 || names[0] != "weather__get_forecast" {
		t.Errorf("weather forecast: %v; want weather__get_forecast first", names)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "slack__") || strings.HasPrefix(n, "email__") {
			t.Errorf("weather forecast showed the model %s (%v)", n, names)
		}
	}

	call("b", `{"query":"buy bitcoin"}`)
	if _, revealed, err := e.Revealed("b"); err != nil || len(revealed) != 0 {
		t.Errorf("buy bitcoin revealed %d tools (%v)", len(revealed), err)
	}

	if names, _ := call("s", `{"query":"select:git__add, git__log"}`); strings.Join(names, ",") != "git__add,git__log" {
		t.Errorf("select:git__add, git__log = %v", names)
	}

	for _, q := range []string{"a", "???"} {
		names, out := call("n", `{"query":"`+q+`"}`)
		if len(names) != 0 || out.Hint == "" {
			t.Errorf("%q: %v, hint %q; want no tools and a hint", q, names, out.Hint)
		}
	}

	names, out := call("r", `{"query":"weather__get_*"}`)
	if out.Metadata.SearchType != "regex" || out.Metadata.FallbackReason != search.ReasonPattern || len(names) == 0 {
		t.Errorf("weather__get_*: %v as %q (%q); want regex", names, out.Metadata.SearchType, out.Metadata.FallbackReason)
	}
}
