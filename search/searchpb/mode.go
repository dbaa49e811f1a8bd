package searchpb

import (
	"maps"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
)

// modes maps the API's search types to engine modes.
var modes = map[toolsearchv1.SearchType]search.Mode{
	toolsearchv1.SearchType_SEARCH_TYPE_UNSPECIFIED: search.ModeDefault,
	toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC:    search.ModeSemantic,
	toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD:     search.ModeKeyword,
	toolsearchv1.SearchType_SEARCH_TYPE_REGEX:       search.ModeRegex,
}

// Mode converts an API search type into the engine's mode; false for a
// value the API does not define.
func Mode(t toolsearchv1.SearchType) (search.Mode, bool) {
	m, ok := modes[t]
	return m, ok
}

// Modes returns a copy of the table Mode reads, for tests that check
// every value is mapped.
func Modes() map[toolsearchv1.SearchType]search.Mode { return maps.Clone(modes) }
