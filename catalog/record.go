package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/jsontext"
)

// schemaKeys are the keys that may hold a tool's input schema, in the order
// they are looked for: MCP, Anthropic, OpenAI, and the generic "schema".
var schemaKeys = []string{"inputSchema", "input_schema", "parameters", "schema"}

// convertRecord turns one tool record (a JSON object in any supported shape)
// into a normalized Tool under the server namespace ns. It returns the
// problems found in the record, including those Validate would find in the
// tool on its own (but not duplicates); ok is false when the record has no
// usable name, in which case the tool must not be validated further.
func convertRecord(raw json.RawMessage, file, pos, ns string) (item located, problems []Problem, ok bool) {
	var fields map[string]json.RawMessage
	if kind := jsonKind(raw, ""); kind != "" || json.Unmarshal(raw, &fields) != nil {
		return located{file: file, pos: pos}, []Problem{notObject(file, pos, kind)}, false
	}
	if k, dup := jsontext.DuplicateKey(raw); dup {
		// A JSON decoder keeps the last silently; YAML refuses it, and so
		// do we: one of the two is a mistake.
		item := located{file: file, pos: pos}
		if n, kind := stringField(fields, "name"); kind == "" {
			item.tool.Name = Namespace(ns, strings.TrimSpace(n))
		}
		return item, []Problem{item.problem(issue{reason: fmt.Sprintf("key %q appears twice in one object", k),
			fix: "keep one of them: a JSON reader would silently use the last"})}, false
	}
	return convertFields(fields, file, pos, ns)
}

// notObject reports a tool record that is kind instead of a JSON object.
func notObject(file, pos, kind string) Problem {
	return Problem{File: file, Position: pos, Reason: "tool is " + kind + ", want a JSON object",
		Fix: `give each tool as an object with "name", "description" and an input schema`}
}

// convertFields is convertRecord for a record already decoded into fields.
func convertFields(fields map[string]json.RawMessage, file, pos, ns string) (item located, problems []Problem, ok bool) {
	item = located{file: file, pos: pos}
	report := func(reason, fix string) {
		problems = append(problems, item.problem(issue{reason: reason, fix: fix}))
	}
	// OpenAI chat completions: {"type":"function","function":{...}}. A
	// record with its own "name" and another "type" keeps its fields.
	typ, _ := stringField(fields, "type")
	_, named := fields["name"]
	if fn, has := fields["function"]; has && !isNull(fn) && (typ == "function" || !named) {
		var inner map[string]json.RawMessage
		if kind := jsonKind(fn, ""); kind != "" || json.Unmarshal(fn, &inner) != nil {
			report(`"function" is `+kind+", want a JSON object",
				`give OpenAI tools as {"type":"function","function":{"name":...,"description":...,"parameters":{...}}}`)
			return item, problems, false
		}
		for _, k := range []string{"server", "category"} {
			if _, has := inner[k]; !has && fields[k] != nil {
				inner[k] = fields[k]
			}
		}
		fields = inner
	}

	name, kind := stringField(fields, "name")
	switch kind {
	case "absent", "null":
		report(`missing "name"`, `give every tool a "name"`)
		return item, problems, false
	case "":
	default:
		report(`"name" is `+kind+", want a string", `give the name as a JSON string such as "get_weather"`)
		return item, problems, false
	}
	t := Tool{Name: Namespace(ns, strings.TrimSpace(name)), Server: ns}
	item.tool.Name = t.Name

	t.Description, _ = optionalString(fields, "description", report)
	if server, ok := optionalString(fields, "server", report); ok && ns == "" {
		t.Server = server
	}
	t.Category, _ = optionalString(fields, "category", report)
	t.Title, _ = optionalString(fields, "title", report)

	for _, key := range schemaKeys {
		schema, has := fields[key]
		if !has || isNull(schema) {
			continue
		}
		if kind := jsonKind(schema, ""); kind != "" {
			report("input schema is "+kind+", want a JSON object",
				`give "`+key+`" as an object such as {"type":"object","properties":{...}}`)
		} else {
			t.InputSchema = schema
		}
		break
	}
	if ann := fields["annotations"]; !isNull(ann) {
		if kind := jsonKind(ann, ""); kind != "" {
			report(`"annotations" is `+kind+", want a JSON object",
				`give "annotations" as an object such as {"readOnlyHint":true}, or leave it out`)
		} else {
			t.Annotations = ann
		}
	}
	for _, key := range []string{"outputSchema", "output_schema"} {
		out, has := fields[key]
		if !has || isNull(out) {
			continue
		}
		if kind := jsonKind(out, ""); kind != "" {
			report("output schema is "+kind+", want a JSON object",
				`give "`+key+`" as an object such as {"type":"object","properties":{...}}, or leave it out`)
		} else {
			t.OutputSchema = out
		}
		break
	}
	item.tool = Normalize(t)
	for _, is := range checkTool(item.tool, true) {
		problems = append(problems, item.problem(is))
	}
	return item, problems, true
}

// stringField returns fields[key] as a string. kind is "" when it is one,
// "absent" when the key is missing, and otherwise what the value is instead
// ("a number", "null", …).
func stringField(fields map[string]json.RawMessage, key string) (s string, kind string) {
	raw, has := fields[key]
	if !has {
		return "", "absent"
	}
	// Fast path for the common string without escapes; the record was
	// validated when it was decoded.
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' &&
		bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : n-1]), ""
	}
	if json.Unmarshal(raw, &s) == nil && bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) {
		return s, ""
	}
	return "", jsonKind(raw, "an object")
}

// optionalString returns fields[key] as a trimmed string; an absent key or
// JSON null gives "". Any other non-string value is reported, and ok is false.
func optionalString(fields map[string]json.RawMessage, key string, report func(reason, fix string)) (s string, ok bool) {
	s, kind := stringField(fields, key)
	switch kind {
	case "":
		return strings.TrimSpace(s), true
	case "absent", "null":
		return "", true
	}
	report(`"`+key+`" is `+kind+", want a string", `give "`+key+`" as a JSON string, or leave it out`)
	return "", false
}
