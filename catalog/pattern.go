package catalog

import (
	"errors"
	"fmt"
	"strings"
)

// Pattern is one entry of a list of tools given by name or pattern, the
// syntax shared by a request's visible set (search.Request.Visible, the MCP
// endpoint's scopes) and the always-loaded list of a tool set:
//
//	get_weather        that tool (exact name)
//	github:*           every tool of server github (ignoring case)
//	category:finance   every tool of category finance (ignoring case)
//	github__*          every tool whose name starts with "github__"
//
// "*" alone is the empty prefix: every tool. The zero value matches
// nothing. A Pattern is a value: safe for concurrent use.
type Pattern struct {
	kind patternKind
	// text is the name, the lowercased server or category, or the prefix.
	text string
}

type patternKind uint8

const (
	patternNone patternKind = iota
	patternName
	patternServer
	patternCategory
	patternPrefix
)

// CategoryPatternPrefix starts a pattern that names a category:
// "category:human" matches every tool whose category is "human", ignoring
// case.
const CategoryPatternPrefix = "category:"

// ParsePattern parses one entry (surrounding spaces ignored). Its errors
// name the entry and say what to write instead, without naming the list
// (callers prefix it: "visible_tools entry …").
func ParsePattern(entry string) (Pattern, error) {
	v := strings.TrimSpace(entry)
	star := strings.IndexByte(v, '*')
	if c, ok := strings.CutPrefix(v, CategoryPatternPrefix); ok && star < 0 {
		if c = strings.TrimSpace(c); c == "" {
			return Pattern{}, fmt.Errorf("entry %q names no category; write category:NAME", entry)
		}
		return Pattern{patternCategory, strings.ToLower(c)}, nil
	}
	switch {
	case v == "":
		return Pattern{}, errors.New("has an empty entry; give tool names, server:*, category:NAME or prefix* patterns")
	case star < 0:
		return Pattern{patternName, v}, nil
	case star != len(v)-1:
		return Pattern{}, fmt.Errorf("entry %q: '*' may only end a pattern, as in \"github:*\" or \"github__*\"", entry)
	}
	if server, ok := strings.CutSuffix(v, ":*"); ok {
		if server == "" {
			return Pattern{}, fmt.Errorf("entry %q names no server; write SERVER:*", entry)
		}
		return Pattern{patternServer, strings.ToLower(server)}, nil
	}
	return Pattern{patternPrefix, strings.TrimSuffix(v, "*")}, nil
}

// Name returns the tool name an exact-name pattern gives, and whether p is
// one (a caller with an index by name need not scan).
func (p Pattern) Name() (string, bool) { return p.text, p.kind == patternName }

// Match reports whether t is one of the tools p names.
func (p Pattern) Match(t Tool) bool {
	switch p.kind {
	case patternName:
		return t.Name == p.text
	case patternServer:
		return strings.EqualFold(t.Server, p.text)
	case patternCategory:
		return strings.EqualFold(t.Category, p.text)
	case patternPrefix:
		return strings.HasPrefix(t.Name, p.text)
	}
	return false
}
