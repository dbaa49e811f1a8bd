package search

import "fmt"

// Score calibration: relevance_score means the same in every mode and for
// every query. Each mode's raw score (keyword: BM25F against an ideal tool;
// hybrid: fused semantic and keyword; fuzzy: keyword scores of the query
// with its typos corrected) is first discounted for how much of the query
// the catalog understood (for fuzzy, the corrected query), then mapped
// so that confidentScore is the calibrated threshold in every mode:
//
//	x = raw × max(coverage², minCoverageFactor) × (fuzzyDiscount for fuzzy matches)
//	relevance = x / knee × confidentScore                        when x < knee
//	          = confidentScore + (x − knee) / (1 − knee) × (1 − confidentScore)   otherwise
//
// coverage is the share of the query's words that occur in the catalog at
// all (fallback.Result.Coverage; unknown argument values such as paths,
// URLs and #channels are left out, or count as one known word when the
// catalog knows their kind, and so are unknown names after "in",
// "from", "to", "near": "is it going to rain in Seattle this weekend" is
// about the rain, and unknown words of a message's text: "message
// #frontend that the build is broken"), nor, when the request opens with
// the top tool's own action, its unknown names and values ("geocode 221B
// Baker Street London": ownaction.go): "turn off the living room lights"
// against a catalog that knows only "light" (from "light rain") and "turn" has
// coverage 0.4, so its keyword match on the weather tool (raw 0.66) is
// reported at 0.23, below the threshold. Every hit of one search gets the
// same factor and the map is increasing, so calibration never changes the
// order of results, and rankings (nDCG) are unchanged.
//
// A search whose top result calibrates below confidentScore carries
// no_confident_match, unless semantic evidence vouches for it: a clear
// semantic top tool that keyword search does not contradict, or, when the
// gate rejected the semantic candidates, a semantic ranking whose first
// tool is the keyword or fuzzy answer's, its scores then scaled by one
// factor so that the top scores confidentScore (vouch.go; a keyword
// search the caller asked for asks the same, keywordvouch.go). So does a
// search whose best tools do not do what was asked, its scores scaled
// under the line by one factor (nomatch.go and the rule
// files it names): a short request whose action verb none of them does,
// or whose tools with the verb all lack its object; a longer task none of
// whose steps they serve; a named thing no tool knows; a question about
// the asker's own things whose subject none has; a short request of
// several steps a later step of which none serves; a request about the
// past that they answer only for the present or the future.
// Results of select:, of an exact tool name and of a regex are confident
// by construction (the caller named or matched them) and keep their
// scores.
//
// The knees were set on the ../shared/bench dev sets and the no-answer sets
// in evaluation/testdata/noanswer (50 queries per catalog, written so that
// no tool of the catalog serves them): each knee is the 5th percentile of
// the answerable queries' top x on the dev set where it is lowest, so at
// most 5 % of answerable queries are flagged on every dev set. When they
// were set, the calibrated score alone flagged (default mode) 2.1 % of the
// 1,534 answerable dev queries and 31 % of the 200 no-answer queries
// (keyword mode 2.4 % and 31 %): many no-answer queries share most of
// their words with a real tool ("forward this email to my accountant"
// meets an email tool that cannot forward), which lexical coverage and
// static word vectors cannot tell from a real match. The no-match rules
// (nomatch.go) read what the request asks a tool to do and bring the dev
// no-answer sets to 82 / 86 / 82 % flagged (docs/benchmarks.md, "Scores
// and no_confident_match" has the current figures).
const (
	// confidentScore is the calibrated relevance_score a search's top
	// result must reach for the search to count as a confident match.
	confidentScore = 0.5
	// hybridKnee and keywordKnee are the raw-score-times-coverage values
	// that calibrate to confidentScore for hybrid (and semantic-only)
	// results and for keyword (and fuzzy) results.
	hybridKnee  = 0.077
	keywordKnee = 0.112
	// fuzzyDiscount weighs fuzzy matches: a match of "wether" to
	// get_weather is a guess at what was meant, never as sure as the word
	// itself, so a fuzzy result is confident only when it matches a
	// well-understood query nearly perfectly (raw ≥ 0.62 at full coverage).
	fuzzyDiscount = 0.5
)

// calibrate maps the hits' scores onto the calibrated scale (see above)
// and reports whether the top hit is a confident match. hs are sorted best
// first and stay in that order.
func calibrate(hs []hit, m matches, exact int) ([]hit, bool) {
	if len(hs) == 0 {
		return hs, false
	}
	var knee, factor float64
	switch m.mode {
	case ModeSelect, ModeRegex, ModeBrowse:
		return hs, true
	case ModeKeyword:
		knee, factor = keywordKnee, coverageFactor(m.coverage)
	case ModeFuzzy:
		knee, factor = keywordKnee, coverageFactor(m.coverage)*fuzzyDiscount
	default: // ModeHybrid, ModeSemantic
		knee, factor = hybridKnee, coverageFactor(m.coverage)
	}
	for i := range hs {
		if hs[i].id == exact {
			continue // an exact name scores 1
		}
		raw := hs[i].score
		hs[i].score = calibrated(raw*factor, knee)
		if hs[i].explain != "" {
			hs[i].explain += "; calibrated: " + formatCalibration(raw, m.coverage, factor, hs[i].score)
		}
	}
	if exact >= 0 && hs[0].id == exact {
		return hs, true
	}
	return hs, hs[0].score >= confidentScore
}

// minCoverageFactor is the least coverage factor: a query none of whose
// words the catalog knows ("tell the team in chat" against a catalog
// without those words: coverage 0) still ranks by meaning, far under the
// confident line (a fused 0.8 calibrates to 0.05), instead of every result
// scoring 0 and the ranking collapsing into name order.
const minCoverageFactor = 0.01

// coverageFactor is coverage², at least minCoverageFactor.
func coverageFactor(coverage float64) float64 {
	return max(coverage*coverage, minCoverageFactor)
}

// calibrated maps x in [0, 1] piecewise linearly so that knee maps to
// confidentScore, 0 to 0 and 1 to 1.
func calibrated(x, knee float64) float64 {
	x = clamp01(x)
	if x < knee {
		return x / knee * confidentScore
	}
	return confidentScore + (x-knee)/(1-knee)*(1-confidentScore)
}

// uncalibrated is calibrated's inverse: the x in [0, 1] that calibrates
// to score with knee.
func uncalibrated(score, knee float64) float64 {
	score = clamp01(score)
	if score < confidentScore {
		return score / confidentScore * knee
	}
	return knee + (score-confidentScore)/(1-confidentScore)*(1-knee)
}

func formatCalibration(raw, coverage, factor, out float64) string {
	return fmt.Sprintf("raw %.3f × coverage factor %.3f (coverage %.2f) → %.3f", raw, factor, coverage, out)
}
