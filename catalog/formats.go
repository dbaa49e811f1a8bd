package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/jsontext"
)

// parseFile detects the format of data and turns it into located tools,
// returning every problem found in the file's syntax and records (but not
// those that validation finds).
func parseFile(data []byte, file, ns string) ([]located, []Problem) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	if ps := invalidUTF8(data, file); len(ps) > 0 {
		return nil, ps
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, []Problem{{File: file, Reason: "file is empty",
			Fix: `give a tools/list result {"tools":[...]}, an array of tools, one tool per line (JSONL), or YAML`}}
	}
	switch trimmed[0] {
	case '{':
		if isJSONL(data) {
			return parseJSONL(data, file, ns)
		}
		return parseJSON(data, file, ns)
	case '[':
		return parseJSON(data, file, ns)
	}
	return parseYAML(data, file, ns)
}

// isJSONL reports whether data, which starts with "{", holds one JSON value
// per line: its first non-blank line is a complete JSON value and another
// non-blank line follows. A pretty-printed JSON document fails the first
// test, because its first line is an unclosed "{".
func isJSONL(data []byte) bool {
	first := true
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !first {
			return true
		}
		if !json.Valid(line) {
			return false
		}
		first = false
	}
	return false
}

// parseJSON parses a whole-document JSON file: a tools/list result, its
// JSON-RPC envelope, an array of tools, or a single tool object.
func parseJSON(data []byte, file, ns string) ([]located, []Problem) {
	var doc json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, []Problem{jsonSyntaxProblem(data, file, 0, err)}
	}
	items, pos, problem := toolsList(doc, "")
	if problem != nil {
		problem.File = file
		return nil, []Problem{*problem}
	}
	if pos == "" { // a single tool object
		return parseRecords([]json.RawMessage{doc}, file, ns, func(int) string { return "" })
	}
	return parseRecords(items, file, ns, func(i int) string {
		if pos == "index" {
			return "index " + strconv.Itoa(i)
		}
		return pos + "[" + strconv.Itoa(i) + "]"
	})
}

// toolsList finds the tool records in a JSON document. pos names the array
// they came from ("tools", "result.tools", or "index" for a top-level array),
// and is "" when the document is itself one tool. prefix is the path of doc
// inside the file.
func toolsList(doc json.RawMessage, prefix string) (items []json.RawMessage, pos string, problem *Problem) {
	const fix = `give a tools/list result {"tools":[...]}, an array of tools, or one tool per line (JSONL)`
	if kind := jsonKind(doc, ""); kind == "an array" {
		if err := json.Unmarshal(doc, &items); err != nil {
			return nil, "", &Problem{Reason: "invalid JSON: " + err.Error()}
		}
		if prefix == "" {
			return items, "index", nil
		}
		return items, prefix, nil
	} else if kind != "" {
		if prefix == "" {
			return nil, "", &Problem{Reason: "file holds " + kind + ", want tools", Fix: fix}
		}
		return nil, "", &Problem{Position: prefix, Reason: `"` + prefix + `" is ` + kind + ", want an object or an array of tools", Fix: fix}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(doc, &obj); err != nil {
		return nil, "", &Problem{Reason: "invalid JSON: " + err.Error()}
	}
	path := func(key string) string {
		if prefix == "" {
			return key
		}
		return prefix + "." + key
	}
	if tools, has := obj["tools"]; has {
		if kind := jsonKind(tools, ""); kind != "an array" {
			if kind == "" {
				kind = "an object"
			}
			return nil, "", &Problem{Reason: `"` + path("tools") + `" is ` + kind + ", want an array of tools",
				Fix: `give "tools" as a JSON array: {"tools":[{"name":...},...]}`}
		}
		return toolsList(tools, path("tools"))
	}
	if result, has := obj["result"]; has && prefix == "" {
		return toolsList(result, "result")
	}
	if _, has := obj["error"]; has && prefix == "" {
		return nil, "", &Problem{Reason: "file holds a JSON-RPC error response, not a tools/list result",
			Fix: "save the result of a successful tools/list call"}
	}
	if _, has := obj["name"]; has && prefix == "" {
		return nil, "", nil
	}
	if _, has := obj["function"]; has && prefix == "" {
		return nil, "", nil
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, strconv.Quote(k))
	}
	slices.Sort(keys)
	const maxKeys = 8
	if len(keys) > maxKeys {
		keys = append(keys[:maxKeys], "…")
	}
	return nil, "", &Problem{Position: prefix,
		Reason: fmt.Sprintf(`found an object with keys %s but no "tools"`, strings.Join(keys, ", ")), Fix: fix}
}

// parseRecords converts tool records, positioned by pos(i).
func parseRecords(records []json.RawMessage, file, ns string, pos func(i int) string) ([]located, []Problem) {
	items := make([]located, 0, len(records))
	var problems []Problem
	for i, raw := range records {
		item, ps, ok := convertRecord(raw, file, pos(i), ns)
		problems = append(problems, ps...)
		if ok {
			items = append(items, item)
		}
	}
	return items, problems
}

// jsonSyntaxProblem reports a JSON decoding error in data, whose first byte
// is on line firstLine+1, as "line L:C".
func jsonSyntaxProblem(data []byte, file string, firstLine int, err error) Problem {
	p := Problem{File: file, Reason: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: "),
		Fix: "correct the JSON syntax at that position"}
	if strings.Contains(err.Error(), "exceeded max depth") {
		// Valid JSON, only too deep for the decoder (a schema nested
		// thousands of levels): say so, not "invalid".
		p.Reason = fmt.Sprintf("a value is nested more than %d levels deep (objects and arrays inside each other), over the JSON decoder's limit", jsontext.MaxDepth)
		p.Fix = "flatten the schema: no model provider accepts a schema nested this deep"
	}
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		line, col := lineCol(data, syntax.Offset-1)
		p.Position = fmt.Sprintf("line %d:%d", firstLine+line, col)
	}
	return p
}

// lineCol returns the 1-based line and column (in runes) of byte offset off
// in data.
func lineCol(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[start:]) + 1
}

// maxUTF8Problems caps the invalid-UTF-8 positions reported for one file:
// a file in another encoding has thousands, and the first few say enough.
const maxUTF8Problems = 3

// invalidUTF8 reports the first positions (line:column) of bytes in data
// that are not UTF-8. JSON and YAML decoders would silently turn them into
// U+FFFD, rewriting a tool's name ("ok\xff" became "ok\ufffd") or text
// without a word; the file is rejected instead.
func invalidUTF8(data []byte, file string) []Problem {
	if utf8.Valid(data) {
		return nil
	}
	var ps []Problem
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size == 1 {
			if len(ps) == maxUTF8Problems {
				ps[len(ps)-1].Reason += " (and more after it)"
				break
			}
			line, col := lineCol(data, int64(off))
			ps = append(ps, Problem{File: file, Position: fmt.Sprintf("line %d:%d", line, col),
				Reason: fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", data[off]),
				Fix:    "save the file as UTF-8: tool names and text must be UTF-8, and are not rewritten"})
		}
		off += size
	}
	return ps
}
