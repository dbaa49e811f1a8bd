package search

import "fmt"

// takeBackLifts takes back the learned lift of each hit of hs that a
// request rule demotes because its tool does not do what the request
// asks (requestRead; takeBack, by index in hs: the verb rule and the
// data rule read learnedDoes and learnedKeeps before they demote; the
// question rule demotes the tools that write, and takes back the lift of
// a writer whose learned queries do not say the request's action): the
// hit ranks as it would without learning (its score less its boost, no
// provenance), and then is demoted. hs are the hits the rule read (its
// verbDepth or statementDepth best; every hit for a question). It
// reports whether it took any back.
//
// A lift is credited by the words the request shares with what agents
// called the tool for; where the request's own reading says the tool
// does not do the asked action, those words were its values and objects,
// and a lift by them is what put the wrong sibling first: "switch ~/src/web
// over to the release-2.1 branch" and git__create_branch, learned from
// "make a new branch … in ~/src/web" and "create branch release-3.1",
// lifted at learnStrongWeight over git__checkout, which says "switch"
// itself; demoted by questionWriteFactor with its lift, it still ranked
// first. It only lowers scores, of tools the rules already judge wrong
// for the request: no tool joins, no lift grows, and no tool the request
// names is passed (exactFirst runs after); without learning no hit has a
// lift and nothing changes. Measured on main at 11a1c51
// (docs/benchmarks.md, "A lift the request's reading rules out, taken
// back"): the example pool's ratio of learning's nDCG@10 gain to the
// naive stand-in's, even / odd, .72 / .86 → .80 / .87 (keyword .42 /
// 1.03 → .42 / 1.10), no request lost; bfcl's odd half 1.00 → 1.01, the
// other replays, stabletoolbench's 4-fold replay and the no-answer
// requests flagged with learning the same. Without the question rule's
// exception livemcpbench's even half lost 0.012 on "What are the
// emerging treatment strategies …, write the report to
// /root/markdown/cancer.md?" (desktop-commander__write_file).
func takeBackLifts(hs []hit, takeBack func(k int) bool, debug bool) bool {
	took := false
	for k := range hs {
		h := &hs[k]
		if h.learned == nil || !takeBack(k) {
			continue
		}
		if debug {
			h.explain += fmt.Sprintf("; does not do what the request asks: learned lift taken back, %.3f → %.3f", h.score, h.score-h.learned.Boost)
		}
		h.score -= h.learned.Boost
		h.learned = nil
		took = true
	}
	return took
}

// keepTop scales every score of hs (sorted) so that the best keeps top,
// the best hit's score before a learned lift was taken back
// (takeBackLifts): the request rules order, they do not judge the match
// (demote), so calibration reads the strength it read before.
func keepTop(hs []hit, top float64, debug bool) {
	rescaleBest(hs, top, "the best hit's score before its lift was taken back", debug)
}
