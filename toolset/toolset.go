package toolset

import (
	"bytes"
	"encoding/json"
	"fmt"

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
	// the NeverDeferAnnotation follow them.
	AlwaysLoaded []string
	// DeferralThreshold is the number of catalog tools from which tools are
	// deferred: with fewer, every tool is sent in full (in catalog order)
	// and tool_search is left out. 0 means DefaultDeferralThreshold (15);
	// 1 always defers.
	DeferralThreshold int
	// Defer is how deferred tools appear; "" means DeferOmit.
	Defer DeferMode
	// MaxResults is the largest max_results the tool_search definition
	// offers; 0 or more than MaxSearchResults means MaxSearchResults. Set
	// it to the sidecar's cap when that is lower.
	MaxResults int
}

// Toolset is the tool list for a model's next call.
type Toolset struct {
	// Tools is the JSON array to send as the request's "tools", in the
	// format asked for.
	Tools json.RawMessage
	// SearchTool is the tool_search definition alone, in the format (for
	// Gemini, one function declaration).
	SearchTool json.RawMessage
	// SystemPrompt is the text to append to the system prompt: the
	// catalog's servers and categories with tool counts, how to load
	// tools, and in DeferReminder mode the deferred tool names. "" when
	// nothing is deferred.
	SystemPrompt string
	// Loaded are the catalog names of the tools sent in full, in list order
	// (tool_search not included).
	Loaded []string
	// Deferred is the number of catalog tools not sent in full.
	Deferred int
	// Deferring reports whether the catalog is deferred (it has at least
	// the threshold's number of tools); when false, Tools holds every tool.
	Deferring bool
	// Names maps the names the provider sees to catalog names, for the
	// tools whose catalog name the provider does not accept (or that are
	// named like tool_search); the agent maps the model's calls back with
	// it. Empty when every name is sent as is.
	Names map[string]string
}

// Build returns the toolset for a catalog (its tools, in catalog order)
// and a session's revealed tools (in reveal order). The order of the list
// is: tool_search, the always-loaded tools, the revealed tools not already
// listed, then (DeferStub) the stubs of the other tools in catalog order.
// Errors about options wrap ErrInvalidOption.
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
	b := builder{enc: enc, rule: enc.names(), names: map[string]string{}, used: map[string]string{}}
	search := searchToolDefinition(maxResults)
	ts := Toolset{Deferring: len(tools) >= threshold}
	if !ts.Deferring {
		for _, t := range tools {
			if err := b.add(t, false); err != nil {
				return Toolset{}, err
			}
		}
	} else {
		b.addSearch(search)
		full := make(map[string]bool, len(always)+len(revealed))
		for _, i := range always {
			full[tools[i].Name] = true
			if err := b.add(tools[i], false); err != nil {
				return Toolset{}, err
			}
		}
		for _, t := range revealed {
			if full[t.Name] {
				continue
			}
			full[t.Name] = true
			if err := b.add(t, false); err != nil {
				return Toolset{}, err
			}
		}
		var deferrable []catalog.Tool // the catalog minus always-loaded, for the prompt
		for _, t := range tools {
			if !full[t.Name] {
				ts.Deferred++
				if mode == DeferStub {
					if err := b.add(t, true); err != nil {
						return Toolset{}, err
					}
				}
			}
		}
		alwaysSet := make(map[int]bool, len(always))
		for _, i := range always {
			alwaysSet[i] = true
		}
		for i, t := range tools {
			if !alwaysSet[i] {
				deferrable = append(deferrable, t)
			}
		}
		ts.SystemPrompt = systemPrompt(tools, deferrable, mode)
	}
	if ts.Tools, err = marshal(enc.list(b.values)); err != nil {
		return Toolset{}, err
	}
	if ts.SearchTool, err = marshal(enc.tool(search)); err != nil {
		return Toolset{}, err
	}
	ts.Loaded = b.loaded
	if len(b.names) > 0 {
		ts.Names = b.names
	}
	return ts, nil
}

// builder accumulates the list's tool values.
type builder struct {
	enc    encoder
	rule   nameRule
	values []any
	loaded []string
	// names maps rewritten provider names to catalog names; used maps every
	// provider name in the list to its catalog name, to catch collisions.
	names, used map[string]string
}

func (b *builder) addSearch(d definition) {
	b.used[d.Name] = d.Name
	b.values = append(b.values, b.enc.tool(d))
}

// add appends a catalog tool, in full or as a stub.
func (b *builder) add(t catalog.Tool, stub bool) error {
	name := b.rule.providerName(t.Name)
	if other, ok := b.used[name]; ok {
		return fmt.Errorf("toolset: tools %q and %q both map to the provider name %q; rename one", other, t.Name, name)
	}
	b.used[name] = t.Name
	if name != t.Name {
		b.names[name] = t.Name
	}
	if stub {
		b.values = append(b.values, b.enc.tool(stubDefinition(t, name)))
		return nil
	}
	b.loaded = append(b.loaded, t.Name)
	b.values = append(b.values, b.enc.tool(fullDefinition(t, name)))
	return nil
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
