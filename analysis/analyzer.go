package analysis

// Analyzer turns text into terms: a [Tokenizer] followed by [Filter]s
// applied in order. An Analyzer is immutable after construction and safe for
// concurrent use. The zero value is not usable; build one with [New],
// [Standard] or [Words].
type Analyzer struct {
	tokenizer Tokenizer
	filters   []Filter
}

// New returns an analyzer that tokenizes with t and then applies filters in
// order. A nil tokenizer means [Unicode].
func New(t Tokenizer, filters ...Filter) *Analyzer {
	if t == nil {
		t = Unicode{}
	}
	return &Analyzer{tokenizer: t, filters: append([]Filter(nil), filters...)}
}

// Analyze returns the analyzed terms of text, in text order, possibly empty.
// It never panics (invalid UTF-8 bytes separate tokens).
func (a *Analyzer) Analyze(text string) []string {
	if a == nil || a.tokenizer == nil {
		return nil
	}
	tokens := a.tokenizer.Tokenize(text)
	for _, f := range a.filters {
		if len(tokens) == 0 {
			break
		}
		tokens = f.Filter(tokens)
	}
	return tokens
}

var (
	standard = New(Unicode{}, SplitCamelCase, Lowercase, CJKBigrams, StopFilter(English), StemFilter)
	words    = New(Unicode{}, SplitCamelCase, Lowercase, CJKBigrams)
)

// Standard returns the ranking analyzer: [Unicode] tokenizer (which splits
// snake_case, kebab-case, dots and "__"), [SplitCamelCase], [Lowercase],
// [CJKBigrams], [StopFilter] with [English], and [StemFilter]:
//
//	"get_current_weather"         → get current weather
//	"AbstractJarAgent.runJarAgent" → abstract jar agent run jar agent
//	"Searches the forecasts"      → search forecast
//	"搜索关键词"                   → 搜索 索关 关键 键词
//
// The returned analyzer is shared and safe for concurrent use.
func Standard() *Analyzer { return standard }

// Words returns [Standard] without stop-word removal and stemming: plain
// lowercase words (and CJK bigrams), as the built-in word-vector embedder's
// vocabulary expects:
//
//	"Searches the forecasts" → searches the forecasts
//
// The returned analyzer is shared and safe for concurrent use.
func Words() *Analyzer { return words }
