package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/catalog"
)

// Options say how to build a toolset. The zero value of every field but
// Format is its default.
type Options struct {
	// Format is the provider format; required.
	Format Format
	// AlwaysLoaded are tools sent in full on every turn when the catalog is
	// deferred: exact names, "server:*" or "prefix*" patterns. Their order
	// is the list's order (a pattern's tools in catalog order). Tools with
	// the NeverDeferAnnotation, or DeferAnnotation "never", follow them.
	AlwaysLoaded []string
	// DeferralThreshold is the number of catalog tools from which tools are
	// deferred: with fewer, every tool is sent in full (in catalog order)
	// and tool_search is left out, except tools annotated DeferAnnotation
	// "always". 0 means DefaultDeferralThreshold (15); 1 always defers.
	DeferralThreshold int
	// Defer is how deferred tools appear in SearchPortable mode; "" means
	// DeferOmit. The native modes list every tool, deferred ones marked
	// defer_loading, and ignore it.
	Defer DeferMode
	// MaxResults is the largest max_results the tool_search definition
	// offers; 0 or more than MaxSearchResults means MaxSearchResults. Set
	// it to the sidecar's cap when that is lower.
	MaxResults int
	// Search is how the model finds deferred tools; "" means
	// SearchPortable. The native modes need Format Anthropic or
	// OpenAIResponses.
	Search SearchMode
	// Hosted is Anthropic's hosted search variant in SearchNativeHosted
	// mode; "" means HostedBM25.
	Hosted HostedSearch
	// Model is the model the list is for, used by SearchAuto, e.g.
	// "claude-sonnet-4-5" or "gpt-5.4".
	Model string
	// Support are rules SearchAuto checks before DefaultSupport.
	Support []SupportRule
	// ServerDescriptions are servers' own descriptions, by server name, for
	// the OpenAI Responses native namespaces; a server without one gets a
	// generated description listing its tools.
	ServerDescriptions map[string]string
	// Load names catalog tools whose full definitions go in
	// Toolset.LoadedTools (the tools a search found, for a
	// tool_search_output item). Names the catalog does not have are
	// ignored.
	Load []string
	// MaxBytes is the most bytes Tools, SearchTool, SystemPrompt,
	// LoadedTools and the change report may take together; 0 means no
	// limit. Over it, large definitions are trimmed, then tools are left
	// out from the end of the list (see builder.fit); ErrTooLarge when even
	// tool_search and the always-loaded tools do not fit.
	MaxBytes int
}

// Toolset is the tool list for a model's next call.
type Toolset struct {
	// Tools is the JSON array to send as the request's "tools", in the
	// format asked for.
	Tools json.RawMessage
	// SearchTool is the search tool's definition alone, in the format (for
	// Gemini, one function declaration; in SearchNativeHosted mode, the
	// provider's hosted search tool).
	SearchTool json.RawMessage
	// SystemPrompt is the text to append to the system prompt: the
	// catalog's servers and categories with tool counts, how to load
	// tools, and in DeferReminder mode the deferred tool names. "" when
	// nothing is deferred.
	SystemPrompt string
	// Loaded are the catalog names of the tools sent in full (without
	// defer_loading), in list order (the search tool not included).
	Loaded []string
	// Deferred is the number of catalog tools not sent in full (in the
	// native modes: sent with defer_loading).
	Deferred int
	// Deferring reports whether any tool is deferred; when false, Tools
	// holds every tool and no search tool.
	Deferring bool
	// Names maps the names the provider sees to catalog names, for the
	// tools whose catalog name the provider does not accept (or that are
	// named like tool_search); the agent maps the model's calls back with
	// it. Empty when every name is sent as is.
	Names map[string]string
	// Search is the search mode used (SearchAuto resolved), and
	// SearchReason why.
	Search       SearchMode
	SearchReason string
	// LoadedTools are the full definitions of Options.Load's tools, in the
	// shape that loads them: for OpenAI Responses, the "tools" of a
	// tool_search_output item (namespaces by server, as in the list);
	// otherwise an array of the format's tools. nil when Load is empty.
	LoadedTools json.RawMessage
	// Changes are the rewrites made to the definitions sent (Tools and
	// LoadedTools) for the provider, by tool in list order.
	Changes []Change
	// Omitted are the tools left out of the list by a provider's tool-count
	// limit or by MaxBytes, and why.
	Omitted []Omission
}

// ErrTooLarge marks a toolset that does not fit Options.MaxBytes even with
// every trimmable tool trimmed and left out.
var ErrTooLarge = errors.New("toolset too large")

// entry is one tool of the list being built.
type entry struct {
	tool     catalog.Tool // zero for the search tool
	def      definition
	stub     bool
	deferred bool            // native: sent with defer_loading
	fixed    bool            // the search tool and always-loaded tools: never left out
	search   bool            // the search tool
	raw      json.RawMessage // the encoded value, once output.item made it
}

// Build returns the toolset for a catalog (its tools, in catalog order)
// and a session's revealed tools (in reveal order). In SearchPortable mode
// the order of the list is: tool_search, the always-loaded tools, the
// revealed tools not already listed, then (DeferStub) the stubs of the
// other tools in catalog order. In the native modes it is: the search
// tool, the always-loaded tools, then every other tool in catalog order
// with defer_loading (OpenAI Responses: grouped into one namespace per
// server, at the server's first tool), whatever the session revealed, so
// the list is the same on every turn. Errors about options wrap
// ErrInvalidOption; a list over MaxBytes that cannot be trimmed wraps
// ErrTooLarge.
func Build(tools, revealed []catalog.Tool, opts Options) (Toolset, error) {
	enc, err := encoderFor(opts.Format)
	if err != nil {
		return Toolset{}, err
	}
	mode := opts.Defer
	switch mode {
	case "":
		mode = DeferOmit
	case DeferOmit, DeferReminder, DeferStub:
	default:
		return Toolset{}, invalid("deferral mode %q is not known; use omit, reminder or stub", mode)
	}
	search := opts.Search
	switch search {
	case "":
		search = SearchPortable
	case SearchPortable, SearchNativeClient, SearchNativeHosted, SearchAuto:
	default:
		return Toolset{}, invalid("search mode %q is not known; use portable, native_client, native_hosted or auto", search)
	}
	search, reason := resolveSearch(opts.Format, search, opts.Model, opts.Support)
	native := search == SearchNativeClient || search == SearchNativeHosted
	if native && !nativeFormat(opts.Format) {
		return Toolset{}, invalid("search mode %s needs format anthropic or openai_responses: %s has no native tool search; use portable (or auto, which picks it)", search, opts.Format)
	}
	hosted := opts.Hosted
	switch hosted {
	case "":
		hosted = HostedBM25
	case HostedBM25, HostedRegex:
	default:
		return Toolset{}, invalid("hosted search %q is not known; use bm25 or regex", hosted)
	}
	threshold := opts.DeferralThreshold
	switch {
	case threshold < 0:
		return Toolset{}, invalid("deferral threshold is %d; use 0 for the default of %d, or a positive count", threshold, DefaultDeferralThreshold)
	case threshold == 0:
		threshold = DefaultDeferralThreshold
	}
	maxResults := opts.MaxResults
	if maxResults <= 0 || maxResults > MaxSearchResults {
		maxResults = MaxSearchResults
	}
	always, err := alwaysLoaded(tools, opts.AlwaysLoaded)
	if err != nil {
		return Toolset{}, err
	}
	b := &builder{enc: enc, rule: enc.names(), lim: limitsFor(opts.Format), names: map[string]string{}, used: map[string]string{}, changed: map[string]bool{}}

	// Which tools are deferred: from the threshold on, all but the
	// always-loaded ones; below it, only those annotated "always".
	isAlways := make(map[string]bool, len(always))
	for _, i := range always {
		isAlways[tools[i].Name] = true
	}
	overThreshold := len(tools) >= threshold
	deferred := func(t catalog.Tool) bool {
		if isAlways[t.Name] {
			return false
		}
		return overThreshold || deferPolicy(t) == DeferAlways
	}
	var deferrable []catalog.Tool
	for _, t := range tools {
		if deferred(t) {
			deferrable = append(deferrable, t)
		}
	}
	ts := Toolset{Deferring: len(deferrable) > 0, Search: search, SearchReason: reason}
	if !ts.Deferring {
		ts.Search, ts.SearchReason = SearchPortable, "nothing is deferred (the catalog is below the deferral threshold)"
		for _, t := range tools {
			if err := b.add(t, false, false, isAlways[t.Name]); err != nil {
				return Toolset{}, err
			}
		}
	} else {
		searchName := SearchToolName
		if search == SearchNativeHosted && opts.Format == Anthropic {
			searchName = "tool_search_tool_" + string(hosted)
		}
		b.entries = append(b.entries, entry{def: searchToolDefinition(maxResults), fixed: true, search: true})
		b.used[SearchToolName] = SearchToolName
		full := make(map[string]bool, len(always)+len(revealed))
		for _, i := range always {
			full[tools[i].Name] = true
			if err := b.add(tools[i], false, false, true); err != nil {
				return Toolset{}, err
			}
		}
		for _, t := range tools { // below the threshold: the tools not deferred
			if !full[t.Name] && !deferred(t) {
				full[t.Name] = true
				if err := b.add(t, false, false, true); err != nil {
					return Toolset{}, err
				}
			}
		}
		if native {
			for _, t := range deferrable {
				if err := b.add(t, false, true, false); err != nil {
					return Toolset{}, err
				}
			}
		} else {
			for _, t := range revealed {
				if full[t.Name] {
					continue
				}
				full[t.Name] = true
				if err := b.add(t, false, false, false); err != nil {
					return Toolset{}, err
				}
			}
			for _, t := range tools {
				if !full[t.Name] {
					if mode == DeferStub {
						if err := b.add(t, true, false, false); err != nil {
							return Toolset{}, err
						}
					}
				}
			}
		}
		promptMode := mode
		if native {
			promptMode = DeferOmit
		}
		ts.SystemPrompt = systemPrompt(tools, deferrable, promptMode, searchName)
	}
	ts.Omitted = b.applyCountLimits(opts.Format)

	// The tools to load (for the agent's search result).
	var load []entry
	if len(opts.Load) > 0 {
		byName := make(map[string]catalog.Tool, len(tools))
		for _, t := range tools {
			byName[t.Name] = t
		}
		seen := map[string]bool{}
		for _, n := range opts.Load {
			t, ok := byName[n]
			if !ok || seen[n] {
				continue
			}
			seen[n] = true
			def, err := b.definition(t, false)
			if err != nil {
				return Toolset{}, err
			}
			load = append(load, entry{tool: t, def: def})
		}
	}

	out := output{format: opts.Format, search: ts.Search, hosted: hosted, enc: enc, servers: opts.ServerDescriptions, catalog: tools, searchDef: searchToolDefinition(maxResults)}
	if ts, err = b.fit(ts, out, load, opts.MaxBytes); err != nil {
		return Toolset{}, err
	}
	for _, e := range b.entries {
		switch {
		case e.search:
		case e.deferred:
			ts.Deferred++
		case !e.stub:
			ts.Loaded = append(ts.Loaded, e.tool.Name)
		}
	}
	if !native {
		ts.Deferred = len(tools) - len(ts.Loaded)
	}
	if len(b.names) > 0 {
		ts.Names = b.names
	}
	return ts, nil
}

// builder accumulates the list's entries.
type builder struct {
	enc     encoder
	rule    nameRule
	lim     limits
	entries []entry
	// names maps rewritten provider names to catalog names; used maps every
	// provider name in the list to its catalog name, to catch collisions.
	names, used map[string]string
	// changes are the rewrites made, each tool's once (changed).
	changes []Change
	changed map[string]bool
}

// definition returns t's normalized definition (a stub when stub), under
// its provider name, recording the rewrites.
func (b *builder) definition(t catalog.Tool, stub bool) (definition, error) {
	name := b.rule.providerName(t.Name)
	if other, ok := b.used[name]; ok && other != t.Name {
		return definition{}, fmt.Errorf("toolset: tools %q and %q both map to the provider name %q; rename one", other, t.Name, name)
	}
	b.used[name] = t.Name
	var changes []Change
	if name != t.Name {
		b.names[name] = t.Name
		changes = append(changes, Change{Tool: t.Name, Kind: ChangeNameRewritten, Detail: fmt.Sprintf("sent as %q (the provider rejects the catalog name)", name)})
	}
	var d definition
	if stub {
		d = stubDefinition(t, name)
		d.Description, _ = normalizeDescription(t, d.Description, b.lim.description)
	} else {
		n := normalized(t, b.lim.description)
		d = definition{Name: name, Description: n.description, Schema: n.schema, Annotations: t.Annotations,
			Title: t.Title, OutputSchema: t.OutputSchema}
		changes = append(changes, n.changes...)
	}
	if !b.changed[t.Name] && len(changes) > 0 {
		b.changed[t.Name] = true
		b.changes = append(b.changes, changes...)
	}
	return d, nil
}

// add appends a catalog tool: in full, as a stub, or deferred (native).
func (b *builder) add(t catalog.Tool, stub, deferred, fixed bool) error {
	d, err := b.definition(t, stub)
	if err != nil {
		return err
	}
	d.Defer = deferred
	b.entries = append(b.entries, entry{tool: t, def: d, stub: stub, deferred: deferred, fixed: fixed})
	return nil
}

// applyCountLimits leaves out tools past the format's tool-count limits,
// from the end of the list (the stubs, then the latest revealed tools; in
// the native modes, the last deferred tools), and reports them.
func (b *builder) applyCountLimits(f Format) []Omission {
	var omitted []Omission
	if b.lim.tools > 0 {
		n := 0
		for _, e := range b.entries {
			if !e.deferred {
				n++
			}
		}
		for i := len(b.entries) - 1; i >= 0 && n > b.lim.tools; i-- {
			if e := b.entries[i]; !e.deferred && !e.fixed {
				omitted = append(omitted, Omission{Tool: e.tool.Name, Reason: fmt.Sprintf("tool_count_limit: %s accepts at most %d tools in full per request", f, b.lim.tools)})
				b.entries = slices.Delete(b.entries, i, i+1)
				n--
			}
		}
	}
	if b.lim.deferred > 0 {
		n := 0
		for _, e := range b.entries {
			if e.deferred {
				n++
			}
		}
		for i := len(b.entries) - 1; i >= 0 && n > b.lim.deferred; i-- {
			if e := b.entries[i]; e.deferred {
				omitted = append(omitted, Omission{Tool: e.tool.Name, Reason: fmt.Sprintf("deferred_count_limit: %s's tool search accepts at most %d tools per request", f, b.lim.deferred)})
				b.entries = slices.Delete(b.entries, i, i+1)
				n--
			}
		}
	}
	slices.Reverse(omitted)
	return omitted
}

// marshal encodes v compactly, without escaping HTML characters (<, >, &
// cost tokens as \u003c and mean nothing to a model).
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("toolset: encode: %w", err)
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}
