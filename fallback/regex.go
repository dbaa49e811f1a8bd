package fallback

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/toolsearch/toolsearch/query"
)

// MaxPatternLength is the longest regex pattern accepted, in bytes. RE2 runs
// in linear time, but compiling a long pattern still costs memory and time
// on every request.
const MaxPatternLength = 200

var (
	// ErrPatternTooLong is returned by Regex for a pattern longer than
	// MaxPatternLength.
	ErrPatternTooLong = errors.New("pattern too long")
	// ErrInvalidPattern is wrapped by every *PatternError.
	ErrInvalidPattern = errors.New("invalid pattern")
)

// PatternError is a regex pattern that does not parse. It wraps
// ErrInvalidPattern, and its message includes the parser's explanation.
type PatternError struct {
	Pattern string
	Err     error // the regexp/syntax error
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("invalid pattern %q: %v (Go RE2 syntax; e.g. \"get_.*\" or \"(?i)slack\")", e.Pattern, e.Err)
}

// Unwrap returns ErrInvalidPattern and the parser's error.
func (e *PatternError) Unwrap() []error { return []error{ErrInvalidPattern, e.Err} }

// Regex score tiers: a tool whose name matches scores in
// [regexNameScore, regexNameScore+regexTierSpan], above any tool matched only
// by its description [regexDescScore, +span], above any matched only by a
// parameter name [regexParamScore, +span]. Within a tier, the larger the
// share of the field that the match covers, the higher: "weather" on the
// name "weather" scores 1.0, on "get_weather" 0.8 + 0.2×7/11 = 0.93.
const (
	regexNameScore  = 0.8
	regexDescScore  = 0.5
	regexParamScore = 0.2
	regexTierSpan   = 0.2
)

// Regex returns the tools whose name, description or parameter names match
// pattern (Go RE2 syntax: linear time, no backtracking). Matching is
// case-insensitive unless the pattern turns it off with (?-i). Simple globs
// are accepted as a convenience: a pattern made only of name characters and
// "*" wildcards ("get_*", "*_issue", "slack__*") matches whole tool names,
// the part after the server's "__", or the name as its server's own list
// writes it ("slack__send_message" for mcp__slack__send_message of server
// slack), and scores 1.
//
// Only the tools the trigram index admits are matched (see trigram.go): a
// pattern with a literal of 3 bytes that every match contains costs about
// what its candidates do, not the catalog's size; one without is matched
// against every tool and sets Result.Scanned. The results are the same
// either way.
//
// Errors: ErrPatternTooLong, or a *PatternError (wrapping ErrInvalidPattern)
// naming the parser's complaint. Scores follow the tiers above.
func (ix *Index) Regex(pattern string, o Options) (Result, error) {
	return ix.regex(pattern, o, true)
}

// regex is Regex, with the trigram index used only when useIndex is set:
// the tests compare both ways.
func (ix *Index) regex(pattern string, o Options, useIndex bool) (Result, error) {
	if len(pattern) > MaxPatternLength {
		return Result{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrPatternTooLong, len(pattern), MaxPatternLength)
	}
	if ix == nil {
		ix = &Index{}
	}
	var re *regexp.Regexp
	var parsed *syntax.Regexp
	glob := query.IsGlob(pattern)
	var err error
	if glob {
		re = regexp.MustCompile(query.GlobToRegex(pattern))
		parsed, err = syntax.Parse(query.GlobToRegex(pattern), syntax.Perl)
	} else {
		if parsed, err = syntax.Parse(pattern, syntax.Perl); err != nil {
			return Result{}, &PatternError{Pattern: pattern, Err: err}
		}
		if re, err = regexp.Compile("(?i)" + pattern); err != nil {
			return Result{}, &PatternError{Pattern: pattern, Err: err}
		}
	}
	var cs []candidate
	var why map[int]string // field that matched, for explanations
	if o.Explain {
		why = map[int]string{}
	}
	match := func(id int) {
		if !o.allowed(id) {
			return
		}
		score, field := 0.0, ""
		d := ix.docs.At(id)
		name := d.doc.Name
		if glob {
			if re.MatchString(name) || re.MatchString(localName(name)) || re.MatchString(serverLocal(d.doc.Server, name)) {
				score, field = 1, "name"
			}
		} else if s, ok := tierScore(re, name, regexNameScore); ok {
			score, field = s, "name"
		} else if s, ok := tierScore(re, d.doc.Description, regexDescScore); ok {
			score, field = s, "description"
		} else if s, ok := tierScore(re, d.paramNames, regexParamScore); ok {
			score, field = s, "parameter names"
		}
		if field != "" {
			cs = append(cs, candidate{id: id, raw: score})
			if why != nil {
				why[id] = field
			}
		}
	}
	// The trigram index narrows the tools to those that can match; the
	// match itself is the same either way. (The case-insensitive flag the
	// pattern is compiled with does not change what it requires: the
	// index folds case.)
	var ids []int32
	scan := true
	if useIndex && err == nil && ix.grams != nil {
		ids, scan = ix.grams.candidates(regexQuery(parsed))
	}
	if scan {
		for id := range ix.Len() {
			match(id)
		}
	} else {
		for _, id := range ids {
			if int(id) < ix.Len() { // the trigram index may hold removed tools
				match(int(id))
			}
		}
	}
	res := Result{Total: len(cs), Scanned: scan}
	for _, c := range newRanker(ix).top(cs, o.Limit) {
		h := Hit{ID: c.id, Score: c.raw}
		if o.Explain {
			h.Explain = "regex matched " + why[c.id]
		}
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// serverLocal is a namespaced name as its server's own list writes it:
// "slack__send_message" for mcp__slack__send_message of server slack, so
// the glob "slack__*" matches it as it matches slack__send_message; "" for
// a name without "__" or a tool without a server.
func serverLocal(server, name string) string {
	if server == "" || !strings.Contains(name, "__") {
		return ""
	}
	return server + "__" + localName(name)
}

// tierScore scores a match of re in text within a tier.
func tierScore(re *regexp.Regexp, text string, base float64) (float64, bool) {
	if text == "" {
		return 0, false
	}
	loc := re.FindStringIndex(text)
	if loc == nil {
		return 0, false
	}
	cover := float64(loc[1]-loc[0]) / float64(len(text))
	return base + regexTierSpan*cover, true
}
