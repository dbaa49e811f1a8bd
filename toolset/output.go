package toolset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/catalog"
)

// output encodes the built entries in the format and search mode.
type output struct {
	format  Format
	search  SearchMode
	hosted  HostedSearch
	enc     encoder
	servers map[string]string
	catalog []catalog.Tool
	// searchDef is the tool_search definition (client and portable modes).
	searchDef Definition
}

func (o output) native() bool {
	return o.search == SearchNativeClient || o.search == SearchNativeHosted
}

// searchTool is the value of the search tool in the list.
func (o output) searchTool() any {
	if !o.native() {
		return o.enc.tool(o.searchDef)
	}
	switch {
	case o.format == Anthropic && o.search == SearchNativeHosted:
		return anthropicHostedSearch{Type: "tool_search_tool_" + string(o.hosted) + "_20251119", Name: "tool_search_tool_" + string(o.hosted)}
	case o.format == Anthropic:
		return o.enc.tool(o.searchDef)
	case o.search == SearchNativeHosted:
		return openAIToolSearch{Type: "tool_search", Execution: "server"}
	}
	return openAIToolSearch{Type: "tool_search", Execution: "client", Description: o.searchDef.Description, Parameters: o.searchDef.InputSchema}
}

// item returns e's encoded value, encoding it once (fit re-assembles the
// list several times, and a 4 MB list costs seconds to re-encode under the
// race detector).
func (o output) item(e *entry) (json.RawMessage, error) {
	if e.raw == nil {
		var v any = o.enc.tool(e.def)
		if e.kind() == EntrySearch {
			v = o.searchTool()
		}
		raw, err := marshal(v)
		if err != nil {
			return nil, err
		}
		e.raw = raw
	}
	return e.raw, nil
}

// list encodes the entries as the request's tools array: for OpenAI
// Responses, the deferred tools of each server grouped into a namespace
// placed at the server's first tool.
func (o output) list(entries []entry) (json.RawMessage, error) {
	return o.assemble(entries, func(e *entry) bool { return o.format == OpenAIResponses && e.kind() == EntryDeferred })
}

// loaded encodes the definitions of tools a search found, in the shape
// that loads them (for OpenAI Responses, a tool_search_output's tools:
// every tool of a server in its namespace).
func (o output) loaded(entries []entry) (json.RawMessage, error) {
	return o.assemble(entries, func(*entry) bool { return o.format == OpenAIResponses })
}

// assemble concatenates the entries' encoded values into the array,
// grouping into namespaces the entries with a server for which grouped is
// true.
func (o output) assemble(entries []entry, grouped func(*entry) bool) (json.RawMessage, error) {
	type slot struct {
		raw   json.RawMessage
		head  json.RawMessage // a namespace: its JSON up to "tools":[
		items []json.RawMessage
	}
	var slots []*slot
	spaces := map[string]*slot{}
	for i := range entries {
		e := &entries[i]
		raw, err := o.item(e)
		if err != nil {
			return nil, err
		}
		if e.kind() == EntrySearch || e.tool.Server == "" || !grouped(e) {
			slots = append(slots, &slot{raw: raw})
			continue
		}
		ns, ok := spaces[e.tool.Server]
		if !ok {
			head, err := marshal(o.namespace(e.tool.Server))
			if err != nil {
				return nil, err
			}
			// {"type":"namespace",…,"tools":[]} → {"type":"namespace",…,"tools":[
			ns = &slot{head: head[:len(head)-2]}
			spaces[e.tool.Server] = ns
			slots = append(slots, ns)
		}
		ns.items = append(ns.items, raw)
	}
	var b bytes.Buffer
	if o.format == Gemini && len(slots) > 0 {
		b.WriteString(`[{"functionDeclarations":[`)
	} else {
		b.WriteByte('[')
	}
	for i, s := range slots {
		if i > 0 {
			b.WriteByte(',')
		}
		if s.head == nil {
			b.Write(s.raw)
			continue
		}
		b.Write(s.head)
		for j, it := range s.items {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(it)
		}
		b.WriteString("]}")
	}
	if o.format == Gemini && len(slots) > 0 {
		b.WriteString("]}]")
	} else {
		b.WriteByte(']')
	}
	return b.Bytes(), nil
}

// NamespaceMaxTools is how many tool names a generated namespace
// description lists before "and N more": 12 names cost about 60 tokens and
// tell the model what the server is for.
const NamespaceMaxTools = 12

// namespace starts the namespace of a server: its name as OpenAI accepts
// it, and its description (the server's own, else generated from its
// tools' names).
func (o output) namespace(server string) *openAINamespace {
	desc := strings.TrimSpace(o.servers[server])
	if desc == "" {
		var names []string
		for _, t := range o.catalog {
			if t.Server == server {
				names = append(names, strings.TrimPrefix(t.Name, server+"__"))
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Tools of the %s server (%d): ", server, len(names))
		for i, n := range names {
			if i == NamespaceMaxTools {
				fmt.Fprintf(&b, ", and %d more", len(names)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
		}
		b.WriteString(".")
		desc = b.String()
	}
	if utf8.RuneCountInString(desc) > OpenAIMaxDescription {
		desc = truncate(desc, OpenAIMaxDescription)
	}
	return &openAINamespace{Type: "namespace", Name: openAINames.providerName(server), Description: desc, Tools: []any{}}
}

// TrimToolBytes is the size from which a definition is trimmed when the
// toolset is over Options.MaxBytes: a definition over 8 KiB (about 2,000
// tokens) is far past what a model needs to call the tool.
const TrimToolBytes = 8 << 10

// TrimDescription is the longest description of a trimmed definition, in
// characters.
const TrimDescription = 1024

// fit encodes the list and the loaded tools, and when they are over
// maxBytes (0: no limit), trims: first definitions over TrimToolBytes are
// reduced to their description (at most TrimDescription characters) and a
// skeleton schema (each top-level parameter's name, type and enum, and the
// required list), from the end of the list to its start and then the loaded
// tools, only as many as it takes to fit; then tools are left out from the
// end of the list, never the search tool or the always-loaded tools. Each step is reported (a
// Change of kind trimmed_for_size, an Omission "message_size").
func (b *builder) fit(ts Toolset, o output, load []entry, maxBytes int) (Toolset, error) {
	encode := func() (int, error) {
		var err error
		if ts.Tools, err = o.list(b.entries); err != nil {
			return 0, err
		}
		if ts.SearchTool, err = marshal(o.searchTool()); err != nil {
			return 0, err
		}
		if len(load) > 0 {
			if ts.LoadedTools, err = o.loaded(load); err != nil {
				return 0, err
			}
		}
		ts.Changes = b.reported(load)
		return ts.size(), nil
	}
	size, err := encode()
	if err != nil || maxBytes <= 0 || size <= maxBytes {
		return ts, err
	}
	// Trim the big definitions one at a time, the lowest-ranked list entry
	// first and the loaded tools last, only until the estimate fits: a
	// third of them may be enough, and the others keep their definitions.
	var order []*entry
	for i := len(b.entries) - 1; i >= 0; i-- {
		if b.entries[i].tool.Name != "" {
			order = append(order, &b.entries[i])
		}
	}
	for i := len(load) - 1; i >= 0; i-- {
		order = append(order, &load[i])
	}
	trimmed := 0
	for est := size; len(order) > 0 && size > maxBytes; {
		e := order[0]
		order = order[1:]
		raw, _ := o.item(e)
		if len(raw) <= TrimToolBytes {
			continue
		}
		e.def = trimDefinition(e.def)
		e.raw = nil
		after, _ := o.item(e)
		c := Change{Tool: e.tool.Name, Kind: ChangeTrimmedForSize,
			Detail: fmt.Sprintf("%d → %d bytes: the toolset was over its %d-byte limit; description cut to %d characters and the schema to its top-level parameters", len(raw), len(after), maxBytes, TrimDescription)}
		b.changes = append(b.changes, c)
		trimmed++
		est += len(after) - len(raw) + len(c.Tool) + len(c.Kind) + len(c.Detail) + 8
		if est <= maxBytes || len(order) == 0 {
			if size, err = encode(); err != nil {
				return ts, err
			}
			est = size
		}
	}
	if size <= maxBytes {
		return ts, nil
	}
	// Leave tools out from the end, estimating each one's share, then
	// re-encode to check.
	for size > maxBytes {
		i := len(b.entries) - 1
		for i >= 0 && b.entries[i].kind().fixed() {
			i--
		}
		if i < 0 {
			return Toolset{}, fmt.Errorf("%w: %d bytes with only the search tool and the always-loaded tools (%d trimmed), over the %d-byte limit", ErrTooLarge, size, trimmed, maxBytes)
		}
		for over := size - maxBytes; i >= 0 && over > 0; i-- {
			if b.entries[i].kind().fixed() {
				continue
			}
			raw, _ := o.item(&b.entries[i])
			over -= len(raw) + 1
			ts.Omitted = append(ts.Omitted, Omission{Tool: b.entries[i].tool.Name, Reason: fmt.Sprintf("message_size: the toolset was over its %d-byte limit after trimming", maxBytes)})
			b.entries = slices.Delete(b.entries, i, i+1)
		}
		if size, err = encode(); err != nil {
			return ts, err
		}
	}
	return ts, nil
}

// size is the bytes the toolset's payload takes: the JSON texts, the
// prompt, the names and the change report.
func (ts Toolset) size() int {
	n := len(ts.Tools) + len(ts.SearchTool) + len(ts.SystemPrompt) + len(ts.LoadedTools)
	for _, c := range ts.Changes {
		n += len(c.Tool) + len(c.Kind) + len(c.Detail) + 8
	}
	for _, o := range ts.Omitted {
		n += len(o.Tool) + len(o.Reason) + 8
	}
	for _, e := range ts.Loaded {
		n += len(e) + 2
	}
	for k, v := range ts.Names {
		n += len(k) + len(v) + 8
	}
	return n
}

// reported are the changes of the tools still in the list or loaded.
func (b *builder) reported(load []entry) []Change {
	in := make(map[string]bool, len(b.entries)+len(load))
	for _, e := range b.entries {
		in[e.tool.Name] = true
	}
	for _, e := range load {
		in[e.tool.Name] = true
	}
	var out []Change
	for _, c := range b.changes {
		if in[c.Tool] {
			out = append(out, c)
		}
	}
	return out
}

// trimDefinition keeps d's name, its description cut to TrimDescription
// characters, and a skeleton of its schema.
func trimDefinition(d Definition) Definition {
	if utf8.RuneCountInString(d.Description) > TrimDescription {
		d.Description = truncate(d.Description, TrimDescription)
	}
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type,omitempty"`
			Enum json.RawMessage `json:"enum,omitempty"`
		} `json:"properties"`
		Required []string `json:"required,omitempty"`
	}
	if json.Unmarshal(d.InputSchema, &s) != nil {
		d.InputSchema = json.RawMessage(emptyObjectSchema)
		return d
	}
	skeleton := struct {
		Type       string         `json:"type"`
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required,omitempty"`
	}{Type: "object", Properties: map[string]any{}, Required: s.Required}
	for name, p := range s.Properties {
		skeleton.Properties[name] = p
	}
	raw, err := marshal(skeleton)
	if err != nil {
		raw = json.RawMessage(emptyObjectSchema)
	}
	d.InputSchema = raw
	d.Annotations, d.OutputSchema = nil, nil
	return d
}
