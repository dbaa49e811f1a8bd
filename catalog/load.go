package catalog

import (
	"strings"

	"github.com/toolsearch/toolsearch/internal/safefile"
)

// Source names a catalog file and its optional server namespace.
type Source struct {
	// Path is the file to read.
	Path string
	// Server, if not "", is the namespace of every tool in the file: tool
	// "create_issue" becomes "gh__create_issue" with Server "gh" (a name that
	// already starts with "gh__" is kept). Per-record "server" fields are then
	// ignored.
	Server string
}

// Load reads (Read) and parses every source, then validates the union of
// their tools, so that a name defined in two files is reported too. It
// returns the tools in file order. Problems in the files are reported
// together as a *ValidationError (wrapping ErrInvalid); a file that cannot
// be read stops the load with the read error.
func Load(sources ...Source) ([]Tool, error) {
	data := make([][]byte, len(sources))
	for i, src := range sources {
		b, err := Read(src, 0)
		if err != nil {
			return nil, err
		}
		data[i] = b
	}
	return LoadData(sources, data)
}

// Read reads src's file: a regular file only — a FIFO, a device or a
// directory is refused by name, never read or waited on — of at most max
// bytes (max ≤ 0: any size), checked before it is read. Its errors name
// the file.
func Read(src Source, max int64) ([]byte, error) {
	return safefile.ReadFile(src.Path, max) // its errors name the file

}

// LoadData is Load over files already read: data[i] is the content of
// sources[i].
func LoadData(sources []Source, data [][]byte) ([]Tool, error) {
	var items []located
	var problems []Problem
	for i, src := range sources {
		its, ps := parseFile(data[i], src.Path, strings.TrimSpace(src.Server))
		items = append(items, its...)
		problems = append(problems, ps...)
	}
	return finish(items, problems)
}

// LoadSnapshot loads sources (as Load does) into a new snapshot, version 1:
// what a sidecar serves at start-up.
func LoadSnapshot(sources ...Source) (*Snapshot, error) {
	tools, err := Load(sources...)
	if err != nil {
		return nil, err
	}
	return NewSnapshot(tools)
}

// Parse parses one catalog file's content, detecting its format from the
// content, and validates the tools in it. file only labels problems; server,
// if not "", is the namespace as in Source. On any problem it returns a
// *ValidationError (wrapping ErrInvalid) listing them all, and no tools.
// The tools it returns are normalized (see Normalize) and pass Validate.
func Parse(data []byte, file string, server string) ([]Tool, error) {
	items, problems := parseFile(data, file, strings.TrimSpace(server))
	return finish(items, problems)
}

// finish looks for duplicate names among parsed tools (each was checked on
// its own as it was parsed) and returns the tools, or every problem found.
func finish(items []located, problems []Problem) ([]Tool, error) {
	problems = append(problems, duplicates(items)...)
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	tools := make([]Tool, len(items))
	for i, item := range items {
		tools[i] = item.tool
	}
	return tools, nil
}

// ParseLenient parses one catalog document as Parse does, but keeps what is
// usable: it returns every valid tool, and the problems of the others,
// which it drops. A tool whose name an earlier tool already has is dropped
// (the first is kept) and reported. For sources that must not be refused
// whole for one bad tool, such as a live MCP server's tools/list; a problem
// with the document itself (not JSON, no "tools") gives no tools.
func ParseLenient(data []byte, file string, server string) ([]Tool, []Problem) {
	items, problems := parseFile(data, file, strings.TrimSpace(server))
	bad := make(map[string]bool, len(problems))
	for _, p := range problems {
		if p.Position != "" {
			bad[p.Position] = true
		}
	}
	seen := make(map[string]located, len(items))
	tools := make([]Tool, 0, len(items))
	for _, item := range items {
		if bad[item.pos] {
			continue
		}
		if first, ok := seen[item.tool.Name]; ok {
			problems = append(problems, item.problem(issue{
				reason: "duplicate name; first defined at " + first.where() + ", which is kept",
				fix:    "give each tool of the server a distinct name",
			}))
			continue
		}
		seen[item.tool.Name] = item
		tools = append(tools, item.tool)
	}
	return tools, problems
}
