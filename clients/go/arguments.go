package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// SearchArguments are a tool_search call's arguments, as
// [ParseSearchArguments] reads them.
type SearchArguments struct {
	// Query is the query ("" is a browse of the catalog).
	Query string
	// SearchType is the requested mode; UNSPECIFIED when the model sent
	// none.
	SearchType toolsearchv1.SearchType
	// MaxResults is the number of results asked for; 0 when the model
	// sent none or a number below 1 (the sidecar's default applies).
	MaxResults int
	// CategoryFilter is the server or category to keep; "" for none.
	CategoryFilter string
	// PageToken continues a listing (an empty query): the
	// next_page_token of the previous result; "" for the first page.
	PageToken string
}

// searchTypes maps tool_search's search_type values to the API's.
var searchTypes = map[string]toolsearchv1.SearchType{
	"":         toolsearchv1.SearchType_SEARCH_TYPE_UNSPECIFIED,
	"semantic": toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC,
	"keyword":  toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD,
	"regex":    toolsearchv1.SearchType_SEARCH_TYPE_REGEX,
}

// ParseSearchArguments reads a tool_search call's arguments (a JSON
// object: "query", "search_type", "max_results", "category_filter",
// "page_token"). It
// is the one reader of them: the [Agent] (portable and native modes) and
// the sidecar's MCP endpoint use it, so a model gets the same answer
// whichever way it reaches the sidecar.
//
// It is lenient in one way, the way models slip:
//
//   - numbers: max_results may be a JSON number, whole or not (3, 3.0,
//     3.7 are 3: truncated), or a string holding one ("3", " 3 ");
//     below 1 means the default;
//   - enums: search_type is matched ignoring case and surrounding spaces
//     ("REGEX", " Keyword ");
//   - null for an optional field is the same as leaving it out, and
//     unknown fields are ignored. Empty input is the empty object.
//
// Anything else is an error whose message says what to send, for the
// model to read and retry: arguments that are not a JSON object, a
// missing or non-string query, an unknown search_type, a max_results that
// is not a number, a non-string category_filter or page_token.
func ParseSearchArguments(argumentsJSON []byte) (SearchArguments, error) {
	if len(bytes.TrimSpace(argumentsJSON)) == 0 {
		argumentsJSON = []byte("{}")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(argumentsJSON, &raw); err != nil || raw == nil {
		return SearchArguments{}, errors.New(`the arguments are not a JSON object; call tool_search with {"query": "what the tool should do"}`)
	}
	var args SearchArguments
	q, ok := raw["query"]
	if !ok || json.Unmarshal(q, &args.Query) != nil {
		return SearchArguments{}, errors.New(`"query" is missing or not a string; call tool_search with {"query": "what the tool should do"}`)
	}
	var st string
	if v, ok := raw["search_type"]; ok && !isNull(v) {
		if json.Unmarshal(v, &st) != nil {
			return SearchArguments{}, errors.New(`"search_type" must be a string: "semantic", "keyword" or "regex"`)
		}
	}
	if args.SearchType, ok = searchTypes[strings.ToLower(strings.TrimSpace(st))]; !ok {
		return SearchArguments{}, fmt.Errorf(`"search_type" %q is not known; use "semantic", "keyword" or "regex"`, st)
	}
	if v, ok := raw["max_results"]; ok && !isNull(v) {
		n, err := parseCount(v)
		if err != nil {
			return SearchArguments{}, errors.New(`"max_results" must be a number from 1 to 10`)
		}
		args.MaxResults = max(n, 0) // below 1: the default
	}
	if v, ok := raw["category_filter"]; ok && !isNull(v) {
		if json.Unmarshal(v, &args.CategoryFilter) != nil {
			return SearchArguments{}, errors.New(`"category_filter" must be a string, such as a server name`)
		}
	}
	if v, ok := raw["page_token"]; ok && !isNull(v) {
		if json.Unmarshal(v, &args.PageToken) != nil {
			return SearchArguments{}, errors.New(`"page_token" must be a string: the next_page_token of the previous result`)
		}
	}
	return args, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// parseCount reads a JSON number or a numeric string, truncated to an int.
func parseCount(v json.RawMessage) (int, error) {
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return 0, err
		}
		if f, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return 0, err
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errors.New("not a finite number")
	}
	return int(math.Max(math.Min(f, math.MaxInt32), math.MinInt32)), nil
}
