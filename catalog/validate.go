package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/jsontext"
)

// MaxNameRunes caps the length of a tool's own name, in runes: the part
// after its server namespace ("create_issue" in "github__create_issue"), or
// the whole name when it has none. 128 is the MCP specification's
// recommended maximum for a tool name.
//
// The namespace is capped separately (MaxServerRunes), because the sidecar
// or a catalog adds it on top of the name a server gave its tool: the
// StableToolBench catalog in ../shared/bench has
// "transportistas_de_argentina__quotes_city_correo_argentino_…", 138 runes
// in all but a 109-rune tool name, and a search sidecar should index the
// tools agents actually have.
const MaxNameRunes = 128

// MaxServerRunes caps the length of a name's server namespace (the part
// before the first "__"), in runes, so a full name is at most
// MaxServerRunes + 2 + MaxNameRunes = 194 runes.
const MaxServerRunes = 64

// MaxDescriptionBytes caps the length of a tool description: 64 KiB, about
// 16k tokens, far more than any useful description (the longest in the
// benchmark catalogs is 8 KB) but small enough that one bad record cannot
// blow up the index.
const MaxDescriptionBytes = 64 << 10

// MaxCategoryRunes caps the length of a tool's category, in runes: a
// category is a word or two ("office", "developer tools"); the bench
// catalogs' longest is 40.
const MaxCategoryRunes = 128

// MaxTitleRunes caps the length of a tool's display title (MCP "title"), in
// runes: a title is a short label such as "Send Slack Message"; 256 leaves
// room for any real one.
const MaxTitleRunes = 256

// Validate checks tools and returns a *ValidationError listing every problem
// (nil if there is none). A tool is valid when its name is non-empty, its own
// name at most MaxNameRunes runes and its namespace at most MaxServerRunes, valid UTF-8 and free of whitespace and control
// characters; its description is valid UTF-8 of at most MaxDescriptionBytes
// bytes; its InputSchema is absent, JSON null or a JSON object; its
// Annotations and OutputSchema are absent, JSON null or JSON objects; its
// Title is valid UTF-8 of at most MaxTitleRunes runes; and no other tool has
// the same name. Problems are positioned as "index i" in tools.
//
// Validate does not normalize: a name with surrounding spaces is reported.
// NewSnapshot and Snapshot.Upsert call Normalize first.
func Validate(tools []Tool) error {
	items := make([]located, len(tools))
	for i, t := range tools {
		items[i] = located{tool: t, pos: "index " + strconv.Itoa(i)}
	}
	return problemsError(validateLocated(items))
}

// located is a tool and where it was defined.
type located struct {
	tool Tool
	file string
	pos  string
}

// where renders the tool's location for messages about another tool.
func (l located) where() string {
	switch {
	case l.file == "":
		return l.pos
	case l.pos == "":
		return l.file
	}
	return l.file + " " + l.pos
}

// problemsError returns a *ValidationError holding problems, or nil if there
// are none.
func problemsError(problems []Problem) error {
	if len(problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: problems}
}

// validateLocated checks every tool on its own, then looks for duplicate
// names across all of them.
func validateLocated(items []located) []Problem {
	var problems []Problem
	for _, item := range items {
		for _, issue := range checkTool(item.tool, false) {
			problems = append(problems, item.problem(issue))
		}
	}
	return append(problems, duplicates(items)...)
}

// duplicates reports every tool whose name an earlier tool already has.
func duplicates(items []located) []Problem {
	var problems []Problem
	first := make(map[string]int, len(items))
	for i, item := range items {
		name := item.tool.Name
		if name == "" {
			continue
		}
		if j, ok := first[name]; ok {
			problems = append(problems, item.problem(issue{
				reason: "duplicate name; first defined at " + items[j].where(),
				fix:    "rename one of the tools, or load their files under different server namespaces",
			}))
			continue
		}
		first[name] = i
	}
	return problems
}

// issue is a problem before it is located.
type issue struct{ reason, fix string }

// problem locates an issue at item.
func (l located) problem(is issue) Problem {
	return Problem{File: l.file, Position: l.pos, Tool: displayName(l.tool.Name), Reason: is.reason, Fix: is.fix}
}

// displayName shortens a name for messages, so that a pasted paragraph in a
// name field does not flood the error text.
func displayName(name string) string {
	const max = 80
	if utf8.RuneCountInString(name) <= max {
		return name
	}
	return string([]rune(name)[:max-1]) + "…"
}

// checkTool returns what is wrong with t on its own. jsonChecked says that
// the caller already knows t's schema and annotations to be absent or JSON
// objects (the parser does), which saves scanning them again.
func checkTool(t Tool, jsonChecked bool) []issue {
	var issues []issue
	if is, ok := checkName(t.Name); !ok {
		issues = append(issues, is)
	}
	switch {
	case !utf8.ValidString(t.Description):
		issues = append(issues, issue{reason: "description is not valid UTF-8", fix: "encode the description as UTF-8"})
	case len(t.Description) > MaxDescriptionBytes:
		issues = append(issues, issue{
			reason: fmt.Sprintf("description is %d bytes long, over the limit of %d (64 KiB)", len(t.Description), MaxDescriptionBytes),
			fix:    "shorten the description to what a model needs to choose the tool",
		})
	}
	if !utf8.ValidString(t.Server) {
		issues = append(issues, issue{reason: "server is not valid UTF-8", fix: "encode the server name as UTF-8"})
	}
	if !utf8.ValidString(t.Category) {
		issues = append(issues, issue{reason: "category is not valid UTF-8", fix: "encode the category as UTF-8"})
	}
	if n := utf8.RuneCountInString(t.Server); n > MaxServerRunes {
		issues = append(issues, issue{
			reason: fmt.Sprintf("server is %d characters long, over the limit of %d", n, MaxServerRunes),
			fix:    "shorten the server name",
		})
	}
	if n := utf8.RuneCountInString(t.Category); n > MaxCategoryRunes {
		issues = append(issues, issue{
			reason: fmt.Sprintf("category is %d characters long, over the limit of %d", n, MaxCategoryRunes),
			fix:    "shorten the category",
		})
	}
	switch {
	case !utf8.ValidString(t.Title):
		issues = append(issues, issue{reason: "title is not valid UTF-8", fix: "encode the title as UTF-8"})
	case utf8.RuneCountInString(t.Title) > MaxTitleRunes:
		issues = append(issues, issue{
			reason: fmt.Sprintf("title is %d characters long, over the limit of %d", utf8.RuneCountInString(t.Title), MaxTitleRunes),
			fix:    "shorten the title to a display name",
		})
	}
	if jsonChecked {
		return issues
	}
	if kind := objectKind(t.InputSchema); kind != "" {
		issues = append(issues, issue{
			reason: "input schema is " + kind + ", want a JSON object",
			fix:    `give the input schema as an object such as {"type":"object","properties":{...}}`,
		})
	}
	if kind := objectKind(t.Annotations); kind != "" {
		issues = append(issues, issue{
			reason: "annotations are " + kind + ", want a JSON object",
			fix:    `give annotations as an object such as {"readOnlyHint":true}, or leave them out`,
		})
	}
	if kind := objectKind(t.OutputSchema); kind != "" {
		issues = append(issues, issue{
			reason: "output schema is " + kind + ", want a JSON object",
			fix:    `give the output schema as an object such as {"type":"object","properties":{...}}, or leave it out`,
		})
	}
	return issues
}

// checkName returns what is wrong with a tool name, if anything.
func checkName(name string) (issue, bool) {
	const fix = "use letters, digits, '_', '-' and '.'; replace spaces with '_'"
	switch {
	case strings.TrimSpace(name) == "":
		return issue{reason: "name is empty", fix: `give every tool a non-empty "name"`}, false
	case !utf8.ValidString(name):
		return issue{reason: "name is not valid UTF-8", fix: "encode the name as UTF-8"}, false
	}
	server, own, namespaced := strings.Cut(name, NamespaceSeparator)
	if !namespaced {
		server, own = "", name
	}
	if n := utf8.RuneCountInString(own); n > MaxNameRunes {
		what := "name"
		if namespaced {
			what = "tool name after the server namespace"
		}
		return issue{
			reason: fmt.Sprintf("%s is %d characters long, over the limit of %d", what, n, MaxNameRunes),
			fix:    "shorten the name",
		}, false
	}
	if n := utf8.RuneCountInString(server); n > MaxServerRunes {
		return issue{
			reason: fmt.Sprintf("server namespace %q is %d characters long, over the limit of %d", server, n, MaxServerRunes),
			fix:    "use a shorter server namespace",
		}, false
	}
	for i, r := range []rune(name) {
		switch {
		case r == ' ':
			return issue{reason: fmt.Sprintf("name contains a space at character %d", i+1), fix: fix}, false
		case unicode.IsSpace(r):
			return issue{reason: fmt.Sprintf("name contains whitespace %U at character %d", r, i+1), fix: fix}, false
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return issue{reason: fmt.Sprintf("name contains control character %U at character %d", r, i+1), fix: fix}, false
		}
	}
	return issue{}, true
}

// objectKind returns "" if raw is absent, JSON null or a JSON object, and
// otherwise what it is instead ("a string", "an array", "not valid JSON",
// "nested more than 10000 levels deep …").
func objectKind(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	if p := jsontext.Problem(raw); p != "" {
		return p
	}
	return jsonKind(raw, "")
}

// jsonKind names the kind of a valid JSON value, or returns object for an
// object.
func jsonKind(raw json.RawMessage, object string) string {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return "empty"
	}
	switch trimmed[0] {
	case '{':
		return object
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
