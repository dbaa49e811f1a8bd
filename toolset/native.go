package toolset

import (
	"strconv"
	"strings"
)

// SearchMode is how the model finds deferred tools.
type SearchMode string

// Search modes.
const (
	// SearchPortable reveals by appending: the list holds tool_search, the
	// always-loaded tools and the tools the session's searches revealed;
	// it grows by the revealed tools each turn. Works with every format
	// and model. The default.
	SearchPortable SearchMode = "portable"
	// SearchNativeClient is the provider's own tool-search protocol with
	// the sidecar as the search: every tool is in the list, the deferred
	// ones marked defer_loading, so the list is the same on every turn.
	// Anthropic: tool_search is a client tool whose result the agent
	// returns as tool_reference blocks. OpenAI Responses: a tool_search
	// tool with execution "client", deferred tools grouped into namespaces
	// by server; the agent answers a tool_search_call with a
	// tool_search_output item.
	SearchNativeClient SearchMode = "native_client"
	// SearchNativeHosted is the provider's own protocol with the
	// provider's search: Anthropic's tool_search_tool_bm25 (or _regex, see
	// Options.Hosted); OpenAI's tool_search with execution "server". The
	// sidecar builds the list and is not called for searches.
	SearchNativeHosted SearchMode = "native_hosted"
	// SearchAuto picks SearchNativeClient when the format and the model
	// (Options.Model) support native tool search (Options.Support, then
	// DefaultSupport), SearchNativeHosted when only that is supported, and
	// SearchPortable otherwise (Chat Completions, Gemini, MCP, unknown or
	// older models). Toolset.Search says what was picked, and why.
	SearchAuto SearchMode = "auto"
)

// SearchModes lists every mode.
var SearchModes = []SearchMode{SearchPortable, SearchNativeClient, SearchNativeHosted, SearchAuto}

// HostedSearch is Anthropic's hosted search variant.
type HostedSearch string

// Anthropic hosted search variants.
const (
	// HostedBM25 is tool_search_tool_bm25_20251119: the model writes
	// natural-language queries. The default.
	HostedBM25 HostedSearch = "bm25"
	// HostedRegex is tool_search_tool_regex_20251119: the model writes
	// regular expressions over names and descriptions.
	HostedRegex HostedSearch = "regex"
)

// SupportRule says which native modes a model family supports in one
// format. A model matches when its name starts with Prefix and the version
// after the prefix (the first "major[.-]minor" number, skipping one word
// such as "opus-") is at least MinVersion; a rule with MinVersion 0
// matches on the prefix alone.
type SupportRule struct {
	// Format is the format the rule applies to.
	Format Format
	// Prefix is the model name prefix, e.g. "claude-" or "gpt-".
	Prefix string
	// MinVersion is the lowest version that supports native search, as
	// major*100+minor (4.5 is 405); 0 matches every version.
	MinVersion int
	// Client and Hosted say which native modes the family supports; a rule
	// with neither sends the family portable (to turn a default off).
	Client, Hosted bool
}

// DefaultSupport is the table SearchAuto uses after Options.Support, from
// the providers' documentation (November 2026):
//
//   - Anthropic Messages: tool search (hosted bm25/regex, and client-side
//     search returning tool_reference blocks) on Claude Opus 4.5, Sonnet 4.5,
//     Haiku 4.5 and later models ("claude-opus-4-5-20251101" is 4.5,
//     "claude-sonnet-4-20250514" is 4: not supported).
//   - OpenAI Responses: tool_search (execution "server" or "client") on
//     gpt-5.4 and later models ("gpt-5.4-mini", "gpt-5.5", "gpt-6-…").
//
// Chat Completions, Gemini and MCP have no native tool search. Deployments
// under other names (Azure, proxies) add rules with Options.Support, which
// are checked first.
var DefaultSupport = []SupportRule{
	{Format: Anthropic, Prefix: "claude-", MinVersion: 405, Client: true, Hosted: true},
	{Format: OpenAIResponses, Prefix: "gpt-", MinVersion: 504, Client: true, Hosted: true},
}

// nativeFormat reports whether f has a native tool-search protocol.
func nativeFormat(f Format) bool { return f == Anthropic || f == OpenAIResponses }

// resolveSearch turns SearchAuto into a concrete mode, with the reason.
func resolveSearch(f Format, mode SearchMode, model string, overrides []SupportRule) (SearchMode, string) {
	if mode != SearchAuto {
		return mode, "requested"
	}
	if !nativeFormat(f) {
		return SearchPortable, "auto: " + string(f) + " has no native tool search"
	}
	if strings.TrimSpace(model) == "" {
		return SearchPortable, "auto: no model given"
	}
	for _, table := range [][]SupportRule{overrides, DefaultSupport} {
		for _, r := range table {
			if r.Format != f || !r.matches(model) {
				continue
			}
			switch {
			case r.Client:
				return SearchNativeClient, "auto: " + model + " supports native client tool search (rule " + r.String() + ")"
			case r.Hosted:
				return SearchNativeHosted, "auto: " + model + " supports hosted tool search only (rule " + r.String() + ")"
			}
			return SearchPortable, "auto: rule " + r.String() + " sends " + model + " portable"
		}
	}
	return SearchPortable, "auto: " + model + " is not in the support table"
}

// String is "anthropic claude->=4.5".
func (r SupportRule) String() string {
	s := string(r.Format) + " " + r.Prefix
	if r.MinVersion > 0 {
		s += ">=" + strconv.Itoa(r.MinVersion/100) + "." + strconv.Itoa(r.MinVersion%100)
	}
	return s
}

func (r SupportRule) matches(model string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(model)), strings.ToLower(r.Prefix))
	if !ok {
		return false
	}
	if r.MinVersion == 0 {
		return true
	}
	v, ok := modelVersion(rest)
	return ok && v >= r.MinVersion
}

// modelVersion reads "major[.-]minor" as major*100+minor from the start of
// s, after at most one word ("opus-4-5-20251101" → 405, "5.4-mini" → 504,
// "6-astra" → 600, "4-20250514" → 400: a date is not a minor version).
func modelVersion(s string) (int, bool) {
	if s != "" && (s[0] < '0' || s[0] > '9') {
		i := strings.IndexByte(s, '-')
		if i < 0 {
			return 0, false
		}
		s = s[i+1:]
	}
	major, n := leadingInt(s)
	if n == 0 {
		return 0, false
	}
	s = s[n:]
	minor := 0
	if len(s) > 1 && (s[0] == '.' || s[0] == '-') {
		if m, k := leadingInt(s[1:]); k > 0 && k <= 2 {
			minor = m
		}
	}
	return major*100 + minor, true
}

func leadingInt(s string) (int, int) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' && n < 9 {
		n++
	}
	v, _ := strconv.Atoi(s[:n])
	return v, n
}
