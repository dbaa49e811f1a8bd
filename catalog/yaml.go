package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// parseYAML parses a YAML file holding any of the JSON shapes: a mapping
// with a "tools" list (or "result.tools"), a top-level list of tools, or a
// single tool mapping. Problems are positioned as "line N".
func parseYAML(data []byte, file, ns string) (items []located, problems []Problem) {
	defer func() {
		// yaml.v3 is third-party code; input must never crash the sidecar.
		if r := recover(); r != nil {
			items, problems = nil, []Problem{{File: file, Reason: fmt.Sprintf("invalid YAML: %v", r)}}
		}
	}()
	const fix = `give a "tools:" list, a top-level list of tools, or JSON`
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, []Problem{atFault(yamlProblem(file, 0, err), data)}
	}
	// A second document (after "---") would be dropped silently: refuse it.
	// An empty one (a trailing "---") holds nothing to drop.
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, []Problem{atFault(yamlProblem(file, 0, err), data)}
		}
		if len(next.Content) == 0 || next.Content[0].Tag == "!!null" {
			continue
		}
		return nil, []Problem{{File: file, Position: line(&next), Reason: "file holds more than one YAML document (separated by ---)",
			Fix: `put every tool in one document: one "tools:" list, or give each document a file of its own`}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, []Problem{{File: file, Reason: "file holds no YAML document", Fix: fix}}
	}
	root := resolve(doc.Content[0])
	list := root
	if root.Kind == yaml.MappingNode {
		list = nil
		if tools := mappingValue(root, "tools"); tools != nil {
			list = tools
		} else if result := mappingValue(root, "result"); result != nil && result.Kind == yaml.MappingNode {
			list = mappingValue(result, "tools")
		}
		if list == nil {
			if mappingValue(root, "name") != nil || mappingValue(root, "function") != nil {
				return parseYAMLItems([]*yaml.Node{root}, file, ns)
			}
			return nil, []Problem{{File: file, Position: line(root),
				Reason: `found a mapping without "tools"`, Fix: fix}}
		}
		if list.Kind != yaml.SequenceNode {
			return nil, []Problem{{File: file, Position: line(list),
				Reason: `"tools" is ` + yamlKind(list) + ", want a list of tools",
				Fix:    `give "tools" as a YAML list, one "- name: ..." item per tool`}}
		}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, []Problem{{File: file, Position: line(list),
			Reason: "file holds " + yamlKind(list) + ", want tools", Fix: fix}}
	}
	return parseYAMLItems(list.Content, file, ns)
}

// parseYAMLItems converts YAML tool nodes through JSON, so that every format
// shares one record converter.
func parseYAMLItems(nodes []*yaml.Node, file, ns string) ([]located, []Problem) {
	var items []located
	var problems []Problem
	for _, node := range nodes {
		node = resolve(node)
		pos := line(node)
		var v any
		if err := node.Decode(&v); err != nil {
			problems = append(problems, yamlProblem(file, node.Line, err))
			continue
		}
		raw, err := json.Marshal(jsonable(v))
		if err != nil {
			var name string
			if n := mappingValue(node, "name"); n != nil && n.Kind == yaml.ScalarNode {
				name = displayName(Namespace(ns, strings.TrimSpace(n.Value)))
			}
			problems = append(problems, Problem{File: file, Position: pos, Tool: name,
				Reason: "value cannot be represented in JSON: " + strings.TrimPrefix(err.Error(), "json: "),
				Fix:    "use only strings, numbers, booleans, null, lists and mappings"})
			continue
		}
		item, ps, ok := convertRecord(raw, file, pos, ns)
		problems = append(problems, ps...)
		if ok {
			items = append(items, item)
		}
	}
	return items, problems
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// mappingValue returns the value of key in mapping m, nil if absent or if m
// is not a mapping.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return resolve(m.Content[i+1])
		}
	}
	return nil
}

// line positions a YAML node.
func line(n *yaml.Node) string { return "line " + strconv.Itoa(n.Line) }

// yamlKind names the kind of a YAML node for messages.
func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return "a string"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a scalar (" + strings.TrimPrefix(n.Tag, "!!") + ")"
	}
	return "an unsupported node"
}

// yamlLine matches the line number that yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlProblem reports a yaml.v3 error, taking the line from its message
// when it has one and from fallbackLine (if not 0) otherwise.
func yamlProblem(file string, fallbackLine int, err error) Problem {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	p := Problem{File: file, Fix: "correct the YAML at that line"}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		p.Position = "line " + m[1]
		msg = msg[len(m[0]):]
	} else if fallbackLine > 0 {
		p.Position = "line " + strconv.Itoa(fallbackLine)
	}
	p.Reason = "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")
	return p
}

// atFault moves a syntax problem p of data to the line at fault. yaml.v3
// names the line where the construct around the fault began (an
// indentation error on line 3 of a list that starts on line 1 is "line
// 1"); the first prefix of data's lines that fails for the same reason
// ends at the line at fault. Prefixes that include it fail, those that
// stop before it do not, so a binary search finds it in a few decodes.
func atFault(p Problem, data []byte) Problem {
	from, err := strconv.Atoi(strings.TrimPrefix(p.Position, "line "))
	if err != nil || from < 1 {
		return p
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	failsSame := func(n int) bool {
		prefix := bytes.Join(lines[:n], nil)
		dec := yaml.NewDecoder(bytes.NewReader(prefix))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if err == io.EOF {
				return false
			}
			if err != nil {
				return yamlProblem(p.File, 0, err).Reason == p.Reason
			}
		}
	}
	lo, hi := min(from, len(lines)), len(lines) // failsSame(hi): data itself
	for lo < hi {
		mid := lo + (hi-lo)/2
		if failsSame(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > from {
		p.Position = "line " + strconv.Itoa(lo)
	}
	return p
}

// jsonable converts what yaml.v3 decodes into values encoding/json accepts:
// mappings with non-string keys become objects keyed by the keys' text.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = jsonable(x)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[fmt.Sprint(k)] = jsonable(x)
		}
		return m
	case []any:
		for i, x := range v {
			v[i] = jsonable(x)
		}
		return v
	}
	return v
}
