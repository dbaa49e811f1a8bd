package toolset_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/toolset"
)

// FuzzNormalize: any input schema and description give, in every format
// and both native modes, a list without panic whose schemas pass the
// providers' rules (see rejected) and whose descriptions are not empty.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/properties/b"},"b":{"type":"array","items":{"$ref":"#/properties/a"}}}}`,
		`{"anyOf":[{"type":"object"}],"$defs":{"x":{"$ref":"#/$defs/x"}},"properties":{"y":{"$ref":"#/$defs/x"}}}`,
		`{"type":["object","null"],"properties":{"z":{"$ref":"#/properties/z/items","items":{"$ref":"#"}}}}`,
		`[]`, `{"properties":7}`, `{"$ref":"#/a~1b/0"}`,
		`{"$defs":{}}`, `{"type":"object","definitions":{"unused":{}}}`, // definitions nothing refers to
	} {
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, schema, desc string) {
		if !json.Valid([]byte(schema)) {
			return
		}
		tool := catalog.Tool{Name: "srv__t", Server: "srv", Description: desc, InputSchema: json.RawMessage(schema)}
		for _, opts := range []toolset.Options{
			{Format: toolset.OpenAIChat, DeferralThreshold: 100},
			{Format: toolset.Gemini, DeferralThreshold: 100},
			{Format: toolset.Anthropic, Search: toolset.SearchNativeClient, Load: []string{"srv__t"}},
			{Format: toolset.OpenAIResponses, Search: toolset.SearchNativeClient, Load: []string{"srv__t"}},
		} {
			ts, err := toolset.Build([]catalog.Tool{tool}, nil, opts)
			if err != nil {
				t.Fatalf("%s: %v", opts.Format, err)
			}
			for _, raw := range []json.RawMessage{ts.Tools, ts.LoadedTools} {
				for _, d := range definitions(t, opts.Format, raw) {
					if p := rejected(d.schema, true); p != "" {
						t.Fatalf("%s: schema rejected (%s): %s", opts.Format, p, raw)
					}
					if d.description == "" {
						t.Fatalf("%s: empty description", opts.Format)
					}
				}
			}
		}
	})
}

// The catalog-load check names livemcpbench's tools that no provider
// accepts as they are, with the rewrites they need.
func TestCheckLivemcpbench(t *testing.T) {
	tools := benchCatalog(t, "livemcpbench")
	problems := toolset.Check(tools)
	byTool := map[string]toolset.Problem{}
	for _, p := range problems {
		byTool[p.Tool] = p
	}
	pdf, ok := byTool["pdf-reader-mcp__read_pdf"]
	if !ok || !contains(kindStrings(pdf.Kinds), string(toolset.ChangeExclusiveBound)) {
		t.Errorf("pdf-reader-mcp__read_pdf: %+v, want exclusive_bound_converted", pdf)
	}
	if len(problems) < 100 || len(problems) > len(tools) {
		t.Errorf("%d problems in %d tools", len(problems), len(tools))
	}
	t.Logf("%d of %d livemcpbench tools need a rewrite for every provider", len(problems), len(tools))
}

func kindStrings(ks []toolset.ChangeKind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(k))
	}
	return out
}
