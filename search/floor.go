package search

// The relevance floor of model-facing answers (Request.ForModel: the Agent
// helpers' tool_search, the MCP endpoint, the native client modes). A model
// loads what it is shown, so padding max_results with weak matches costs
// tokens and invites wrong calls: "weather forecast" on the example
// catalog came back with slack__add_reaction (0.531) and
// maps__reverse_geocode (0.530) after the four weather tools. The rule:
//
//   - a confident answer (the top result clears confidentScore) keeps the
//     results at least modelBand of the way from confidentScore to the top
//     score: with the top at 0.945, those ≥ 0.5 + 0.3 × 0.445 = 0.634;
//   - an answer flagged no_confident_match keeps the results scoring at
//     least weakBand × the top score and weakMinScore, still flagged; "buy
//     bitcoin", where every tool scores under 0.1, keeps none and answers
//     as a no-match;
//   - select:, an exact tool name, regex and browse answers are kept whole:
//     the caller named or matched them.
//
// The floor only removes results; it never adds any. Request.TopBand and
// MaxResults apply after it. The gRPC API's default (ForModel unset) is
// unchanged, so the dev-set rankings are too. total_matches counts the
// candidates that clear the floor in every ranked answer, with or without
// ForModel (modelFloorCount): the candidates are the 50 best of each path
// in the default mode, max_results in keyword mode.
//
// modelBand trades the answers' recall for their precision; measured on
// the dev sets (docs/benchmarks.md, "The relevance floor"): 0.3 halves the
// mean answer (5 → 2.9–3.3 results) and lifts precision by 0.11–0.20, for
// 0.04–0.08 of recall; 0.2 keeps more recall, 0.4 more precision.
const (
	modelBand = 0.3
	weakBand  = 0.8
	// weakMinScore is the least score an answer flagged no_confident_match
	// shows: below it a result is a guess from words the catalog does not
	// know (the calibrated coverage floor keeps such results ranked, at
	// 0.05 or so), and the model gets the no-match answer instead.
	weakMinScore = 0.1
)

// hasFloor reports whether answers of mode are cut by the floor: the
// ranked modes, not select:, regex or browse.
func hasFloor(mode Mode) bool {
	return mode != ModeSelect && mode != ModeRegex && mode != ModeBrowse
}

// modelFloorCount is the number of leading hits, sorted best first and
// calibrated, that clear the floor above; confident is the answer's
// calibrated verdict.
func modelFloorCount(hs []hit, exact int, confident bool) int {
	if len(hs) == 0 {
		return 0
	}
	top := hs[0].score
	var floor float64
	switch {
	case exact >= 0 && hs[0].id == exact && len(hs) > 1:
		// The named tool scores 1; the others are ranked as if it were not
		// there: the band is measured from the best of them.
		return 1 + modelFloorCount(hs[1:], -1, hs[1].score >= confidentScore)
	case confident:
		floor = confidentScore + modelBand*(top-confidentScore)
	default:
		floor = max(weakBand*top, weakMinScore)
	}
	for i, h := range hs {
		if h.score < floor {
			return i
		}
	}
	return len(hs)
}
