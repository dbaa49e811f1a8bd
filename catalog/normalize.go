package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// NamespaceSeparator joins a server namespace and a tool name:
// "github" + "__" + "create_issue" = "github__create_issue". It is the
// convention of MCP clients that merge several servers' tools into one list.
const NamespaceSeparator = "__"

// defaultSchema is the input schema of a tool that declares none: an object
// with no properties.
const defaultSchema = `{"type":"object","properties":{}}`

// unscannedDescriptionBytes is the description length past which Normalize
// leaves a description as it is, for Validate to reject (its limit is
// MaxDescriptionBytes): stripping control characters cannot bring it under
// the limit unless half of it is control characters, and scanning a 50 MB
// description rune by rune took 0.44 s of a rejected UpsertTools.
const unscannedDescriptionBytes = 2 * MaxDescriptionBytes

// Normalize returns t in the form a Snapshot keeps: Name, Server, Category
// and Description trimmed of surrounding whitespace, and Server, Category
// and Description stripped of control and bidirectional formatting
// characters (a description keeps its newlines and tabs; see sanitize.go); Server taken from the
// name when empty (SplitName: "mcp__slack__x", "slack__x", "slack.x" and
// "slack/x" are tools of server slack); InputSchema compacted, or the empty
// object schema when nil or JSON null; Annotations compacted, or nil when
// JSON null; Title trimmed and stripped like Category; OutputSchema
// compacted, or nil when JSON null. The returned schemas and annotations
// never share memory with t's. A description over twice
// MaxDescriptionBytes is left as it is.
// Normalize does not validate: bytes that are not valid JSON are copied as
// they are, for Validate to report.
func Normalize(t Tool) Tool {
	t.Name = strings.TrimSpace(t.Name)
	t.Server = strings.TrimSpace(stripControls(t.Server, false))
	t.Category = strings.TrimSpace(stripControls(t.Category, false))
	if len(t.Description) <= unscannedDescriptionBytes {
		t.Description = strings.TrimSpace(stripControls(t.Description, true))
	}
	if t.Server == "" {
		t.Server, _ = SplitName(t.Name)
	}
	if isNull(t.InputSchema) {
		t.InputSchema = json.RawMessage(defaultSchema)
	} else {
		t.InputSchema = compact(t.InputSchema)
	}
	if isNull(t.Annotations) {
		t.Annotations = nil
	} else {
		t.Annotations = compact(t.Annotations)
	}
	t.Title = strings.TrimSpace(stripControls(t.Title, false))
	if isNull(t.OutputSchema) {
		t.OutputSchema = nil
	} else {
		t.OutputSchema = compact(t.OutputSchema)
	}
	return t
}

// Namespace returns name under the server namespace: "gh" and "create_issue"
// give "gh__create_issue". A name that already starts with "gh__" is returned
// as is, and so is any name when server is "".
func Namespace(server, name string) string {
	if server == "" || strings.HasPrefix(name, server+NamespaceSeparator) {
		return name
	}
	return server + NamespaceSeparator + name
}

// isNull reports whether raw is absent or the JSON literal null.
func isNull(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) == 0 || string(trimmed) == "null"
}

// compact returns a compacted copy of raw, or a plain copy if raw is not
// valid JSON.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.Grow(len(raw))
	if json.Compact(&b, raw) != nil {
		return bytes.Clone(raw)
	}
	return b.Bytes()
}
