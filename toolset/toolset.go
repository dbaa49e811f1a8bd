package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolsearch/toolsearch/catalog"
)

// Options say how to build a toolset. The zero value of every field but
// Format is its default. Build only reads them.
type Options struct {
	// Format is the provider format; required.
	Format Format
	// AlwaysLoaded are tools sent in full on every turn when the catalog is
	// deferred: exact names, "server:*", "category:NAME" or "prefix*"
	// patterns. Their order
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
	// ServerDescriptions are servers' own descriptions, by server name:
	// the system prompt addition gives each listed server's (its first
	// sentence, at most PromptServerDescription characters), and the
	// OpenAI Responses native namespaces carry them (a server without one
	// gets a generated description listing its tools).
	ServerDescriptions map[string]string
	// PromptAppend is an operator's text appended to the system prompt
	// addition, after a blank line (the sidecar's --system-prompt-file);
	// when nothing is deferred, SystemPrompt is this text alone.
	PromptAppend string
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
	// LearnedPinned are tools learning pinned for the list's scope (exact
	// names, most-used first; the sidecar's --learn-pin): when tools are
	// deferred they are sent in full, after the always-loaded ones, as
	// EntryLearnedPin. Names the catalog does not have, always-loaded
	// tools and tools annotated DeferAnnotation "always" (the operator's
	// word wins) are ignored; under a provider's tool-count limit only as
	// many as fit beside the search tool and the always-loaded tools are
	// pinned, the rest stay deferred. The caller bounds the list (package
	// learn pins at most learn.MaxPinnedPerScope per scope).
	LearnedPinned []string
	// Use is the learned evidence of the list's tools in its scope, by
	// name (search.ToolsetLearning.Evidence): past a provider's cap on
	// deferred tools (AnthropicMaxDeferred), the deferred tools with the
	// most are kept, then the first in catalog order. nil: catalog order.
	Use map[string]float64
	// Cache memoizes the normalization of definitions across calls; nil
	// normalizes every tool on every call. The caller that builds
	// toolsets owns it (one per service, shared by its calls).
	Cache *Cache
}

// Toolset is the tool list for a model's next call. It is a value: Build
// returns a new one on every call and keeps no reference to it.
type Toolset struct {
	// Tools is the JSON array to send as the request's "tools", in the
	// format asked for.
	Tools json.RawMessage
	// SearchTool is the search tool's definition alone, in the format (for
	// Gemini, one function declaration; in SearchNativeHosted mode, the
	// provider's hosted search tool).
	SearchTool json.RawMessage
	// SystemPrompt is the text to append to the system prompt: the
	// catalog's servers (with their descriptions) and categories with
	// tool counts, how to load tools, in DeferReminder mode the deferred
	// tool names, then Options.PromptAppend. Only PromptAppend when
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
	// Definitions are the list's tools as typed values, in list order:
	// what Tools encodes (see Definition).
	Definitions []Definition
	// LearnedPinned are the catalog names of the tools sent in full
	// because learning pinned them (EntryLearnedPin), in list order.
	LearnedPinned []string
	// DeferredLimit says how a provider's cap on deferred tools was met;
	// its zero value when the list did not reach it.
	DeferredLimit DeferredLimit
}

// DeferredLimit is how a provider's cap on the deferred tools of one
// request (AnthropicMaxDeferred) was met. A plain value, safe to copy.
type DeferredLimit struct {
	// Limit is the provider's cap; Omitted the deferred tools left out.
	Limit, Omitted int
	// Rule is how the kept ones were chosen: DeferredByUse or
	// DeferredByOrder.
	Rule string
}

// The rules of DeferredLimit.
const (
	// DeferredByUse keeps the deferred tools with the most learned
	// evidence in the list's scope (Options.Use), then the first in
	// catalog order.
	DeferredByUse = "learned_use_then_catalog_order"
	// DeferredByOrder keeps the first deferred tools in catalog order
	// (nothing learned: Options.Use is empty).
	DeferredByOrder = "catalog_order"
)

// ErrTooLarge marks a toolset that does not fit Options.MaxBytes even with
// every trimmable tool trimmed and left out.
var ErrTooLarge = errors.New("toolset too large")

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
//
// Build runs in three steps: resolve the options (defaults, SearchAuto,
// the always-loaded patterns), assemble the entries (portable or native),
// then fit them to the provider's limits and Options.MaxBytes.
func Build(tools, revealed []catalog.Tool, opts Options) (Toolset, error) {
	s, err := resolve(tools, opts)
	if err != nil {
		return Toolset{}, err
	}
	b := newBuilder(s.enc, s.format, opts.Cache)
	ts, err := b.assemble(tools, revealed, s)
	if err != nil {
		return Toolset{}, err
	}
	ts.SystemPrompt = appendPrompt(ts.SystemPrompt, opts.PromptAppend)
	ts.Omitted, ts.DeferredLimit = b.applyCountLimits(s.format, opts.Use)
	load, err := b.loadEntries(tools, opts.Load)
	if err != nil {
		return Toolset{}, err
	}
	out := output{format: s.format, search: ts.Search, hosted: s.hosted, enc: s.enc, servers: opts.ServerDescriptions,
		catalog: tools, searchDef: s.searchDef}
	if ts, err = b.fit(ts, out, load, opts.MaxBytes); err != nil {
		return Toolset{}, err
	}
	b.tally(&ts, len(tools), s.native())
	return ts, nil
}

// assemble lays out the list's entries and writes the system prompt.
// Below the deferral threshold (and with no tool annotated to be deferred
// always), every tool is sent in full and there is no search tool.
// Otherwise the search tool and the pinned tools come first, then the
// tools learning pinned, then the native or the portable rest.
func (b *builder) assemble(tools, revealed []catalog.Tool, s settings) (Toolset, error) {
	var deferrable []catalog.Tool
	for _, t := range tools {
		if s.deferred(t) {
			deferrable = append(deferrable, t)
		}
	}
	if len(deferrable) == 0 {
		ts := Toolset{Search: SearchPortable, SearchReason: "nothing is deferred (the catalog is below the deferral threshold)"}
		for _, t := range tools {
			kind := EntryLoaded
			if s.pinned[t.Name] {
				kind = EntryPinned
			}
			if err := b.add(t, kind); err != nil {
				return Toolset{}, err
			}
		}
		return ts, nil
	}
	ts := Toolset{Deferring: true, Search: s.search, SearchReason: s.reason}
	b.addSearch(s.searchDef)
	full := make(map[string]bool, len(s.always)+len(revealed))
	for _, i := range s.always {
		full[tools[i].Name] = true
		if err := b.add(tools[i], EntryPinned); err != nil {
			return Toolset{}, err
		}
	}
	for _, t := range tools { // below the threshold: the tools not deferred
		if !full[t.Name] && !s.learned[t.Name] && !s.deferred(t) {
			full[t.Name] = true
			if err := b.add(t, EntryPinned); err != nil {
				return Toolset{}, err
			}
		}
	}
	for _, i := range s.learnedOrder {
		full[tools[i].Name] = true
		if err := b.add(tools[i], EntryLearnedPin); err != nil {
			return Toolset{}, err
		}
	}
	var err error
	promptMode := s.deferMode
	if s.native() {
		err = b.assembleNative(deferrable)
		promptMode = DeferOmit
	} else {
		err = b.assemblePortable(tools, revealed, full, s.deferMode)
	}
	if err != nil {
		return Toolset{}, err
	}
	ts.SystemPrompt = systemPrompt(tools, deferrable, promptMode, s.searchName(), s.example, s.servers)
	return ts, nil
}

// assembleNative appends every deferred tool, in catalog order, with
// defer_loading: the provider keeps them out of the model's context until
// a search names them.
func (b *builder) assembleNative(deferrable []catalog.Tool) error {
	for _, t := range deferrable {
		if err := b.add(t, EntryDeferred); err != nil {
			return err
		}
	}
	return nil
}

// assemblePortable appends the revealed tools not already listed (full),
// in reveal order, then in DeferStub mode the stubs of the other tools in
// catalog order.
func (b *builder) assemblePortable(tools, revealed []catalog.Tool, full map[string]bool, mode DeferMode) error {
	for _, t := range revealed {
		if full[t.Name] {
			continue
		}
		full[t.Name] = true
		if err := b.add(t, EntryLoaded); err != nil {
			return err
		}
	}
	if mode != DeferStub {
		return nil
	}
	for _, t := range tools {
		if !full[t.Name] {
			if err := b.add(t, EntryStub); err != nil {
				return err
			}
		}
	}
	return nil
}

// tally fills what the toolset reports about the fitted list: the loaded
// names, the deferred count, the provider names and the typed definitions.
func (b *builder) tally(ts *Toolset, catalogSize int, native bool) {
	ts.Definitions = make([]Definition, len(b.entries))
	for i := range b.entries {
		e := &b.entries[i]
		ts.Definitions[i] = e.def
		switch k := e.kind(); {
		case k == EntryDeferred:
			ts.Deferred++
		case k.full():
			ts.Loaded = append(ts.Loaded, e.tool.Name)
			if k == EntryLearnedPin {
				ts.LearnedPinned = append(ts.LearnedPinned, e.tool.Name)
			}
		}
	}
	if !native {
		ts.Deferred = catalogSize - len(ts.Loaded)
	}
	if len(b.names) > 0 {
		ts.Names = b.names
	}
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
