package toolset

import (
	"cmp"
	"regexp"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/catalog"
)

// example is the catalog tool that the tool_search description and the
// system prompt addition use to illustrate queries, so that they name only
// what the model's catalog holds (never a server outside the caller's
// visible tools, nor one the catalog lacks): the first tool, in catalog
// order, of the server with the most tools (ties by name), or the first
// tool when no tool has a server. It depends on the catalog alone, so the
// texts are the same on every turn.
type example struct {
	// server is the tool's server ("" if none); name its catalog name;
	// words its name without the server, as lowercase words ("create
	// issue").
	server, name, words string
}

// exampleOf picks the example of a catalog (the zero example for none).
func exampleOf(tools []catalog.Tool) example {
	if len(tools) == 0 {
		return example{}
	}
	counts := map[string]int{}
	best := ""
	for _, t := range tools {
		if t.Server == "" {
			continue
		}
		counts[t.Server]++
		n := counts[t.Server]
		if best == "" || n > counts[best] || n == counts[best] && t.Server < best {
			best = t.Server
		}
	}
	for _, t := range tools {
		if t.Server == best {
			return example{server: best, name: t.Name, words: nameWords(t.Name, best)}
		}
	}
	return example{}
}

// nameWords turns a tool name into lowercase words: everything up to the
// server and its separator ("github__", "mcp__github__", "github.") dropped, split at '_', '-', '.', '/',
// spaces and camelCase boundaries ("github__createIssue" → "create
// issue").
func nameWords(name, server string) string {
	if srv, rest := catalog.SplitName(name); server != "" && strings.EqualFold(srv, server) && rest != "" {
		name = rest
	} else if server != "" {
		for _, sep := range []string{"__", ".", "/", "_", "-"} {
			if _, rest, ok := strings.Cut(name, server+sep); ok && rest != "" {
				name = rest
				break
			}
		}
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return cmp.Or(strings.Join(words, " "), strings.ToLower(name))
}

// query is a plain-words example query: "create issue github".
func (ex example) query() string {
	return strings.TrimSpace(ex.words + " " + ex.server)
}

// pattern is a regular-expression example matching the tool's name:
// "^github.*create" for github__create_issue.
func (ex example) pattern() string {
	first, _, _ := strings.Cut(ex.words, " ")
	if i := strings.Index(ex.name, ex.server); ex.server != "" && i >= 0 {
		return "^" + regexp.QuoteMeta(ex.name[:i+len(ex.server)]) + ".*" + regexp.QuoteMeta(first)
	}
	return regexp.QuoteMeta(first)
}
