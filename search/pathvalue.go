package search

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/fallback"
)

// A request that acts on a local path or a file name ("read notes.txt",
// "create ~/notes/todo.txt with ...", "how big is /var/log/syslog") names
// its object by a value whose words are no topic: keyword search ranks
// them at formedWeight already, yet "notes", "todo" or "log" still draw
// the tools of other servers whose text shares them (the notes, e-mail and
// git tools), ahead of the tools that take a path. The rule: when a
// request of at most pathMaxWords words acts on a value of the path or file kind (fallback.ValueKinds,
// not a fallback.Value.Adjunct), the keyword hits of tools with a
// parameter that names that kind (namesKind: "path", "file", "directory"
// ... in a parameter's name or description, from the schema, not the
// tool's text) score pathValueBoost more, and the list is sorted again;
// not after a support verb (supportVerbs: "make run.sh executable": what
// is done to the file is no tool's, and the no-match rules read the 3 best
// for a tool that takes it). Only the keyword list moves (keyword mode,
// and keyword's half of fusion), and its best score stays what it was.
// Matching the kind's word in the tool's whole text was tried and dropped
// (docs/benchmarks.md): a tool whose description says "file" need not take
// one.
//
// The same holds for a value of another kind whose words are no topic
// either (h36-rank20, tenth session): an issue key ("move DATA-908 to In
// Review": "move" and "data" drew filesystem__move_file and the database
// tools over jira__transition_issue), coordinates ("name the street at
// 52.5163, 13.3777"), an e-mail address or a #channel ("anything new in
// #calendar-sync" drew the calendar tools). The owner/name pair is left
// out: it lifted the GitHub tools that take owner and repo over the
// search tools that take it inside a query ("find open issues labelled
// good-first-issue in rust-lang/cargo" ranked github__create_issue
// first), example sets' first tool right −6 default, −7 keyword.

// pathValueBoost is the share added to the keyword score of a tool that
// takes the kind of the request's path or file value (see above).
// Measured (docs/benchmarks.md, "A path's kind"): the example sets' first
// tool right 501 → 506 of 653 (keyword 503 → 510), mean nDCG@10 .863 →
// .869 (.864 → .869), livemcpbench .3778 → .3818, bfcl and stabletoolbench
// unchanged, no flag moving; 0.3 and 0.6 lift 504 and 505.
const pathValueBoost = 1.0

// pathMaxWords is the longest request, in words as written, the rule
// reads: a longer request is a task whose path is as often where its
// result goes ("... and save the report to /root/markdown/report.md",
// livemcpbench's 13 such requests have 10 to 47 words) as what it acts
// on. Measured: see pathValueBoost.
const pathMaxWords = 10

// pathKinds are the kinds of value the rule reads: paths and files, and
// the kinds added in the tenth session (see above). Measured
// (docs/benchmarks.md, "A value's kind beyond paths"): the example sets'
// first tool right 570 → 574 of 753 (keyword 576 → 583), with phone
// numbers and URLs left as they were.
var pathKinds = []string{fallback.KindPath, fallback.KindFile, fallback.KindIssue, fallback.KindCoordinates, fallback.KindEmail, fallback.KindChannel}

// pathValueKinds returns the path and file kinds of the values raw acts
// on, each once.
func pathValueKinds(raw string) []string {
	var kinds []string
	for _, v := range fallback.ValueKinds(raw) {
		if !v.Adjunct && slices.Contains(pathKinds, v.Kind) && !slices.Contains(kinds, v.Kind) {
			kinds = append(kinds, v.Kind)
		}
	}
	return kinds
}

// valueTakers returns whether a tool takes what p's request names by its
// values, when the rules read it: a kind of value of pathKinds (namesKind)
// in a request of at most pathMaxWords words, or a thing's identifier
// (idvalue.go: takesID) in one of at most idMaxWords; nil when they read
// nothing, or the request opens with a support verb ("make run.sh
// executable": the action is elsewhere, unknown).
func (st *state) valueTakers(p *plan) func(int) bool {
	raw := request(p.query).Raw
	n := len(strings.Fields(raw))
	if n > max(pathMaxWords, idMaxWords) {
		return nil
	}
	var kinds []string
	var ids []idRef
	if n <= pathMaxWords {
		kinds = pathValueKinds(raw)
	}
	if n <= idMaxWords {
		ids = idRefsOf(raw)
	}
	if len(kinds) == 0 && len(ids) == 0 {
		return nil
	}
	if v := fallback.RequestOpening(raw).Verb; supportVerbs[v] {
		return nil
	}
	return func(id int) bool {
		return slices.ContainsFunc(kinds, func(k string) bool { return st.namesKind(id, k) }) ||
			len(ids) > 0 && st.takesID(id, ids)
	}
}

// boostPathTakers raises the hits of tools that takes admits (valueTakers)
// and sorts hs again, best first; hs is returned unchanged when takes is
// nil.
func (st *state) boostPathTakers(takes func(int) bool, hs []hit) []hit {
	if len(hs) < 2 || takes == nil {
		return hs
	}
	out := slices.Clone(hs)
	for i := range out {
		if takes(out[i].id) {
			out[i].score *= 1 + pathValueBoost
		}
	}
	top := 0.0
	for _, h := range out {
		top = max(top, h.score)
	}
	if top > hs[0].score && top > 0 {
		// Keep the list's scale: the best score stays what it was, as
		// calibration and fusion read it (a keyword score above 1 would
		// be clamped, and the boost undone).
		for i := range out {
			out[i].score *= hs[0].score / top
		}
	}
	slices.SortStableFunc(out, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return out
}
