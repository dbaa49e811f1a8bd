package toolset

import "github.com/toolsearch/toolsearch/catalog"

// settings are Options resolved against a catalog: defaults applied,
// SearchAuto decided, the always-loaded entries matched.
type settings struct {
	format     Format
	enc        encoder
	deferMode  DeferMode
	search     SearchMode
	reason     string // why search was picked
	hosted     HostedSearch
	threshold  int
	maxResults int
	// always are the indexes into the catalog of the always-loaded tools,
	// in their fixed order; pinned holds their names.
	always []int
	pinned map[string]bool
	// learnedOrder are the indexes into the catalog of the tools learning
	// pins (Options.LearnedPinned that apply), in their order; learned
	// holds their names.
	learnedOrder []int
	learned      map[string]bool
	// overThreshold is whether the catalog reaches the deferral threshold.
	overThreshold bool
	// example illustrates queries in the texts; searchDef is the
	// tool_search definition.
	example   example
	searchDef Definition
	// servers are the servers' descriptions.
	servers map[string]string
}

// resolve checks opts and applies their defaults; every error wraps
// ErrInvalidOption.
func resolve(tools []catalog.Tool, opts Options) (settings, error) {
	enc, err := encoderFor(opts.Format)
	if err != nil {
		return settings{}, err
	}
	s := settings{servers: opts.ServerDescriptions, format: opts.Format, enc: enc, deferMode: opts.Defer, hosted: opts.Hosted, threshold: opts.DeferralThreshold, maxResults: opts.MaxResults}
	switch s.deferMode {
	case "":
		s.deferMode = DeferOmit
	case DeferOmit, DeferReminder, DeferStub:
	default:
		return settings{}, invalid("deferral mode %q is not known; use omit, reminder or stub", s.deferMode)
	}
	search := opts.Search
	switch search {
	case "":
		search = SearchPortable
	case SearchPortable, SearchNativeClient, SearchNativeHosted, SearchAuto:
	default:
		return settings{}, invalid("search mode %q is not known; use portable, native_client, native_hosted or auto", search)
	}
	s.search, s.reason = resolveSearch(opts.Format, search, opts.Model, opts.Support)
	if s.native() && !nativeFormat(opts.Format) {
		return settings{}, invalid("search mode %s needs format anthropic or openai_responses: %s has no native tool search; use portable (or auto, which picks it)", s.search, opts.Format)
	}
	switch s.hosted {
	case "":
		s.hosted = HostedBM25
	case HostedBM25, HostedRegex:
	default:
		return settings{}, invalid("hosted search %q is not known; use bm25 or regex", s.hosted)
	}
	switch {
	case s.threshold < 0:
		return settings{}, invalid("deferral threshold is %d; use 0 for the default of %d, or a positive count", s.threshold, DefaultDeferralThreshold)
	case s.threshold == 0:
		s.threshold = DefaultDeferralThreshold
	}
	if s.maxResults <= 0 || s.maxResults > MaxSearchResults {
		s.maxResults = MaxSearchResults
	}
	if s.always, err = alwaysLoaded(tools, opts.AlwaysLoaded); err != nil {
		return settings{}, err
	}
	s.pinned = make(map[string]bool, len(s.always))
	for _, i := range s.always {
		s.pinned[tools[i].Name] = true
	}
	s.overThreshold = len(tools) >= s.threshold
	room := -1 // no tool-count limit
	if lim := limitsFor(opts.Format).tools; lim > 0 {
		room = max(lim-1-len(s.always), 0) // beside the search tool and the always-loaded tools
	}
	s.learnedOrder, s.learned = learnedPins(tools, opts.LearnedPinned, s.pinned, s.overThreshold, room)
	s.example = exampleOf(tools)
	s.searchDef = searchToolDefinition(s.maxResults, s.example)
	return s, nil
}

// native reports whether the resolved search mode is a provider's own.
func (s settings) native() bool {
	return s.search == SearchNativeClient || s.search == SearchNativeHosted
}

// searchName is the name of the search tool the model calls: Anthropic's
// hosted tool has its own.
func (s settings) searchName() string {
	if s.search == SearchNativeHosted && s.format == Anthropic {
		return "tool_search_tool_" + string(s.hosted)
	}
	return SearchToolName
}

// deferred reports whether t is deferred: from the threshold on, every
// tool but the always-loaded ones and those learning pinned; below it, only those annotated
// DeferAnnotation "always".
func (s settings) deferred(t catalog.Tool) bool {
	if s.pinned[t.Name] || s.learned[t.Name] {
		return false
	}
	return s.overThreshold || deferPolicy(t) == DeferAlways
}

// learnedPins returns the indexes into tools of the learned pins that
// apply, in names' order, and their names: only when the catalog is
// deferred at all (over), each catalog tool once, not an always-loaded
// one (pinned), not one annotated DeferAnnotation "always", and at most
// room of them (room < 0: no limit).
func learnedPins(tools []catalog.Tool, names []string, pinned map[string]bool, over bool, room int) ([]int, map[string]bool) {
	if !over || len(names) == 0 || room == 0 {
		return nil, nil
	}
	byName := make(map[string]int, len(names))
	for _, n := range names {
		byName[n] = -1
	}
	for i, t := range tools {
		if _, ok := byName[t.Name]; ok {
			byName[t.Name] = i
		}
	}
	var order []int
	set := map[string]bool{}
	for _, n := range names {
		if room >= 0 && len(order) == room {
			break
		}
		i := byName[n]
		if i < 0 || set[n] || pinned[n] || deferPolicy(tools[i]) == DeferAlways {
			continue
		}
		set[n] = true
		order = append(order, i)
	}
	return order, set
}
