package toolset_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// An operator's text ends the prompt addition; server descriptions appear
// beside their servers, cut to their first sentence; category:NAME
// always-loads a category.
func TestPromptOptions(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "crm__find_contact", Server: "crm", Category: "sales", Description: "Find a contact."},
		{Name: "crm__log_call", Server: "crm", Category: "sales", Description: "Log a call."},
		{Name: "hr__ask_human", Server: "hr", Category: "Human", Description: "Ask a person."},
		{Name: "hr__leave", Server: "hr", Description: "Book leave."},
	}
	for _, tc := range []struct {
		name       string
		opts       toolset.Options
		loaded     []string
		has, lacks []string
	}{
		{"operator text", toolset.Options{DeferralThreshold: 1, PromptAppend: "  Prefer CRM tools.\n"}, nil,
			[]string{"from your next turn on.\nServers (tools): crm (2), hr (2).\nCategories (tools): sales (2), Human (1).\n\nPrefer CRM tools."}, nil},
		{"operator text, nothing deferred", toolset.Options{PromptAppend: "Prefer CRM tools."}, []string{"crm__find_contact", "crm__log_call", "hr__ask_human", "hr__leave"},
			[]string{"Prefer CRM tools."}, []string{"catalog of"}},
		{"server descriptions", toolset.Options{DeferralThreshold: 1, ServerDescriptions: map[string]string{
			"crm": "Customer records. Contacts, calls and deals across every region and team.", "other": "Not in the catalog."}}, nil,
			[]string{"crm (2: Customer records.), hr (2)."}, []string{"Contacts, calls", "Not in the catalog"}},
		{"category always loaded", toolset.Options{DeferralThreshold: 1, AlwaysLoaded: []string{"category:human", "category:nope"}}, []string{"hr__ask_human"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Format = toolset.Anthropic
			ts := build(t, tools, nil, tc.opts)
			if diff := cmp.Diff(tc.loaded, ts.Loaded); diff != "" {
				t.Errorf("Loaded (-want +got):\n%s", diff)
			}
			for _, s := range tc.has {
				if !strings.Contains(ts.SystemPrompt, s) {
					t.Errorf("prompt lacks %q:\n%s", s, ts.SystemPrompt)
				}
			}
			for _, s := range tc.lacks {
				if strings.Contains(ts.SystemPrompt, s) {
					t.Errorf("prompt has %q:\n%s", s, ts.SystemPrompt)
				}
			}
		})
	}
	if _, err := toolset.Build(tools, nil, toolset.Options{Format: toolset.MCP, AlwaysLoaded: []string{"category: "}}); err == nil {
		t.Error("category: with no name: no error")
	}
}

// A request's options win over the operator's defaults, which fill the rest.
func TestDefaultsApply(t *testing.T) {
	d := toolset.Defaults{DeferralThreshold: 40, Defer: toolset.DeferStub, PromptAppend: "Operator.", ServerDescriptions: map[string]string{"a": "A.", "b": "B."},
		Describe: func() map[string]string { return map[string]string{"a": "Live A.", "c": "Live C."} }}
	got := d.Apply(toolset.Options{Format: toolset.MCP, ServerDescriptions: map[string]string{"b": "Mine."}, PromptAppend: "Request."})
	want := toolset.Options{Format: toolset.MCP, DeferralThreshold: 40, Defer: toolset.DeferStub, PromptAppend: "Request.\n\nOperator.", ServerDescriptions: map[string]string{"a": "A.", "b": "Mine.", "c": "Live C."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Apply (-want +got):\n%s", diff)
	}
	set := toolset.Options{DeferralThreshold: 3, Defer: toolset.DeferOmit}
	if got := d.Apply(set); got.DeferralThreshold != 3 || got.Defer != toolset.DeferOmit {
		t.Errorf("a request's threshold and mode were overridden: %+v", got)
	}
	if got := (toolset.Defaults{}).Apply(set); !cmp.Equal(got, set) {
		t.Errorf("zero Defaults changed the options: %+v", got)
	}
	for _, bad := range []toolset.Defaults{{DeferralThreshold: -1}, {Defer: "sometimes"}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: valid", bad)
		}
	}
}

// Search-only text (catalog.KeywordsAnnotation) is never sent to a model:
// the MCP format, which sends annotations, leaves it out.
func TestKeywordsNotSent(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "a__x", Description: "X.", Annotations: []byte(`{"readOnlyHint":true,"toolsearch/keywords":"secret synonyms"}`)},
		{Name: "a__y", Description: "Y.", Annotations: []byte(`{"toolsearch/keywords":["only"]}`)},
	}
	for _, f := range toolset.Formats {
		ts := build(t, tools, tools, toolset.Options{Format: f, DeferralThreshold: 1, Load: []string{"a__x"}})
		for _, raw := range []string{string(ts.Tools), string(ts.LoadedTools)} {
			if strings.Contains(raw, "secret") || strings.Contains(raw, "toolsearch/keywords") {
				t.Errorf("%s sends the search-only text: %s", f, raw)
			}
		}
		if f == toolset.MCP && !strings.Contains(string(ts.Tools), `"annotations":{"readOnlyHint":true}`) {
			t.Errorf("mcp lost the other annotations: %s", ts.Tools)
		}
	}
}
