package catalog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tool is one tool definition. It is a plain value and safe to copy; once in
// a Snapshot it is immutable, and readers must not modify the bytes of its
// InputSchema, OutputSchema or Annotations.
type Tool struct {
	// Name is the unique full name, "server__tool" when the file was loaded
	// with a server namespace.
	Name string
	// Server is the server or namespace the tool belongs to, "" if none.
	Server string
	// Category is an optional category, "" if none.
	Category string
	// Description is the tool's description, trimmed of surrounding
	// whitespace; inner text (newlines, Markdown) is kept as given.
	Description string
	// InputSchema is the JSON schema of the tool's input. It is always a JSON
	// object: {"type":"object","properties":{}} when the source had none.
	InputSchema json.RawMessage
	// Annotations is an optional JSON object (MCP tool annotations such as
	// {"readOnlyHint":true}), nil if absent.
	Annotations json.RawMessage
	// Title is an optional human-readable display name (MCP "title"), ""
	// if none. It is carried to get and the toolsets, not searched.
	Title string
	// OutputSchema is an optional JSON schema object of the tool's
	// structured output (MCP "outputSchema"), nil if absent.
	OutputSchema json.RawMessage
}

// Parameter is one top-level property of a tool's input schema.
type Parameter struct {
	// Name is the property name.
	Name string
	// Type is the JSON schema type, "" if none is given. A list of types
	// (["string","null"]) is joined with "|".
	Type string
	// Description is the property's description, "" if none.
	Description string
	// Required says whether the schema lists the property in "required".
	Required bool
}

// Parameters returns the top-level properties of t.InputSchema, sorted by
// name. It is tolerant of odd schemas: anything that is not an object with a
// "properties" object yields no parameters, and a property that is not an
// object yields a Parameter with only its Name. It never panics.
func (t Tool) Parameters() []Parameter {
	var schema map[string]json.RawMessage
	if json.Unmarshal(t.InputSchema, &schema) != nil {
		return nil
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(schema["properties"], &props) != nil || len(props) == 0 {
		return nil
	}
	required := map[string]bool{}
	var req []json.RawMessage
	if json.Unmarshal(schema["required"], &req) == nil {
		for _, r := range req {
			var name string
			if json.Unmarshal(r, &name) == nil {
				required[name] = true
			}
		}
	}
	params := make([]Parameter, 0, len(props))
	for name, raw := range props {
		p := Parameter{Name: name, Required: required[name]}
		var prop map[string]json.RawMessage
		if json.Unmarshal(raw, &prop) == nil {
			p.Type = schemaType(prop["type"])
			_ = json.Unmarshal(prop["description"], &p.Description)
		}
		params = append(params, p)
	}
	slices.SortFunc(params, func(a, b Parameter) int { return strings.Compare(a.Name, b.Name) })
	return params
}

// schemaType renders a JSON schema "type": a string as is, a list of strings
// joined with "|", anything else as "".
func schemaType(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var types []string
	for _, item := range list {
		if json.Unmarshal(item, &s) == nil && s != "" {
			types = append(types, s)
		}
	}
	return strings.Join(types, "|")
}

// SummaryMaxRunes caps the length of Tool.Summary, counting the "…" that
// marks a cut. 200 runes is about two lines of text: enough to tell tools
// apart in a search result without sending the whole description.
const SummaryMaxRunes = 200

// abbreviations end in a period that does not end a sentence.
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "esp.", "cf.", "no.", "mr.", "mrs.", "dr.", "st."}

// Summary returns the first sentence of the description (or its first line,
// if that is shorter), with runs of whitespace collapsed to one space and cut
// to at most SummaryMaxRunes runes, ending in "…" when cut. It returns "" if
// the tool has no description.
//
// A sentence ends at ".", "!" or "?" followed by whitespace and not by a
// lowercase letter (so "e.g. a file" and "v1.2" do not end it), or at "。",
// "！" or "？".
func (t Tool) Summary() string {
	text := strings.TrimSpace(t.Description)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	text = collapseSpace(text)
	text = firstSentence(text)
	if utf8.RuneCountInString(text) <= SummaryMaxRunes {
		return text
	}
	runes := []rune(text)[:SummaryMaxRunes-1]
	// Prefer cutting between words when a space is not too far back.
	if i := lastSpace(runes); i > SummaryMaxRunes/2 {
		runes = runes[:i]
	}
	return strings.TrimRightFunc(string(runes), func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':'
	}) + "…"
}

// collapseSpace returns text with its runs of whitespace collapsed to one
// space and none at either end, as strings.Join(strings.Fields(text), " ")
// does: text itself, without allocating, when it is so already (most
// descriptions' first lines; Summary runs for every reference of every
// search result).
func collapseSpace(text string) string {
	space := true // at the start, or after a space
	for _, r := range text {
		if !unicode.IsSpace(r) {
			space = false
			continue
		}
		if space || r != ' ' {
			return strings.Join(strings.Fields(text), " ")
		}
		space = true
	}
	if space && text != "" {
		return strings.Join(strings.Fields(text), " ") // a trailing space
	}
	return text
}

// firstSentence returns text up to and including the end of its first
// sentence; text has its whitespace already collapsed.
func firstSentence(text string) string {
	for i, r := range text {
		switch r {
		case '。', '！', '？':
			return text[:i+utf8.RuneLen(r)]
		case '.', '!', '?':
			end := i + 1
			if end == len(text) {
				return text
			}
			if text[end] != ' ' {
				continue
			}
			next, _ := utf8.DecodeRuneInString(text[end+1:])
			if unicode.IsLower(next) {
				continue
			}
			if r == '.' && endsWithAbbreviation(text[:end]) {
				continue
			}
			return text[:end]
		}
	}
	return text
}

// endsWithAbbreviation reports whether s ends with a word such as "e.g.".
func endsWithAbbreviation(s string) bool {
	word := strings.TrimLeft(s[strings.LastIndexByte(s, ' ')+1:], "([{\"'")
	for _, a := range abbreviations {
		if strings.EqualFold(word, a) {
			return true
		}
	}
	return false
}

// lastSpace returns the index of the last space in runes, or -1.
func lastSpace(runes []rune) int {
	for i := len(runes) - 1; i >= 0; i-- {
		if runes[i] == ' ' {
			return i
		}
	}
	return -1
}

// equal reports whether a and b define the same tool, byte for byte.
func (t Tool) equal(u Tool) bool {
	return t.Name == u.Name && t.Server == u.Server && t.Category == u.Category &&
		t.Description == u.Description &&
		bytes.Equal(t.InputSchema, u.InputSchema) && bytes.Equal(t.Annotations, u.Annotations) &&
		t.Title == u.Title && bytes.Equal(t.OutputSchema, u.OutputSchema)
}
