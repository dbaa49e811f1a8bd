package search

import (
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

// The unserved step: a short request of several steps ("X and Y", "X,
// then Y", "X, if C, Y") a later step of which, an action, none of its
// best tools serves. The later step is what the first prepares ("list
// open pull requests in acme/api and merge the oldest one", "look up
// OPS-310 and deploy the fix to production", "find a pizza place near the
// office and order a large margherita"): the first step's tools rank
// first and score well on its words, the unserved action reads only the
// first verb, and the unserved task needs every step unserved. A request
// is served when each of its steps is; a step served by a top tool is not
// held against it because the request's words spread over two tools. The
// rule:
//
//   - the request has at most stepMaxWords ranking words and at least two
//     steps (fallback.RequestClauses): clauses that open with a verb of
//     the lists (actionVerb: a read, "find", "list", or an action), after
//     any context before the first (a statement: "I'm in Lisbon
//     tomorrow."); any other clause (a question, a statement or a value
//     after the first step) keeps the rule off. A clause after a step that
//     opens with a condition (fallback.Clause.Condition: "if", "unless",
//     "once", "when") is no step: it passes its chain to the step it
//     governs, the next clause ("... and, if it's sunny, book me a surf
//     lesson") or, without a comma, the clause's first later word that is
//     a step's verb (fallback.Clause.Governed: "... and if it's dry book a
//     tee time");
//   - a step after the first is checked when it follows "and", "then" or
//     "also" in the same sentence (fallback.Clause.Chained: not "add a
//     comment to OPS-88: fix deployed", whose second clause is a message),
//     without a preamble of its own ("... and I'd like to watch the one
//     ..." is a wish), and opens with an action verb in its base form that
//     is no answer verb (stepVerb; answerVerbs: a tool that returns the
//     data serves it), or with a light verb and a particle, one action
//     that a top tool must name (fallback.Clause.Particle,
//     unservedPhrasal: "... and check me in"); a verb after a hyphen's
//     prefix is the step's ("... and e-sign it");
//   - no tool among the unservedDepth best serves such a step (stepServed:
//     it does the verb, takes a parameter named by the verb's noun
//     (takesVerb: "... and assign it to jdoe" and github__create_issue's
//     assignees), or the verb names its server, and has a word of the
//     step's phrase (fallback.Clause.Phrase: its words up to a message's
//     text, "... and reply that we accept the terms"), or the phrase holds
//     only argument values, pronouns and words the catalog does not know
//     outside its direct object: "find the build log and delete it" needs
//     a top tool that deletes, "... and assign it to jdoe" one that
//     assigns), and none of them that changes something (changers: an
//     action among its own actions that is no answer verb) has a word of
//     its object, whatever its verb (objectInTop, stepObject: its direct
//     object, or its phrase when the direct object has only pronouns and
//     values; "... and leave a comment saying it shipped" with
//     jira__add_comment; postgres__describe_table reads tables, and "...
//     and reserve a table for two" is unserved);
//   - learning from use did not lift the top tool by
//     learnedServesStrength or more (learnedServes).
//
// Then the search is flagged as for the unserved action (unserve).
//
// Measured (docs/benchmarks.md, "The unserved step"), answerable /
// no-answer flagged before → after, default mode: example held-out-8
// 18.0 / 72.0 % → 18.0 / 82.0 % (5 of its 8 two-step no-answer requests),
// stabletoolbench no-answer 80 → 82 %, its held-out 90 → 95 %, held-out-7
// 70 → 80 %; example held-out-6 answerable 37.5 → 40.0 % ("Check
// tomorrow's forecast for Chicago and post it in #travel so the team
// knows what to pack": the weather and maps tools fill the top 3, and
// "get the weather in Paris and send it to #general" fares the same: a
// served second step whose tool ranks fourth or lower is the rule's cost);
// keyword mode the same moves, held-out-8 76.0 → 86.0 %, held-out-7 50 →
// 60 %, and livemcpbench held-out 85 → 90 %. Nothing else moves: no
// answerable request of bfcl, livemcpbench, stabletoolbench or the other
// example sets. Any length flagged bfcl's "Book a deluxe room for 2 nights
// at the Marriott hotel in New York and add breakfast as an extra
// service" (13 words: hotel.book books the extras) and a livemcpbench
// task of 23 words; the two-step no-answer requests have 5–9. Without the
// chained clause and the preamble, 3 more of bfcl's answerable requests
// ("..., finally respond in json"); without the direct object, bfcl
// held-out's "Change the priority of support ticket 2231 to high and
// update its description ..." in keyword mode. Checking the second step
// against the 5 best tools, or every hit, keeps held-out-6's request
// (slack__send_message ranks below the third in default mode only) but
// lets through "commit my changes in ~/src/app and push them to origin"
// (maps__distance_matrix has "origins") and, by a pronoun's object, the
// stabletoolbench requests.
//
// Several steps (seventh session, h32-steps; docs/benchmarks.md,
// "Requests of several steps"): the rule read exactly two clauses, the
// whole of the second's words, and any top tool's word of its object.
// Answerable / no-answer flagged before → after (main at 45a292a),
// default and keyword mode alike: example held-out-10 26.0 / 92.0 % →
// 24.0 / 96.0 % (keyword 24.0 / 92.0 → 22.0 / 96.0 %), held-out-11 16.0
// / 86.0 % → 12.0 / 92.0 %, held-out-8 no-answer 94 → 96 % (default;
// keyword already 96 %); no other set moves, nor the dev sets' nDCG@10
// or flags. By part, each undone alone (on 508a660): the context and the condition (held-out-11's "I'm in
// Lisbon tomorrow. Check the forecast for there and, if it's sunny, book
// me a surf lesson."; the condition also held-out-8's "... and if it's
// dry book a tee time ..."), the hyphen's prefix (held-out-10's "... and
// e-sign it"), changers (held-out-10's "... and reserve a table for two
// at 7" with postgres__describe_table third, held-out-11's "... and add
// it to the current sprint" with jira__search_issues' "currentUser()",
// and the tee time) and stepObject (held-out-11's "... and order delivery
// from it for two people to my flat", calendar__find_free_time having
// "people") each flag one to three no-answer requests; takesVerb and an
// unknown word counted only in the direct object together unflag "Open an
// issue in acme/widgets on GitHub titled 'Crash on empty input' and assign
// it to jdoe"; Phrase, or the direct object's unknown words alone, unflags
// both "... and reply that ..." requests; more than two steps moves no
// measured set. Tried and dropped: the phrase for the unserved task's
// steps too (one more of bfcl's answerable requests flagged, 3.6 → 3.7 %,
// keyword 4.3 → 4.4 %; since the thirteenth session the unserved task
// reads it where a tool must serve a step, not for a lone step's missing
// object, see unservedtask.go); a comma-listed step before a chained one checked
// as chained ("X, Y and Z": nothing moves); the 4 or 5 best tools for a
// later step (nothing moves: held-out-6's "... and post it in #travel ..."
// stays flagged, slack__send_message ranking lower still).
//
// A later step's tool below the best (ninth session, h35-flags;
// stepServedBelow): the first step's tools fill the top 3 of a two-step
// request, so the later step is also served by a tool among the stepReach
// best that does its verb and names what the step names: a word of the
// step's phrase in the tool's name ("... and save it in a new note":
// notes__create_note), or a parameter for the kind of a value the step
// acts on ("... and post it in #travel": slack__send_message's channel);
// or a tool that sends on the server the step's verb names ("... and
// email them the agenda": email__send_email; probed with four such
// requests written for it, all flagged before in one mode or both, none
// after; no measured set moves), or a tool doing its verb on a server the
// step names ("... and post it on Slack": a name, an argument value by
// its form; three requests written for it unflagged in both modes, "...
// and post it on Instagram" still flagged; no measured set moves).
// Default mode, example answerable flagged: held-out-6 20.0 → 17.5 %,
// held-out-13 8.0 → 6.0 % (keyword held-out-6 only); no no-answer request
// of any set and no dev set moves. A word of the phrase anywhere in the
// tool's text, or a tool taking any value (a message's "text"), let
// through two of held-out-11's no-answer requests in both modes ("...
// and add it to the current sprint": git__create_branch creates, "from
// the current HEAD"; "... and send it out for e-signature to
// jonas@acme.com through DocuSign": slack__send_message's text).

// unservedStep returns the verb of a later step of a request of several
// steps that none of the best hits (sorted best first) serves, or "" (see
// above).
func (st *state) unservedStep(r *reading, words int, hs []hit) string {
	if len(hs) == 0 || st.learnedServes(r.plan, hs[0]) || words > stepMaxWords {
		return ""
	}
	if !fallback.HasClauseBreak(r.req.Raw) {
		return "" // no "and", "then" or "also": one step (most requests; the clauses are not parsed)
	}
	var steps []fallback.Clause
	condition := false // a chained condition came before the next step: "... and, if it's sunny, book ..."
	for _, c := range r.clauses() {
		if len(steps) == 0 && c.First == "" {
			continue // context: "I'm in Lisbon tomorrow."
		}
		if len(steps) > 0 && c.Condition() {
			g, ok := c.Governed(stepVerb)
			if !ok {
				condition = condition || c.Chained
				continue
			}
			c = g // "... and if it's dry book a tee time"
		}
		if c.First == "" || c.Question {
			return ""
		}
		if base, _ := actionVerb(c.First); base == "" {
			return "" // no verb of the lists: a fragment, a noun
		}
		c.Chained = c.Chained || condition
		condition = false
		steps = append(steps, c)
	}
	if len(steps) < 2 {
		return ""
	}
	var evidence map[string]fallback.WordMatch
	var top []hit
	for i, s := range steps[1:] {
		prev := steps[i] // the step before s, whose values its pronoun may stand for
		if !s.Chained || s.Preamble {
			continue // "add a comment to OPS-88: fix deployed", "... and I like to watch the one ..."
		}
		base, action := actionVerb(s.First)
		if particle := s.Particle(); !action && base == s.First && particle != "" && !supportVerbs[base] && !causativeVerbs[base] {
			if st.unservedPhrasal(r, base, particle, hs) != "" {
				return base + " " + particle // "... and check me in": a light verb and a particle are one action
			}
			continue
		}
		if !stepVerb(s.First) || countedRead(s.First, s.Object()) {
			continue // "... then pull the 20 newest signups": a read
		}
		if evidence == nil {
			evidence = map[string]fallback.WordMatch{}
			for _, w := range r.matches(hs[0].id) {
				evidence[w.Word] = w
			}
			top = r.servingTop(hs)
		}
		phrase, obj := withoutComplement(s.Phrase(), s.Object()) // not a message's text: "... and reply that we accept the terms"; nor a value given: "... and tag it travel"
		if st.stepServed(base, phrase, func(w string) bool { return slices.Contains(obj, w) }, evidence, top) {
			if st.referentUntaken(base, prev, s, top, hs[min(len(hs), unservedDepth):min(len(hs), stepReach)]) {
				return base // "Read PAY-1190 and then delete it": the note deleter takes no issue key (unservedreferent.go)
			}
			continue
		}
		if st.objectInTop(stepObject(obj, phrase, evidence), evidence, st.changers(top)) {
			continue // "... and leave a comment saying it shipped": jira__add_comment's thing
		}
		if st.stepServedBelow(base, s, phrase, evidence, hs[min(len(hs), unservedDepth):min(len(hs), stepReach)]) {
			continue
		}
		if st.stepServedAlone(r.plan, base, s, phrase, evidence, append(top[:len(top):len(top)], hs[min(len(hs), unservedDepth):min(len(hs), stepReach)]...)) {
			continue
		}
		return base
	}
	return ""
}

// stepServedBelow reports whether a tool ranked below the unservedDepth
// best (below) serves a later step by what the step itself names: the
// step's verb names the server of a tool that sends (namesServer: "... and
// email them the agenda"), or the tool does the step's verb (actsVerb) and
// the step names its server ("... and post it on Slack"), or its name has
// a known word of the step's phrase that is no argument value and no
// filler, or it has a parameter named for the kind of a value the step
// acts on (namesKind: "... and post it in #travel", a channel). The first step's tools fill the
// top of a two-step request's ranking ("Check tomorrow's forecast for
// Chicago and post it in #travel": three weather tools), so the later
// step's tool ranks lower; a step whose phrase names nothing a tool has
// ("... and text it to my phone", "... and call her") is not served this
// way, whatever tool does its verb.
func (st *state) stepServedBelow(verb string, s fallback.Clause, phrase []string, evidence map[string]fallback.WordMatch, below []hit) bool {
	var object []string
	for _, w := range phrase {
		if e, ok := evidence[w]; ok && e.Known && !e.Arg && e.Weight >= 1 {
			object = append(object, w)
		}
	}
	var kinds []string
	for _, v := range fallback.ValueKinds(s.Text()) {
		if !v.Adjunct {
			kinds = append(kinds, v.Kind)
		}
	}
	for _, h := range below {
		if st.namesServer(verb, h.id) && st.actsVerb(h.id, "send") {
			return true // "... and email them Monday's agenda": the verb names the server of a tool that sends
		}
		if !st.actsVerb(h.id, verb) {
			continue
		}
		if slices.ContainsFunc(phrase, func(w string) bool { return st.namesServer(w, h.id) }) {
			return true // "... and post it on Slack": the step names the tool's server (a name, so an argument value by its form)
		}
		_, name := catalog.SplitName(st.snap.Tool(h.id).Name)
		nws := fallback.Words(name)
		if slices.ContainsFunc(object, func(w string) bool {
			return slices.ContainsFunc(nws, func(n string) bool { return fallback.SameStem(n, w) })
		}) || slices.ContainsFunc(kinds, func(k string) bool { return st.namesKind(h.id, k) }) {
			return true
		}
	}
	return false
}

// stepServedAlone reports whether the step searched alone, within the
// request's scope (plan.allow), finds a tool that serves it as
// stepServedBelow reads one among its stepReach best keyword hits
// (a tool doing the step's verb that takes the kind of a value the step
// acts on, or names a word of its phrase, or sends on the server the verb
// names). The first step's words fill the whole ranking of a two-step
// request, and a tool of the later step need not be a hit at all:
// "Download https://example.org/data.csv and save it to /tmp/data.csv"
// ranks fetch__fetch_url first and no filesystem tool among the 10 best
// ("download" and "save" are no words of filesystem__write_file), while
// "save it to /tmp/data.csv" alone ranks filesystem__write_file first
// (save → write, fallback.VerbSynonyms), which takes a path. The search is
// one keyword search of the step's clause, run only when the step would
// be flagged otherwise, bounded like any search by the index's postings
// and stepReach, whatever the catalog's size; it reads the catalog's
// keyword index alone (no learned hits, no query cache) and runs no rule
// that could search again. Measured (eleventh session, h37-review, keyword
// mode, the rules as BenchmarkNoMatchRules runs them): it never runs on
// the dev sets' labelled queries (bfcl, livemcpbench, stabletoolbench),
// and runs for 63 of the 1,484 example dev requests with hits (answerable
// and no-answer, pairs tuning to 22 but the blind ones; 1 of them served
// by it), about 11 µs each, 0.7 ms of the rules' 81 ms in all (main
// 7608693).
//
// The step's own search has no tool the rule judged already (judged: the
// request's serving top, servingTop, which stepServed read, and its hits
// below the unservedDepth best up to stepReach, which stepServedBelow
// read; a tool among the best that is no candidate of the request was
// judged by neither: "Check the air quality in Delhi and text it to
// #health" ranks slack__send_message third, which has no word of the air
// quality), and when the step names a thing of its own, a word of its direct
// object the catalog knows ("... and save the attachment to ~/contracts"),
// its tool must have that word: filesystem__write_file takes a path, but
// no e-mail tool gives it the attachment.
//
// Measured (eleventh session, h37-flags; docs/benchmarks.md, "A later
// step searched alone"), with openingValues, default and keyword mode:
// example held-out-20 answerable flagged 14 → 12 % ("Get the summary of
// SEC-311 and post it in #security": slack__send_message, a channel),
// pooled example pairs 50 → 49 of 717 (keyword 60 → 59); no no-answer
// request of any set and no dev set moves. Without judged, the tool the
// rule had rejected in the top 3 came back by its kind: held-out-11's
// "Read ~/contracts/nda.txt and send it out for e-signature to
// jonas@acme.com through DocuSign" (email__send_email first); without
// the object's word, held-out-14's and held-out-19's "... and save the
// (PDF) attachment to ~/..." (filesystem__write_file): 3 no-answer
// requests let through in both modes.
//
// A tool that sends (actsVerb "send": slack__send_message, email__send_email)
// need not have the step's own thing: what a message carries is whatever
// the step names ("... and post a one-line summary of it to
// #payments-team", pair 29). Measured (sixteenth session, h42-multi), with
// a changer serving a step by its name only (thingInTop, since reverted:
// see objectInTop), which no longer served that step by
// jira__create_issue's "summary": pooled example answerable flagged 49 →
// 47 of 967 (keyword 52 → 50), no-answer 898 of 960 unchanged; nothing
// else moves.
func (st *state) stepServedAlone(p *plan, verb string, s fallback.Clause, phrase []string, evidence map[string]fallback.WordMatch, judged []hit) bool {
	q, err := query.Parse(s.First + " " + s.Text())
	if err != nil || len(q.Terms) == 0 {
		return false
	}
	var object []string // the step's own thing: "... and save the attachment to ~/contracts"
	for _, w := range s.Object() {
		if e, ok := evidence[w]; ok && e.Known && !e.Arg && e.Weight >= 1 && !proWords[w] {
			object = append(object, w)
		}
	}
	r := st.lex.Keyword(q, fallback.Options{Limit: stepReach, Allow: p.allow, Expand: true, NoCoverage: true})
	hs := slices.DeleteFunc(fromFallback(r.Hits), func(h hit) bool {
		if slices.ContainsFunc(judged, func(j hit) bool { return j.id == h.id }) {
			return true // a hit of the request, which stepServed or stepServedBelow judged already
		}
		if len(object) == 0 || st.actsVerb(h.id, "send") {
			return false // a message carries whatever the step names: "... and post a one-line summary of it to #payments-team"
		}
		return !slices.ContainsFunc(object, func(w string) bool { return st.lex.HasWord(h.id, w) })
	})
	return st.stepServedBelow(verb, s, phrase, evidence, hs)
}

// stepReach is how deep stepServedBelow looks for a later step's tool:
// valueDepth's depth (10). No other depth was measured for this rule
// (docs/benchmarks.md, "A later step below the best", gives its figures
// at 10 only). Keyword mode reads at least valueDepth hits too
// (ruleDepth), whatever the request's max_results.
const stepReach = valueDepth

// stepObject returns the words of a step (phrase) that a tool changing
// something must have one of when it does not do the step's verb (see
// above): its direct object (object) when it has a known word that is no
// argument value, or a word the catalog does not know ("... and order
// delivery from it for two people": no tool has the delivery, whatever
// tool has "people"); else the whole phrase ("... and add it to the
// current sprint"). It is directObject with unknown words counted.
func stepObject(object, phrase []string, evidence map[string]fallback.WordMatch) []string {
	return directObject(object, phrase, func(w string) bool {
		e, ok := evidence[w]
		return ok && !e.Arg && e.Weight >= 1
	})
}

// stepVerb reports whether w is an action verb in its base form that is
// no answer verb: the verb of a step that a tool must do (see above).
func stepVerb(w string) bool {
	base, action := actionVerb(w)
	return action && base == w && !answerVerbs[base]
}

// changers returns the tools of top that change something: an action verb
// that is no answer verb (changes) among their own actions (toolActions), unlike
// postgres__describe_table, whose "table" is no table one may reserve.
// The unserved task's lone step reads the tools the other way (readOnly:
// an answer verb acts too); read as here, bfcl's answerable requests
// flagged 3.6 → 3.9 % (default), 4.3 → 4.5 % (keyword), and with the
// step's object (stepObject) as well 4.1 / 4.6 %.
func (st *state) changers(top []hit) []hit {
	var out []hit
	for _, h := range top {
		if slices.ContainsFunc(st.toolActions(h.id), changes) {
			out = append(out, h)
		}
	}
	return out
}

// unservedStepWhy says why unservedStep flagged a search (verb is the
// unserved step's).
func unservedStepWhy(verb string) string {
	return fmt.Sprintf("none of the top %d tools serves a later step of the request (%q ...)", unservedDepth, verb)
}

// Its cost: a request without "and", "then" or "also"
// (fallback.HasClauseBreak, no allocation) is not parsed;
// BenchmarkNoMatchRules, which now runs every rule in result's order,
// counts 50 → 54 allocations per bfcl search with
// the unserved step (59 before the chains check; the machine was too
// loaded to time it).

// stepMaxWords is the longest request, in ranking words, the unserved
// step reads: the two-step no-answer requests measured have 5–9, the
// answerable requests a longer limit flagged 13 and 23 (see above).
const stepMaxWords = 12

// withoutComplement returns a step's phrase and object (fallback.Clause's
// Phrase and Object) without the object's complement (complement): "tag
// it travel" → tag: it. The unserved step and the unserved task read a
// step's words so. The task (sixteenth session, h42-multi): "File a bug
// on octo-org/widgets: the CSV export button does nothing in Safari 17,
// label it browser" (pair 31) was flagged, github__create_issue lacking
// "browser"; pooled example answerable flagged 49 → 48 of 967 (keyword
// 52 → 51), nothing else moves.
func withoutComplement(phrase, object []string) ([]string, []string) {
	c := complement(object)
	if len(c) == 0 {
		return phrase, object
	}
	return slices.DeleteFunc(slices.Clone(phrase), func(w string) bool { return slices.Contains(c, w) }), object[:1]
}

// complement returns the words of a step's object (fallback.Clause.Object)
// that follow "it" or "them" (referentPronouns) right after the verb:
// what the verb gives the thing named before, a value, not a thing a tool
// must have ("... and tag it travel", "... and label it urgent", "... and
// name it Q3 plan", "... and mark them done"); none otherwise. Measured:
// see docs/benchmarks.md, "Everyday senses of plain actions"; "them"
// (h40-review) moves no example pair, dev set or pooled flag.
func complement(object []string) []string {
	if len(object) < 2 || !referentPronouns[object[0]] {
		return nil
	}
	return object[1:]
}
