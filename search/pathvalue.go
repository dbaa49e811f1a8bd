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
// request acts on a value of a kind of pathKinds (a path or a file in a
// request of at most pathMaxWords words, an issue key or a URL in any:
// fallback.ValueKinds, not a fallback.Value.Adjunct), the keyword hits of
// tools with a parameter that names that kind (namesValueKind: "path",
// "file", "directory" ... in a parameter's name or description, from the
// schema, not the tool's text; a number's or a boolean's parameter takes
// none) score pathValueBoost more, and the list is sorted again; not
// after a support verb (supportVerbs: "make run.sh executable": what
// is done to the file is no tool's, and the no-match rules read the 3 best
// for a tool that takes it). Only the keyword list moves (keyword mode,
// and keyword's half of fusion), and its best score stays what it was.
// Matching the kind's word in the tool's whole text was tried and dropped
// (docs/benchmarks.md): a tool whose description says "file" need not take
// one. But a request of little more than a path ("What's in ~/Downloads?")
// has no keyword hit to lift: where the rule reads a path or a file name,
// keyword search matches it also through the word of what it names
// (valueTakers' paths, fallback.Options.PathKinds: "file", or "directory"
// and "folder"; docs/benchmarks.md, "A path matches through the word of
// what it names"), and the rule lifts the takers among those hits.
//
// The same holds for a thing named by a noun and its identifier
// (idvalue.go, h36-rank20, tenth session: "add a line to the bottom of
// note n_4410" and notes__update_note's note_id), whose takers the rule
// lifts too (valueTakers), and an issue key is read as one (issueKeyRef).
// Coordinates are a kind since h37-rank (numberKinds); e-mail addresses
// and #channels were tried as kinds and dropped, and the owner/name pair
// is left out (pathKinds).

// pathValueBoost is the share added to the keyword score of a tool that
// takes the kind of the request's path or file value (see above).
// Measured (docs/benchmarks.md, "A path's kind"): the example sets' first
// tool right 501 → 506 of 653 (keyword 503 → 510), mean nDCG@10 .863 →
// .869 (.864 → .869), livemcpbench .3778 → .3818, bfcl and stabletoolbench
// unchanged, no flag moving; 0.3 and 0.6 lift 504 and 505.
const pathValueBoost = 1.0

// pathMaxWords is the longest request, in words as written, whose path
// or file name the rule reads (but for a file named with its repository:
// actedPathKinds): a longer request is a task whose path is
// as often where its result goes ("... and save the report to
// /root/markdown/report.md", livemcpbench's 13 such requests have 10 to
// 47 words) as what it acts on. Measured: see pathValueBoost. An issue
// key or a URL is read in a request of any length (h36-dev19): a task's
// URL is what it acts on ("grab the text of https://go.dev/blog/... so I
// can read it here"); measured, default / keyword: livemcpbench nDCG@10
// .3892 → .3999 / .3427 → .3539, bfcl .7153 → .7151 / .7008 → .7004,
// stabletoolbench unchanged; example held-out-6 .831 → .840 (.838 →
// .848), held-out-10 .774 → .773; no flag moves; replay livemcpbench even
// half with learning .3849 → .4036 (ratio .94 → .82: the stand-in gains
// more), odd unchanged.
const pathMaxWords = 10

// pathKinds are the kinds of value the rule reads: a path and a file
// name, and since h36-dev19 an issue key and a URL, whose words are no
// topic either ("move OPS-7 into QA" found filesystem__move_file by its
// verb, "get https://example.org/robots.txt" github__get_issue by "get").
// Measured (docs/benchmarks.md, "An issue key's and a URL's kind"):
// example sets first tool right 514 → 517 of 667 (keyword 520 → 523),
// nDCG@10 tuning .895 → .901, held-out .872 → .903, held-out-3 .899 →
// .917, no set falling; held-out-14 no-answer flagged 96 → 98 % (keyword
// 94 → 96 %); bfcl .7159 → .7156 (keyword .7008 → .7007), livemcpbench
// and stabletoolbench unchanged. An owner/name pair (fallback.KindRepo)
// was tried and dropped: nearly every GitHub tool takes one, and it lifted
// github__get_issue over the searching and file tools ("find open issues
// labeled bug in acme/api", "get src/main.go from acme/api on github").
// Coordinates, e-mail addresses and channels were tried (h36-rank20;
// docs/benchmarks.md, "A value's kind beyond paths"): coordinates lifted
// the tools taking a "location" over maps__reverse_geocode, whose latitude
// and longitude are numbers, until numberKinds read them (h37-rank,
// eleventh session: example pairs first tool right +0 default, +3 keyword,
// "what address is at 48.8584, 2.2945"; bfcl keyword .7000 → .6999); a
// channel lifted slack__get_channel_history into the best 3 of "What has
// been said in #incidents over the last hour?" and the request was
// flagged.
var pathKinds = []string{fallback.KindPath, fallback.KindFile, fallback.KindIssue, fallback.KindURL, fallback.KindCoordinates, fallback.KindEmoji, fallback.KindPattern}

// issueKeyRef is what an issue key ("OPS-1500", fallback.KindIssue)
// names: an issue's identifier of letters, taken by a parameter named for
// an issue's key or id (takesID: jira__get_issue's issue_key), not by any
// parameter whose words say "issue" or "key" (namesValueKind:
// jira__search_issues' "fields" lists "key", jira__create_issue's
// project_key and issue_type): "look up jira OPS-1500 and post its summary
// to #ops" ranked the search first.
var issueKeyRef = idRef{noun: "issue"}

// numberKinds are the kinds of value that a parameter of numbers takes
// (namesValueKind): maps__reverse_geocode's latitude and longitude.
var numberKinds = wordSet(fallback.KindCoordinates)

// anyLengthKinds are the kinds of pathKinds read in a request of any
// length (see pathMaxWords).
var anyLengthKinds = []string{fallback.KindIssue, fallback.KindURL, fallback.KindCoordinates, fallback.KindEmoji, fallback.KindPattern}

// pathValueKinds returns the kinds of pathKinds of the values raw acts
// on, each once. An emoji's short code is read after "with" too (not a
// fallback.Value.Adjunct): "react with :eyes: to message …" gives it as
// the reaction.
func pathValueKinds(raw string) []string {
	var kinds []string
	for _, v := range fallback.ValueKinds(raw) {
		if (!v.Adjunct || v.Kind == fallback.KindEmoji) && slices.Contains(pathKinds, v.Kind) && !slices.Contains(kinds, v.Kind) {
			kinds = append(kinds, v.Kind)
		}
	}
	return kinds
}

// valueTakers returns by how much a tool's keyword hit is raised for
// taking what p's request names by its values, when the rules read it (1:
// not at all): 1 + pathValueBoost for a tool that takes a kind of value of
// pathKinds (namesValueKind; only anyLengthKinds in a request longer than
// pathMaxWords words) or a thing's identifier (idvalue.go: takesID) in a
// request of at most idMaxWords, (1 + pathValueBoost) × pathListMisfit for
// one whose parameters for a path take a list where the request names
// one, or one where it names a list (misfitsPath); nil when they read
// nothing, or the request opens with a support verb ("make run.sh
// executable": the action is elsewhere, unknown) and has no emoji's short
// code ("put a :eyes: on message …": the emoji says the action, a
// reaction). paths reports whether
// it reads a path or a file name: keyword search then matches it through
// the word of what it names too (fallback.Options.PathKinds), so that a
// request of little more than a path ("What's in ~/Downloads?") has
// keyword hits for the rule to lift.
func (st *state) valueTakers(p *plan) (lift func(int) float64, paths bool) {
	raw := request(p.query).Raw
	n := len(strings.Fields(raw))
	kinds := pathValueKinds(raw)
	if n > pathMaxWords {
		acted := actedPathKinds(raw)
		kinds = slices.DeleteFunc(kinds, func(k string) bool { return !slices.Contains(anyLengthKinds, k) && !slices.Contains(acted, k) })
	}
	var ids []idRef
	if n <= idMaxWords {
		ids = idRefsOf(raw)
	}
	if i := slices.Index(kinds, fallback.KindIssue); i >= 0 {
		// An issue key is an issue's identifier (issueKeyRef).
		kinds = slices.Delete(kinds, i, i+1)
		ids = append(ids, issueKeyRef)
	}
	if len(kinds) == 0 && len(ids) == 0 {
		return nil, false
	}
	if v, _ := fallback.RequestVerb(raw); supportVerbs[v] && !slices.Contains(kinds, fallback.KindEmoji) {
		return nil, false
	}
	paths = slices.Contains(kinds, fallback.KindPath) || slices.Contains(kinds, fallback.KindFile)
	var lists []bool
	if paths {
		lists = pathListsOf(raw)
	}
	return func(id int) float64 {
		if !slices.ContainsFunc(kinds, func(k string) bool { return st.namesValueKind(id, k) }) &&
			!(len(ids) > 0 && st.takesID(id, ids)) {
			return 1
		}
		if st.misfitsPath(id, lists) {
			return (1 + pathValueBoost) * pathListMisfit
		}
		return 1 + pathValueBoost
	}, paths
}

// pathListMisfit scales the lift (pathValueBoost) of a tool whose
// parameters for a path take a list where the request names one path, or
// one where it names a list (misfitsPath): "read notes.txt" is
// read_file's (path), not read_multiple_files' (paths, an array), "open
// src/main.go, src/router.go and go.mod at once" the other way round.
// Whether the path names a file or a directory is left to the word of
// what it names (fallback.PathKindWords), which keyword search matches.
// Measured (docs/benchmarks.md, "One path or a list of them"): example
// pairs first tool right 536.3 → 538.3 of 717 (keyword 546.8 → 548.8),
// answerable flagged 48 → 47 (keyword 58 → 57); 539.3 / 551.8 was the
// fit boost tried instead and dropped (it let 2 no-answer requests
// through).
const pathListMisfit = 1 / 1.5

// listWords join the values of a list ("a.txt and b.txt", "a.txt, b.txt
// or c.txt"; a comma after the first is its token's), and end a place a
// tool's description names (toolPlaces: "in a repository and ...").
var listWords = wordSet("and or &")

// pathListsOf returns, for the paths and file names that raw acts on
// (fallback.ValueKinds: not an adjunct), whether each stands in a list,
// each answer once: a path stands in a list when the token next to it,
// or the one after a listWords word, is a path or a name with a dot or a
// slash inside ("main.go, go.mod and README.md": go.mod's extension is no
// file kind's).
func pathListsOf(raw string) []bool {
	var texts []string
	for _, v := range fallback.ValueKinds(raw) {
		if !v.Adjunct && (v.Kind == fallback.KindPath || v.Kind == fallback.KindFile) {
			texts = append(texts, v.Text)
		}
	}
	toks := strings.Fields(raw)
	value := make([]bool, len(toks)) // the token is one of texts
	named := make([]bool, len(toks)) // the token is a path or a name with an inner dot or slash
	for i, tok := range toks {
		value[i] = slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(tok, t) })
		named[i] = value[i] || strings.ContainsAny(strings.Trim(tok, ".,;:!?()'\""), "./")
	}
	var out []bool
	for i := range toks {
		if !value[i] {
			continue
		}
		listed := i > 0 && named[i-1] || i+1 < len(toks) && named[i+1] ||
			i > 1 && named[i-2] && listWords[strings.ToLower(toks[i-1])] ||
			i+2 < len(toks) && named[i+2] && listWords[strings.ToLower(toks[i+1])]
		if !slices.Contains(out, listed) {
			out = append(out, listed)
		}
	}
	return out
}

// misfitsPath reports whether tool id has parameters that take a path
// (kindWords) and none of them takes a list (an array) as the request's
// paths stand, one of lists (pathListsOf), in a list or alone.
func (st *state) misfitsPath(id int, lists []bool) bool {
	if len(lists) == 0 {
		return false
	}
	takes, fits := false, false
	for _, tp := range st.facts(id).textParams {
		if slices.ContainsFunc(tp.words, func(w string) bool { return slices.Contains(kindWords[fallback.KindPath], w) }) {
			takes = true
			fits = fits || slices.Contains(lists, tp.list)
		}
	}
	return takes && !fits
}

// boostPathTakers raises the hits of tools by lift (valueTakers) and
// sorts hs again, best first; hs is returned unchanged when lift is nil.
func (st *state) boostPathTakers(lift func(int) float64, hs []hit) []hit {
	if len(hs) < 2 || lift == nil {
		return hs
	}
	out := slices.Clone(hs)
	for i := range out {
		out[i].score *= lift(out[i].id)
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

// namesValueKind reports whether tool id has a parameter that may take
// text (no number or boolean: catalog.Parameter.Type) and names values of
// kind (kindWords): a "per_page" integer names a page, and takes no URL.
func (st *state) namesValueKind(id int, kind string) bool {
	text := st.facts(id).valueText
	if numberKinds[kind] {
		text = st.facts(id).paramText
	}
	return slices.ContainsFunc(text, func(w string) bool { return slices.Contains(kindWords[kind], w) })
}

// destinationWords open the place where a request's result goes ("save
// it to ~/out/report.md", "copy it into ~/code/app/", "keep it as
// ./ci.yml"): a path after one of them is no object of the request. They
// are the prepositions of a destination (towards) and "as".
var destinationWords = wordSet(towardsWords + " as")

// actedPathKinds returns the kinds (a path, a file name) of the values of
// raw that the request acts on (fallback.ValueKinds, not an adjunct)
// and that no word of destinationWords comes right before, when raw also
// names a repository by its owner/name pair (fallback.KindRepo): a file
// named with the repository that holds it is what the request acts on at
// any length ("Show me the Cargo.toml of tokio-rs/axum as it was at tag
// axum-v0.7.0", 13 words, ranked the notes tools first by "tag"; "Copy
// .golangci.yml from the main branch of acme/platform on GitHub into
// ~/code/toolkit/.golangci.yml"), where a path after "to" or "into" is
// where its result goes. Nil when raw names no repository. Measured
// (twelfth session, h38-rank; docs/benchmarks.md, "A file named with its
// repository"): pair 24 first tool right 26.5 → 27.5 of 50, nDCG@10 .7487
// → .7609 (keyword .7498 → .7598), pair 22 .8413 → .8452 (keyword .8547
// → .8617); the pooled pairs, every flag and the dev sets unchanged.
// Reading every long request's path so (without the repository) was
// tried and dropped: example pairs first right 548.3 → 550.0 (keyword
// 560.3 → 562.0), but livemcpbench nDCG@10 .4079 → .4046 (keyword .3618 →
// .3472: "Read the data under /root/excel/people_data.xlsx and tell me
// Sophia Moore's bmi" lifted another reader of spreadsheets; "… then
// create a Comparison Report in /root/markdown/…" read as the paper's
// path), and a no-answer request of pair 24 let through.
func actedPathKinds(raw string) []string {
	vals := fallback.ValueKinds(raw)
	if !slices.ContainsFunc(vals, func(v fallback.Value) bool { return v.Kind == fallback.KindRepo }) {
		return nil
	}
	toks := strings.Fields(raw)
	var kinds []string
	for _, v := range vals {
		if v.Adjunct || v.Kind != fallback.KindPath && v.Kind != fallback.KindFile || slices.Contains(kinds, v.Kind) {
			continue
		}
		i := slices.IndexFunc(toks, func(t string) bool { return strings.Contains(t, v.Text) })
		if i > 0 && destinationWords[strings.ToLower(toks[i-1])] {
			continue
		}
		kinds = append(kinds, v.Kind)
	}
	return kinds
}
