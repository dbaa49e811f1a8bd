package toolset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/catalog"
)

// Schema and description normalization: one bad tool fails a whole model
// request (and, once revealed, every later request of the session), so each
// definition is rewritten into what every provider accepts before it is
// encoded, and each rewrite is reported as a Change.
//
// The rules, applied to every format (each is something at least one
// provider rejects, and none changes what a valid call looks like):
//
//   - "$schema" keys are removed at every level: Anthropic validates input
//     schemas as JSON Schema 2020-12 and catalogs declare draft-07 or draft-04.
//   - draft-04 boolean bounds become 2020-12 numeric ones:
//     {"minimum":0,"exclusiveMinimum":true} → {"exclusiveMinimum":0}; a false
//     bound is dropped.
//   - local "$ref"s ("#/properties/…", "#/definitions/…", "#/$defs/…") are
//     inlined (a recursive reference is cut at its second expansion and
//     replaced by {}, "any value"); references that do not resolve, point
//     outside the document or are not strings become {}; "definitions" and
//     "$defs" then go (also when nothing referred to them: OpenAI's strict
//     checks reject them, and dropping unused ones changes no valid call,
//     so it is not reported as a change).
//   - the top level is an object schema: a missing or other "type" becomes
//     "object", and top-level anyOf/oneOf/allOf/not/enum (which OpenAI and
//     Anthropic reject there) are removed.
//   - an empty description is replaced by one made from the tool's name and
//     server; a description longer than the format's cap (OpenAI: 1,024
//     characters) is cut at a sentence or word boundary and ends with "…".
//     The full text stays in the catalog and is still searched.
//
// Normalization is a pure function of the tool and the format, so a tool's
// definition is the same on every turn.

// ChangeKind names one kind of rewrite of a tool's definition.
type ChangeKind string

// Change kinds.
const (
	ChangeSchemaDialect        ChangeKind = "schema_dialect_removed"
	ChangeExclusiveBound       ChangeKind = "exclusive_bound_converted"
	ChangeRefInlined           ChangeKind = "ref_inlined"
	ChangeRefUnresolved        ChangeKind = "ref_unresolved"
	ChangeTopLevelType         ChangeKind = "top_level_type_set"
	ChangeTopLevelCombinator   ChangeKind = "top_level_combinator_removed"
	ChangeDescriptionEmpty     ChangeKind = "description_generated"
	ChangeDescriptionTruncated ChangeKind = "description_truncated"
	ChangeNameRewritten        ChangeKind = "name_rewritten"
	ChangeTrimmedForSize       ChangeKind = "trimmed_for_size"
)

// Change is one rewrite made to a tool's definition for the provider.
type Change struct {
	// Tool is the catalog name of the tool.
	Tool string
	// Kind is what was done.
	Kind ChangeKind
	// Detail says where and what, e.g. "properties.port: exclusiveMinimum
	// true → 0" or "3841 → 1024 characters".
	Detail string
}

// Omission is a tool left out of the list, and why.
type Omission struct {
	// Tool is the catalog name of the tool.
	Tool string
	// Reason says which limit left it out, e.g. "tool_count_limit:
	// openai_chat accepts at most 128 tools".
	Reason string
}

// normalization is a tool's normalized schema and description.
type normalization struct {
	schema      json.RawMessage
	description string
	changes     []Change
}

// normalize computes t's normalized schema and description for a format
// whose description limit is limit.
func normalize(t catalog.Tool, limit int) normalization {
	var n normalization
	var c []Change
	n.schema, n.changes = normalizeSchema(t.Name, objectSchema(t.InputSchema))
	n.description, c = normalizeDescription(t, t.Description, limit)
	n.changes = append(n.changes, c...)
	return n
}

// normalizer rewrites one tool's schema, recording changes.
type normalizer struct {
	tool    string
	changes []Change
	root    map[string]any
	// expanding holds the $refs being inlined, to cut recursion.
	expanding map[string]bool
	// inlined counts the $refs inlined, against MaxRefInlines.
	inlined int
}

// MaxRefInlines caps the $refs inlined in one schema: references to
// references can double the schema at each level (2^n copies), so past 200
// inlines the rest become {} ("any value"), reported as ref_unresolved.
// Real catalogs inline a handful (livemcpbench: 6).
const MaxRefInlines = 200

func (n *normalizer) note(kind ChangeKind, format string, args ...any) {
	n.changes = append(n.changes, Change{Tool: n.tool, Kind: kind, Detail: fmt.Sprintf(format, args...)})
}

// normalizeSchema returns schema (a compact object schema, as objectSchema
// returns it) rewritten by the rules above, and the changes made. A schema
// that needs no change is returned as is, byte for byte.
func normalizeSchema(tool string, schema json.RawMessage) (json.RawMessage, []Change) {
	if !needsNormalizing(schema) {
		return schema, nil
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var root map[string]any
	if dec.Decode(&root) != nil || root == nil {
		return json.RawMessage(emptyObjectSchema), []Change{{Tool: tool, Kind: ChangeTopLevelType, Detail: "schema is not a JSON object; sent as an empty object schema"}}
	}
	n := &normalizer{tool: tool, root: root, expanding: map[string]bool{}}
	n.topLevel(root)
	out := n.walk(root, "").(map[string]any)
	_, defs := out["$defs"]
	_, definitions := out["definitions"]
	delete(out, "definitions")
	delete(out, "$defs")
	if len(n.changes) == 0 && !defs && !definitions {
		return schema, nil
	}
	delete(out, "type") // re-added first, as objectSchema puts it
	raw, err := marshal(out)
	if err == nil {
		if len(out) == 0 {
			raw = json.RawMessage(`{"type":"object"}`)
		} else {
			raw = append(json.RawMessage(`{"type":"object",`), raw[1:]...)
		}
	}
	if err != nil {
		return json.RawMessage(emptyObjectSchema), append(n.changes, Change{Tool: tool, Kind: ChangeTopLevelType, Detail: "schema could not be re-encoded; sent as an empty object schema"})
	}
	return raw, n.changes
}

// needsNormalizing is a fast pre-check on the bytes: false means no rule can
// apply (most schemas), so the schema is not decoded.
func needsNormalizing(schema json.RawMessage) bool {
	for _, k := range [][]byte{[]byte(`"$schema"`), []byte(`"$ref"`), []byte(`"exclusiveM`), []byte(`"anyOf"`), []byte(`"oneOf"`), []byte(`"allOf"`), []byte(`"not"`), []byte(`"enum"`), []byte(`"definitions"`), []byte(`"$defs"`)} {
		if bytes.Contains(schema, k) {
			return true
		}
	}
	return !bytes.HasPrefix(schema, []byte(`{"type":"object"`))
}

// topLevel makes root an object schema without top-level combinators.
func (n *normalizer) topLevel(root map[string]any) {
	if t, ok := root["type"]; !ok || t != "object" {
		n.note(ChangeTopLevelType, "type %s → \"object\"", compactJSON(t))
		root["type"] = "object"
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "enum"} {
		if _, ok := root[k]; ok {
			delete(root, k)
			n.note(ChangeTopLevelCombinator, "top-level %s removed (providers accept only a plain object schema there)", k)
		}
	}
}

// walk returns v with the rules applied; path is the JSON path of v for
// change details.
func (n *normalizer) walk(v any, path string) any {
	switch x := v.(type) {
	case map[string]any:
		if r, has := x["$ref"]; has {
			ref, ok := r.(string)
			if !ok { // {"$ref": 0} names nothing: as an unresolved reference
				n.note(ChangeRefUnresolved, "%s$ref %s is not a string; replaced by {}", prefix(path), compactJSON(r))
				return map[string]any{}
			}
			return n.inline(ref, x, path)
		}
		if _, ok := x["$schema"]; ok {
			delete(x, "$schema")
			n.note(ChangeSchemaDialect, "%s$schema removed", prefix(path))
		}
		n.bound(x, "exclusiveMinimum", "minimum", path)
		n.bound(x, "exclusiveMaximum", "maximum", path)
		for _, k := range sortedKeys(x) {
			switch k {
			case "enum", "const", "default", "examples", "required":
				continue // values, not schemas
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				if m, ok := x[k].(map[string]any); ok { // name → schema
					for _, name := range sortedKeys(m) {
						m[name] = n.walk(m[name], join(join(path, k), name))
					}
					continue
				}
			}
			x[k] = n.walk(x[k], join(path, k))
		}
		return x
	case []any:
		for i := range x {
			x[i] = n.walk(x[i], fmt.Sprintf("%s[%d]", path, i))
		}
		return x
	}
	return v
}

// bound converts a draft-04 boolean exclusive bound.
func (n *normalizer) bound(x map[string]any, excl, plain, path string) {
	b, ok := x[excl].(bool)
	if !ok {
		return
	}
	delete(x, excl)
	limit, has := x[plain]
	switch {
	case b && has:
		x[excl] = limit
		delete(x, plain)
		n.note(ChangeExclusiveBound, "%s%s true with %s %v → %s %v", prefix(path), excl, plain, limit, excl, limit)
	default:
		n.note(ChangeExclusiveBound, "%s%s %v removed (a draft-04 boolean)", prefix(path), excl, b)
	}
}

// inline replaces a {"$ref": …} object by a copy of its target, normalized.
func (n *normalizer) inline(ref string, obj map[string]any, path string) any {
	target, ok := n.resolve(ref)
	switch {
	case !ok:
		n.note(ChangeRefUnresolved, "%s$ref %q does not resolve inside the schema; replaced by {}", prefix(path), ref)
		return map[string]any{}
	case n.expanding[ref]:
		n.note(ChangeRefInlined, "%s$ref %q is recursive; cut at depth 1 (any value)", prefix(path), ref)
		return map[string]any{}
	case n.inlined >= MaxRefInlines:
		n.note(ChangeRefUnresolved, "%s$ref %q not inlined: the schema already inlined %d references; replaced by {}", prefix(path), ref, MaxRefInlines)
		return map[string]any{}
	}
	n.inlined++
	n.expanding[ref] = true
	defer delete(n.expanding, ref)
	cp := deepCopy(target)
	if m, ok := cp.(map[string]any); ok {
		for k, v := range obj { // siblings of $ref (description, …) win
			if k != "$ref" {
				m[k] = v
			}
		}
	}
	n.note(ChangeRefInlined, "%s$ref %q inlined", prefix(path), ref)
	return n.walk(cp, path)
}

// resolve follows a local JSON pointer ("#/a/b") from the root.
func (n *normalizer) resolve(ref string) (any, bool) {
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	var cur any = n.root
	if p == "" {
		return cur, true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

func compactJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// normalizeDescription applies the description rules: an empty one is
// generated from the name, and one longer than limit characters (0: no
// limit) is cut.
func normalizeDescription(t catalog.Tool, desc string, limit int) (string, []Change) {
	var changes []Change
	if strings.TrimSpace(desc) == "" {
		desc = generatedDescription(t)
		changes = append(changes, Change{Tool: t.Name, Kind: ChangeDescriptionEmpty, Detail: "the catalog has no description; sent " + strconvQuote(desc)})
	}
	if limit > 0 && utf8.RuneCountInString(desc) > limit {
		n := utf8.RuneCountInString(desc)
		desc = truncate(desc, limit)
		changes = append(changes, Change{Tool: t.Name, Kind: ChangeDescriptionTruncated, Detail: fmt.Sprintf("%d → %d characters (the provider's limit is %d; the full text is still searched)", n, utf8.RuneCountInString(desc), limit)})
	}
	return desc, changes
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// generatedDescription is "Tool send_message of the slack server." from
// the name and server.
func generatedDescription(t catalog.Tool) string {
	name := t.Name
	if t.Server != "" {
		name = strings.TrimPrefix(name, t.Server+"__")
		return "Tool " + name + " of the " + t.Server + " server."
	}
	return "Tool " + name + "."
}

// truncate cuts s to at most limit characters, at the last sentence end
// (". ", "\n") in its second half, else at the last space, and appends "…".
func truncate(s string, limit int) string {
	r := []rune(s)
	cut := string(r[:limit-1])
	if i := max(strings.LastIndex(cut, ". "), strings.LastIndex(cut, "\n")); i > len(cut)/2 {
		cut = cut[:i+1]
	} else if i := strings.LastIndex(cut, " "); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " \n\t") + "…"
}
