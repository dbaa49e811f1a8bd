package toolset

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
)

// Problem is a catalog tool that no provider accepts as the catalog has
// it: every format needs a rewrite (which GetToolset makes and reports),
// or one of them cannot be fixed by a rewrite at all.
type Problem struct {
	// Tool is the catalog name of the tool.
	Tool string
	// Kinds are the rewrites every format needs, sorted.
	Kinds []ChangeKind
	// Unfixable says what a provider will reject that toolset does not
	// rewrite (e.g. a parameter name Anthropic rejects); "" if none.
	Unfixable string
	// Annotation says what is wrong with the tool's DeferAnnotation; ""
	// if nothing.
	Annotation string
}

// anthropicPropertyKey is Anthropic's rule for input_schema property names.
var anthropicPropertyKey = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

// Check lists the catalog's tools that no provider would accept as they
// are, for the catalog-load warning: tools that need a rewrite in every
// format, tools with a parameter name Anthropic rejects (GetToolset sends
// those as they are: renaming a parameter would change the calls), and
// tools whose DeferAnnotation is not never, automatic or always. In
// catalog order.
func Check(tools []catalog.Tool) []Problem {
	var out []Problem
	// Formats share description limits: a small cache saves normalizing a
	// tool once per format.
	cache := NewCache(checkCacheEntries)
	for _, t := range tools {
		p := Problem{Tool: t.Name}
		var common map[ChangeKind]bool
		for _, f := range Formats {
			b := newBuilder(mustEncoder(f), f, cache)
			if _, err := b.definition(t, EntryLoaded); err != nil {
				continue
			}
			kinds := map[ChangeKind]bool{}
			for _, c := range b.changes {
				kinds[c.Kind] = true
			}
			if common == nil {
				common = kinds
				continue
			}
			for k := range common {
				if !kinds[k] {
					delete(common, k)
				}
			}
		}
		for k := range common {
			p.Kinds = append(p.Kinds, k)
		}
		sort.Slice(p.Kinds, func(i, j int) bool { return p.Kinds[i] < p.Kinds[j] })
		if bad := badPropertyKeys(t.InputSchema); len(bad) > 0 {
			p.Unfixable = "parameter names Anthropic rejects (it accepts ^[a-zA-Z0-9_.-]{1,64}$): " + strings.Join(bad, ", ")
		}
		if raw := annotation(t, DeferAnnotation); raw != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil || (s != string(DeferNever) && s != string(DeferAutomatic) && s != string(DeferAlways)) {
				p.Annotation = DeferAnnotation + " is " + string(raw) + "; use \"never\", \"automatic\" or \"always\" (treated as automatic)"
			}
		}
		if len(p.Kinds) > 0 || p.Unfixable != "" || p.Annotation != "" {
			out = append(out, p)
		}
	}
	return out
}

// checkCacheEntries is Check's cache: a few entries per tool, since each
// tool is checked in every format and then never again.
const checkCacheEntries = 16

func mustEncoder(f Format) encoder {
	e, err := encoderFor(f)
	if err != nil {
		panic(err) // f comes from Formats
	}
	return e
}

// badPropertyKeys lists the top-level property names Anthropic rejects.
func badPropertyKeys(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var bad []string
	for k := range s.Properties {
		if !anthropicPropertyKey.MatchString(k) {
			bad = append(bad, strconvQuote(k))
		}
	}
	sort.Strings(bad)
	return bad
}
