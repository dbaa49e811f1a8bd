package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// TestUnservedAction: a short request whose action verb none of its best
// tools does, or whose tools with the verb all lack its object, is
// flagged no_confident_match, its scores scaled by one factor (the order
// is the same as with the verb served); a request whose verb and object a
// top tool has, the verb itself or as a listed synonym, is not.
func TestUnservedAction(t *testing.T) {
	searchExample(t, []unservedCase{
		{"forward this email to my accountant", true},
		{"delete the slack message I just posted", true},
		{"please archive the #old-project channel", true},
		{"leave the #random channel", true},                             // "leave" with no action's noun is the verb
		{"leave a comment on OPS-12 saying the fix is deployed", false}, // its object's noun is the action (actionNoun)
		{"let's archive the #old-project channel", true},
		{"server:slack archive the #old-project channel", true}, // filters are no words of the request
		{"-github archive the #old-project channel", true},
		{"server:notes write down the meeting notes", false}, // "notes" is the object, no argument value
		{"server:calendar delete the standup meeting from my calendar", false},
		{"reply to Alice saying the issue is fixed", false},
		{"delete the standup meeting from my calendar", false},
		{"write down the meeting notes", false}, // write → create
		{"show the latest messages in the #support channel", false},
		// The tools that have the verb lack its object.
		{"cancel my flight", true},                              // calendar__delete_event cancels events
		{"delete the branch feature/old", true},                 // the delete tools delete events and notes
		{"restore the database from last night's backup", true}, // notes__delete_note: "restored from the trash"
		{"email the quarterly report to bob", false},            // the verb names the email server
		{"transition OPS-8 to review", false},                   // the object is an argument value
		{"zip up the logs folder into logs.zip", true},          // the verb's word in a later value ("logs.zip") is still the verb
		{"set a vacation auto-reply on my email", true},         // reply_to_email's "Set reply_all to ..." is the caller's verb
		// A light verb and a particle are one action, which a top tool must name.
		{"check me in for the 7am train to Boston", true},
		{"look in my notes for the launch plan", false},
		{"look back at last week's commits", false}, // "back" and "over" leave a light verb a read
		{"look back through my emails from alice", false},
		// A value's kind must be one that a best tool doing the verb takes.
		{"delete /var/tmp/build.log", true},                                 // the delete tools take events and notes, not paths
		{"close issue 12 in acme/webapp", true},                             // the Jira tools take issue keys, not a repository
		{"make run.sh executable", true},                                    // a support verb without an action's noun: a top tool must take the file
		{"reply to ana@acme.com", false},                                    // reply_to_email: "Reply to all recipients"
		{"text +49 170 1234567 that I'm on my way", true},                   // send_message's text takes the message, not a phone number
		{"send a message to #ops saying call me at +1 415 555 0100", false}, // a value in the message's text is what it says
		{"reply to the email saying the repo acme/api is archived", false},
		{"move report.pdf into the archive folder", false}, // move_file takes paths
		{"add a :tada: reaction to the announcement", false},
		{"email the Q1/Q2 report to alice", false},                           // codes joined by a slash are no repository
		{"send an email to bob and/or alice about the outage", false},        // nor are words
		{"add a note about the SHA-256 checksum", false},                     // a value after "about" is what the note says
		{"create a calendar event for my COVID-19 booster on Friday", false}, // after "for", the event's purpose
		// set is an action verb; un- and re- make action verbs.
		{"set the thermostat to 20 degrees", true},
		{"unassign me from OPS-31", true},
		// A server's name first (a model's query): the verb is the word after it,
		// when a thing of the server follows it.
		{"git push branch to origin", true},
		{"weather report Boston tomorrow", false}, // a verb's noun before names and times
		// Software commands are action verbs.
		{"mkdir ~/projects/new", true},
		{"chmod 755 deploy.sh", true},
		{"take a screenshot of a web page", true},
		// A word that opens software requests as a noun as often is no verb.
		{"ssh config file in ~/.ssh", false},
		{"hash values in the users table", false},
		// The object ends at a later clause's verb when the catalog knows none of its words.
		{"run a python script and return its output", true},
		{"stage everything in the docs folder and commit it with the message 'fix typos'", false},
		// The verb opens the request, or there is none.
		{"what's in the downloads folder", false},
		{"walking directions from Times Square to Central Park", false}, // a gerund opens a noun phrase
		{"order of commits in main", false},                             // so does a noun before "of"
		// "that" right after the verb points at the object.
		{"delete that message", true},
		{"reply that I'm on my way", false},
		{"answer Sam's email: I'll be there", false}, // answer → reply
		// A tool does what its name and its sentences' leading verbs say.
		{"merge pull request #88 in acme/webapp", true},               // create_pull_request opens one "to merge a head branch"
		{"restore the note I deleted yesterday from the trash", true}, // delete_note: "it can be restored from the trash"
		{"rename draft.md to final.md", false},                        // move_file: "Move or rename a file"
		{"set up a 30 minute call with Sam on Tuesday", false},        // set up → create, schedule
		{"comment fixed in v1.2 on github issue 45", false},           // add_issue_comment makes comments
		{"e-file the quarterly report", true},                         // a prefix joined by a hyphen: the verb is "file"
		{"dm the weather forecast for Boston", true},                  // a short verb is no prefix
		// A causative's verb is the participle that ends its object.
		{"get my latest emails forwarded to bob", true},
		{"get the quarterly report printed", true},
		{"get the weather forecast for Boston", false},
		{"get the slack channel locked down", true},     // a particle after the participle: the participle is still the verb
		{"get the old branches cleaned up", true},       // (withoutParticle)
		{"have the draft emails sent out today", false}, // email__send_email sends emails
		// A support verb's action is the noun that ends its short object.
		{"make a phone call to alice about the standup meeting", true},
		{"make a DELETE request to https://api.acme.io/v1/items/7", false},
		{"make a new branch called hotfix/login", false},
		{"make a commit", false},                                // an object of nothing to check: the verb serves it, as "commit"
		{"get it committed", false},                             // a pronoun: as "commit it"
		{"put a hold on pull request #42 in acme/webapp", true}, // give, put and take are support verbs too
		{"give alice a call about the standup meeting", true},
		{"give my manager alice a call about the standup meeting", true}, // an indirect object before the action's noun (directObjectOf)
		{"have my latest emails forwarded to bob", true},
		// A long request's noun after an indirect object is its action
		// (actionNoun, directObjectOf): not "leave", which no tool does.
		{"leave my teammate bob a comment on pull request #42 in acme/webapp saying the build is flaky again", false},
		{"have I got anything uncommitted in ~/work/payments?", false}, // a question
		{"have the old branches cleaned up", true},                     // "have" is a stop word, still the causative (stopCausative)
		{"give me the weather forecast for Boston", false},             // the object's noun is no action
		{"put the design review meeting on hold", true},                // put on an action's bare noun: held (onAction)
		{"put the design review meeting on my calendar", false},
		{"take a look at jira issue OPS-12", false}, // "look" is a light verb
		// A yes/no question about the asker's own things needs a top tool with its subject.
		{"is my invoice for the jira issue OPS-12 paid?", true},
		{"has my pull request been merged?", false},
		{"Is my calendar free tomorrow afternoon?", false}, // its subject is the calendar, not the afternoon
		{"Is my jira issue OPS-12 closed?", false},         // the issue, not "closed"
		// One imperative sentence is read whatever its length.
		{"forward the email from alice about the quarterly budget review to my accountant bob", true},
		{"send a message to the #general channel saying the deploy is done and the dashboards look fine", false},
		// "saying" opens a message's text: no word of the object (it was
		// the only one left, and no tool has it).
		{"reply to Alice saying the issue is fixed", false},
	}, func(t *testing.T, mode string, c unservedCase, res search.Result) {
		top := res.References[0]
		if got := res.Metadata.NoConfidentMatch; got != c.flagged {
			t.Errorf("%s %q: no_confident_match = %v, want %v (top %s %.3f)", mode, c.query, got, c.flagged, top.Name, top.Score)
		}
		unserved := strings.Contains(top.Explanation, "unserved action")
		if c.flagged && (!unserved || top.Score >= 0.5) {
			t.Errorf("%s %q: top %s %.3f, explanation %q: want the unserved action under 0.5", mode, c.query, top.Name, top.Score, top.Explanation)
		}
		if !c.flagged && unserved {
			t.Errorf("%s %q: explanation %q names an unserved action", mode, c.query, top.Explanation)
		}
	})
}

// TestPhrasalSignUp: "sign me up" registers (phrasalVerbs), so a tool
// whose name has "signs" (bfcl's DurationImpl.alignSigns) does not serve
// it, and one that subscribes does; its object is what follows the
// particle (afterParticle), so a tool that signs up an account does not
// serve "sign me up for the pottery class".
func TestPhrasalSignUp(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	flagsOn(t, []catalog.Tool{
		{Name: "numbers__align_signs", Description: "Aligns the signs of the numbers in a class of values.", InputSchema: obj},
		{Name: "news__subscribe", Description: "Subscribes an email address to the weekly newsletter.", InputSchema: obj},
		{Name: "news__list_issues", Description: "Lists the past issues of the weekly newsletter.", InputSchema: obj},
		{Name: "accounts__sign_up", Description: "Signs up a new user account with an email address.", InputSchema: obj},
	}, []unservedCase{
		{"sign me up for the weekly newsletter", false},
		{"sign up for the weekly newsletter", false},
		{"sign me up for the numbers class", true},
		{"sign me up for a new account", false},
		{"sign me up for the pottery class", true}, // accounts__sign_up signs up, but no class: the object after the particle (afterParticle)
	})
}

// TestGivesBack: "return" of a thing the requester got gives it back
// (givesBack), done by a tool whose name or first sentence says so, not
// by one whose later sentence "Returns" what it reads; "return" of
// anything else asks to see it.
func TestGivesBack(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	readers := []catalog.Tool{
		{Name: "shop__order_status", Description: "Check the status of a customer's order. Returns the current state of the order and its shoes' tracking number.", InputSchema: obj},
		{Name: "shop__list_orders", Description: "List the orders of a customer, with the items ordered.", InputSchema: obj},
		{Name: "shop__track_order", Description: "Track the delivery of an order.", InputSchema: obj},
	}
	returns := append(slices.Clone(readers), catalog.Tool{Name: "shop__return_item", Description: "Return an item of an order for a refund.", InputSchema: obj})
	flagsOn(t, readers, []unservedCase{
		{"return the shoes I ordered last week", true},
		{"return the status of my order", false}, // a read
	})
	flagsOn(t, returns, []unservedCase{{"return the shoes I ordered last week", false}})
}

// TestAnswerVerbNameReads: a noun of a tool's name after an answer verb is
// what the tool computes, not an action it does (toolActions):
// calculate_water_needs does not water the plants.
func TestAnswerVerbNameReads(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	flagsOn(t, []catalog.Tool{
		{Name: "garden__calculate_water_needs", Description: "Calculate the weekly watering needs of a plant.", InputSchema: obj},
		{Name: "garden__find_nursery", Description: "Find nurseries that sell plants.", InputSchema: obj},
		{Name: "garden__plant_biomass", Description: "Estimate the biomass of the plants in an area.", InputSchema: obj},
	}, []unservedCase{
		{"water the tomato plants every morning", true},
		{"calculate the water needs of my tomato plants", false},
	})
}

// TestParticipleVerbs: a verb left out of actionVerbs because requests
// open with it as a noun ("tow truck") is a verb in its -ed form after a
// causative's object (participleVerbs).
func TestParticipleVerbs(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	flagsOn(t, []catalog.Tool{
		{Name: "cars__list_available", Description: "List the rental cars available at a dealership.", InputSchema: obj},
		{Name: "cars__reserve", Description: "Reserve a rental car at a dealership.", InputSchema: obj},
		{Name: "cars__price", Description: "Get the daily price of a rental car.", InputSchema: obj},
	}, []unservedCase{
		{"get my car towed to the dealership", true},
		{"get a rental car reserved at the dealership", false},
	})
}

// unservedCase is a request and whether a no-match rule flags it.
type unservedCase struct {
	query   string
	flagged bool
}

// caseQueries returns the cases' requests.
func caseQueries(cases []unservedCase) []string {
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	return queries
}

// searchEachExample searches each query in the keyword and default modes
// (rankingModes) of the example catalog, 5 results with explanations, and
// hands do each result with the mode (its name, as goldens name it) and
// the query's index.
func searchEachExample(t *testing.T, queries []string, do func(mode search.Mode, name string, i int, res search.Result)) {
	t.Helper()
	searchEach(t, loadSnapshot(t, "testdata/eval/example/catalog.json"), queries, do)
}

// searchEach is searchEachExample on the catalog snap.
func searchEach(t *testing.T, snap *catalog.Snapshot, queries []string, do func(mode search.Mode, name string, i int, res search.Result)) {
	t.Helper()
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for i, q := range queries {
			res, err := e.Search(context.Background(), search.Request{Query: q, Mode: m.mode, MaxResults: 5, Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			do(m.mode, m.name, i, res)
		}
	}
}

// searchExample is searchEachExample over unserved cases, each result
// having at least one reference.
func searchExample(t *testing.T, cases []unservedCase, check func(t *testing.T, mode string, c unservedCase, res search.Result)) {
	t.Helper()
	searchEachExample(t, caseQueries(cases), func(_ search.Mode, name string, i int, res search.Result) {
		if len(res.References) == 0 {
			t.Fatalf("%s %q: no results", name, cases[i].query)
		}
		check(t, name, cases[i], res)
	})
}

// flaggedExample checks, in every mode searchExample runs, whether each
// case's search of the example catalog is flagged no_confident_match.
func flaggedExample(t *testing.T, cases []unservedCase) {
	t.Helper()
	searchExample(t, cases, func(t *testing.T, mode string, c unservedCase, res search.Result) {
		if got := res.Metadata.NoConfidentMatch; got != c.flagged {
			top := res.References[0]
			t.Errorf("%s %q: no_confident_match = %v, want %v (top %s %.3f: %s)", mode, c.query, got, c.flagged, top.Name, top.Score, top.Explanation)
		}
	})
}

// flagsOn checks, in the keyword and default modes, whether each case's
// search of a catalog of tools is flagged no_confident_match.
func flagsOn(t *testing.T, tools []catalog.Tool, cases []unservedCase) {
	t.Helper()
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		t.Fatal(err)
	}
	searchEach(t, snap, caseQueries(cases), func(_ search.Mode, name string, i int, res search.Result) {
		c := cases[i]
		if len(res.References) == 0 {
			t.Fatalf("%s %q: no results", name, c.query)
		}
		top := res.References[0]
		if got := res.Metadata.NoConfidentMatch; got != c.flagged {
			t.Errorf("%s %q (%d tools): no_confident_match = %v, want %v (top %s %.3f: %s)", name, c.query, len(tools), got, c.flagged, top.Name, top.Score, top.Explanation)
		}
	})
}

// TestUnservedTask: a longer request none of whose steps (two or more
// action verbs, after context) its best tools serve is flagged
// no_confident_match; a task one of whose steps a top tool serves, or that
// asks a question or for a read, is not.
func TestUnservedTask(t *testing.T) {
	searchExample(t, []unservedCase{
		{"The old repository is dead. Archive the github repository, delete its pull requests and unsubscribe me from its issues.", true},
		{"Slack is too noisy this week. Mute the random channel, pin the deploy message in general and archive the old project channel.", true},
		// A step is served: create_note, send_message; commit, create_pull_request.
		{"The release went out this morning. Create a note with the changelog and send a message to #general saying it shipped.", false},
		{"Our sprint ends Friday. Commit the staged changes with the message wip and open a pull request against main for review.", false},
		// A participle opens context, not a step.
		{"Following the standup, create a Jira issue for the login bug and assign it to Maria in the current sprint.", false},
		// One step after context: unserved when no top tool has its object.
		{"The release notes are in the notes workspace and the slack channel knows. Print them on the office printer.", true},
		{"I just pushed the fix and the pull request is open. Deploy the branch to production.", false}, // "branch": a near miss the rule lets through
		{"The build failed again this morning. Please create a jira issue for the flaky login test.", false},
		// A step whose object is a pronoun is served by its verb alone, when a top tool does it.
		{"The old github repository is not used any more. Please archive it and lock all its issues for good.", true},
		// A read is served when a top tool has its direct object, or that has nothing known to check.
		{"The old github repository is dead. Please analyse its history, archive the repository and lock its pull requests.", true},
		{"The old github repository is dead. Please get me a drive for the backup and archive the repository.", false},
		{"The old github repository is dead. Please get me a drive for the backup, archive the repository and lock its pull requests.", true}, // two action steps decide
		// A read ("find") may be served by any read tool.
		{"We are planning a team offsite next week. Can you find a free slot on Thursday afternoon and book a meeting room for it?", false},
		// One step beside a read after context: a served step (create_note) is enough.
		{"The release went out this morning. Can you find the release notes and create a note with them?", false},
		// A step's tool below the best serves it (stepServedBelow): the verb names email__send_email's server.
		{"The demo is over. Mute the #demo channel and email the recording to sam@acme.com.", false},
	}, flaggedBy("the unserved task", "a step of the task"))
}

// TestUnservedStep: a short request of several steps a later step of
// which, an action, none of its best tools serves is flagged
// no_confident_match; a served later step (its verb, a parameter named by
// its noun, its object; a message's text is none), a message after a
// colon, a read or a later step with a top tool that does it is not.
// Context before the steps and a condition between them do not hide a
// step.
func TestUnservedStep(t *testing.T) {
	searchExample(t, []unservedCase{
		{"list open pull requests in acme/webapp and merge the oldest one", true}, // create_pull_request opens one "to merge"
		{"look up OPS-12 and deploy the hotfix to our servers", true},
		{"commit the staged changes and push them to origin", true},
		{"find a sushi place near me and order a platter for delivery", true},
		{"search my email for the invoice and reply to it", false},
		{"list my open jira issues and move OPS-12 to done", false},
		{"find the note about the launch and delete it", false},
		{"find my train booking email and check me in", true},       // a light verb and a particle: one action
		{"create a branch called hotfix and check it out", false},   // "check" is a light verb: a read
		{"add a comment to OPS-88: fix deployed to staging", false}, // the message after a colon is no step
		// A message's text after "that" or "saying" is no object of the step.
		{"find alice's last email and reply saying the invoice is paid", false},
		// A parameter named by the verb's noun: create_issue takes assignees;
		// the unknown word after "to" is a name, no object to check.
		{"create an issue in acme/api titled 'Login fails' and assign it to mkoh", false},
		{"find a ramen place near Shinjuku and reserve a table for four at 8", true},                          // describe_table reads tables: it reserves none
		{"create a jira task for the flaky login test in project WEB and add it to the current sprint", true}, // search_issues reads "currentUser()"
		{"find a pizza place near the office and order delivery for four people", true},                       // no top tool has the delivery, whatever tool has "people"
		{"find a curry place near Union Square and order delivery from it for two people", true},
		{"find the contract message from legal in slack and e-sign it", true},              // a verb after a hyphen's prefix
		{"find the latest email from Dana, read it and forward it to my accountant", true}, // any step after the first
		// Context before the steps, and a condition between them.
		{"I'm in Paris tomorrow. Check the weather forecast for there and, if it's sunny, book me a bike tour.", true},
		{"get tomorrow's weather forecast for Seattle and if it's dry book a table on a terrace", true},
		// The later step's tool ranks below the first step's (stepServedBelow):
		// it does the verb and has the thing the step names in its name, or
		// takes the kind of its value; a step naming nothing a tool has is
		// not served that way.
		{"check the weekend forecast for Denver and post it in #general", false},
		{"check the weekend forecast for Denver and post it in #team", false},
		{"get the 5-day forecast for Oslo and save it in a new note titled 'Oslo trip'", false},
		{"get the 5-day forecast for Oslo and text it to my phone", true},
		// A tool that takes a value of any kind (a message's text) does
		// not name the step's value's kind (namesKind, not takesKind).
		{"read ~/docs/lease.txt and send it for DocuSign e-signature to ana@corp.com", true}, // not "through DocuSign": the unserved name (TestUnservedNameMeans)
		// A verb that names the server of a tool that sends ("email"), ranked below.
		{"Look up the Slack profile of user U123ABC and email them the launch plan", false},
		{"list my calendar events for Friday and fax them to my assistant", true},
		// The step names the server of a tool that does its verb.
		{"check the weather in Rome and post it on Slack", false},
		{"check the weather in Rome and post it to Instagram", true}, // not "on Instagram": the unserved name
		// "one" stands for a thing named before: no word a tool must have.
		{"list open PRs in acme/api and comment 'needs tests' on the oldest one", false},
		{"find emails from legal about the NDA and reply to the newest one that I agree", false}, // which one: no thing
		// A changer serves a step whose object is one of its words
		// (objectInTop), in its name or elsewhere: reading its name only
		// (thingInTop) was reverted, so these two near misses are let
		// through, the rule's known cost.
		{"read OPS-7 and leave a comment saying the fix is live", false},
		{"look up issue #12 in acme/api and translate its body into French", false},                       // create_issue's body
		{`create the event "Team lunch" on Friday at 12:00 and reserve meeting room Orion for it`, false}, // find_free_time's meeting
	}, flaggedBy("the unserved step", "a later step"))
}

// TestStepServedAlone: a later step whose tool is no hit of the request
// (the first step's words fill its ranking) is served by a tool that its
// own clause, searched alone within the request's scope, finds doing its
// verb on its value's kind (stepServedAlone); the opening verb is not
// held to the later step's values (openingValues). A step nothing does
// ("fax it"), or whose own thing the tool lacks ("save the attachment":
// filesystem__write_file writes no attachment), stays flagged.
func TestStepServedAlone(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Download https://example.org/data.csv and save it to /tmp/data.csv", "fetch__fetch_url", false},
		{"Download https://example.com/a.csv and save it to ~/data/a.csv", "fetch__fetch_url", false},
		{"Read ~/notes/todo.txt and post it in #general", "", false},
		{"Download https://example.com/a.csv and fax it to +1 555 0100", "", true},
		{"Find the email from Bo with the lease and save the attachment to ~/leases", "", true},
		{"Read ~/notes/todo.txt and text it to +1 415 555 0100", "", true},
		// A tool among the best that is no candidate of the request
		// (servingTop) was judged by no check: its own search reads it.
		{"Check the air quality in Delhi and text it to #health", "weather__get_air_quality", false},
		{"Check the weather in Rome and text it to my landlord", "", true},
		// "share" does what its plain verbs say (fallback.VerbSynonyms:
		// send, post).
		{"Look up the forecast for Oslo and share it in #travel", "weather__get_forecast", false},
		{"Find my notes about the launch and share them on LinkedIn", "", true},
		// A tool that sends carries whatever the step names.
		{"Read PAY-12 and post a one-line summary of it to #payments-team", "jira__get_issue", false},
	})
	// Out of scope, the later step's tool serves nothing.
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, m := range rankingModes(t) {
		res, err := m.engine(snap).Search(context.Background(), search.Request{
			Query: "Download https://example.org/data.csv and save it to /tmp/data.csv", Mode: m.mode, MaxResults: 5,
			Visible: []string{"fetch:*", "email:*"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Metadata.NoConfidentMatch {
			t.Errorf("%s: the download and save request without the filesystem tools in scope is not flagged: %+v", m.name, res.References)
		}
	}
}

// TestColloquialReads: "pull up" something asks to see it (askVerbs),
// and "grab" is a light verb (lightVerbs), whose clause is a read, no
// context before a lone step: neither is flagged where its tools read,
// while "pull" alone is git's action and a grabbed thing faxed is a
// later step nothing serves.
func TestColloquialReads(t *testing.T) {
	topAndFlag(t, []topCase{
		{"pull up my note about the offsite", "", false},
		{"pull up the forecast for Oslo this weekend", "weather__get_forecast", false},
		{"pull the latest changes from origin into main", "", true},
		{"Grab the description of PAY-77 from Jira and post it in Slack channel C01RELEASE", "", false},
		{"Grab the summary of PAY-77 from Jira and fax it to legal", "", true},
	})
}

// TestBookFrame: a request that books, schedules or invites at a time
// (fallback.TimeFrame's BookKey) is served by a top tool that creates or
// schedules and keeps events, when that tool has a word of its object
// ("a meeting"); a booking whose object no such tool has is still
// flagged ("a flight", "a table", "a haircut").
func TestBookFrame(t *testing.T) {
	topAndFlag(t, []topCase{
		{"book a meeting with Sam on Monday at 3", "", false},
		{"book a flight to Boston on Friday", "", true},
		{"book a table for two tonight at 8", "", true},
		{"book a haircut for Saturday morning", "", true},
		// A tool that creates but keeps no events (keepsTimes) does not
		// serve a booking: github__create_pull_request makes no review
		// meeting.
		{"book a pull request review on Friday at 2", "", true},
		// Whom one invites at a time come to an event, whatever it is called.
		{"invite sam and kim to a design review on Friday at 3", "calendar__create_event", false},
		{"invite alice to the acme github organization", "", true},
	})
}

// flaggedBy returns a searchExample check: the top hit's explanation names
// rule (by marker, a part of its wording) exactly when the case is
// flagged, and a flagged search is no_confident_match with its top score
// under 0.5.
func flaggedBy(rule, marker string) func(t *testing.T, mode string, c unservedCase, res search.Result) {
	return func(t *testing.T, mode string, c unservedCase, res search.Result) {
		t.Helper()
		top := res.References[0]
		named := strings.Contains(top.Explanation, marker)
		if named != c.flagged || c.flagged && (!res.Metadata.NoConfidentMatch || top.Score >= 0.5) {
			t.Errorf("%s %q: no_confident_match %v, top %s %.3f, explanation %q: want %s %v",
				mode, c.query, res.Metadata.NoConfidentMatch, top.Name, top.Score, top.Explanation, rule, c.flagged)
		}
	}
}

// TestUnservedName: a request that asks for a named thing no tool knows
// ("my Alexa") is flagged whatever its verb; a name that qualifies a noun
// ("a Fender guitar rep") is an argument value.
func TestUnservedName(t *testing.T) {
	searchExample(t, []unservedCase{
		{"read my latest email aloud on my Alexa", true},
		{"create a calendar event for lunch with a Fender guitar rep", false},
		{"create a calendar event for lunch with Maria", false},
		{"Create A Calendar Event For My Dentist", false}, // Title Case: no name
		{"send an email to my Boss", false},               // a person by role, capitalized: no name
	}, flaggedBy("the unserved name", "the named thing"))
}

// TestUnservedTaskReadOnly: a lone step whose verb none of the best tools
// does is unserved whatever its object when those tools only read
// (readOnly): the weather readers have "air", none orders anything. In
// keyword mode the filesystem and github tools (which act) are among the
// best three, so the object decides there.
func TestUnservedTaskReadOnly(t *testing.T) {
	q := "The air quality in Delhi is terrible this week. Please order an air purifier for my apartment there."
	searchExample(t, []unservedCase{{q, true}}, func(t *testing.T, mode string, c unservedCase, res search.Result) {
		top := res.References[0]
		task := strings.Contains(top.Explanation, "a step of the task")
		if want := mode == "default"; task != want {
			t.Errorf("%s %q: top %s %.3f, explanation %q: want the unserved task %v", mode, c.query, top.Name, top.Score, top.Explanation, want)
		}
	})
}

// TestNoMatchStats pins how often no_confident_match is set on the example
// catalog's labelled sets in evaluation/testdata/nomatch (answerable and
// no-answer queries; the held-out pair was written after the first rule
// was fixed, the second held-out pair before the second round and run
// once after it, the fourth before semantic vouching was fit and run once
// after it) and on its ranking fixture, in both modes, as a committed
// nomatch_stats.txt; rewrite it with
//
//	go test ./search -run TestNoMatchStats -update
func TestNoMatchStats(t *testing.T) {
	dir := filepath.Join("..", "evaluation", "testdata")
	sets := []struct{ name, answerable, noAnswer string }{
		{"fixture", "testdata/eval/example/queries.jsonl", filepath.Join(dir, "noanswer", "example.jsonl")},
		{"tuning", filepath.Join(dir, "nomatch", "example-answerable.jsonl"), filepath.Join(dir, "nomatch", "example-noanswer.jsonl")},
		{"held-out", filepath.Join(dir, "nomatch", "example-heldout-answerable.jsonl"), filepath.Join(dir, "nomatch", "example-heldout-noanswer.jsonl")},
		{"held-out-2", filepath.Join(dir, "nomatch", "example-heldout2-answerable.jsonl"), filepath.Join(dir, "nomatch", "example-heldout2-noanswer.jsonl")},
		{"held-out-4", filepath.Join(dir, "nomatch", "example-heldout4-answerable.jsonl"), filepath.Join(dir, "nomatch", "example-heldout4-noanswer.jsonl")},
	}
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	var b strings.Builder
	b.WriteString("# no_confident_match on the example catalog (evaluation/testdata/nomatch/README.md).\n")
	b.WriteString("# Rewritten by: go test ./search -run TestNoMatchStats -update\n")
	b.WriteString("# set/mode answerable flagged no_answer flagged\n")
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for _, s := range sets {
			ans, err := evaluation.LoadQueries(s.answerable)
			if err != nil {
				t.Fatal(err)
			}
			na, err := evaluation.LoadNoAnswer(s.noAnswer)
			if err != nil {
				t.Fatal(err)
			}
			count := func(qs []evaluation.Query) int {
				n := 0
				for _, q := range qs {
					res, err := e.Search(context.Background(), search.Request{Query: q.Query, Mode: m.mode, MaxResults: goldenDepth})
					if err != nil {
						t.Fatalf("%s %s: %v", s.name, q.ID, err)
					}
					if unconfident(res) {
						n++
					}
				}
				return n
			}
			fa, fn := count(ans), count(na)
			fmt.Fprintf(&b, "%s/%s %d %.3f %d %.3f\n", s.name, m.name, len(ans), float64(fa)/float64(len(ans)), len(na), float64(fn)/float64(len(na)))
		}
	}
	checkGolden(t, "testdata/eval/nomatch_stats.txt", b.String())
}

// TestUnservedActionLearned: a tool that learning from use lifted for a
// wording serves it ("publish" the event: agents used create_event for
// it), so the unserved-action rule does not flag it.
func TestUnservedActionLearned(t *testing.T) {
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	tools := []search.Tool{
		{Name: "notion__append_block", Server: "notion", Description: "Interact with the Notion API."},
		{Name: "docs__write_page", Server: "docs", Description: "Write a page of text to a document."},
		{Name: "calendar__create_event", Server: "calendar", Description: "Create a calendar event for a meeting."},
		{Name: "slack__send_message", Server: "slack", Description: "Send a message to a Slack channel."},
	}
	e, err := search.NewFromTools(tools, search.Config{Embedder: emb, Learn: search.LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	if err := e.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	const q = "publish the calendar event for the meeting"
	unserved := func(res search.Result) bool {
		return len(res.References) > 0 && strings.Contains(res.References[0].Explanation, "unserved action")
	}
	res, err := e.Search(ctx, search.Request{Query: q, MaxResults: 5, Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	if !unserved(res) || !res.Metadata.NoConfidentMatch {
		t.Fatalf("before learning: want the unserved action flagged, got %+v", res.References)
	}
	for i := range 3 {
		s := fmt.Sprintf("session-%d", i)
		if _, err := e.Search(ctx, search.Request{Query: q, SessionID: s, MaxResults: 10}); err != nil {
			t.Fatal(err)
		}
		if rep, err := e.ReportToolUse(ctx, search.ToolUse{SessionID: s, Tool: "calendar__create_event", Outcome: search.OutcomeSuccess}); err != nil || !rep.Recorded {
			t.Fatalf("ReportToolUse = %+v, %v", rep, err)
		}
	}
	res, err = e.Search(ctx, search.Request{Query: q, MaxResults: 5, Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	if top := res.References[0]; top.Name != "calendar__create_event" || top.Learned == nil || unserved(res) || res.Metadata.NoConfidentMatch {
		t.Errorf("after learning: top %s %.3f (learned %v), explanation %q: want calendar__create_event lifted, confident", top.Name, top.Score, top.Learned, top.Explanation)
	}
}

// TestUnservedPhrasal: a top tool serves a light verb and its particle
// ("check in") only when it has them as words, together or joined
// ("check_in", "check-in", "checkin"); "check inbox" and "checking" are
// other words.
func TestUnservedPhrasal(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "mail__check_inbox", Description: "Check inbox for new messages, checking every folder."},
		{Name: "travel__search_flights", Description: "Search for flights between two airports on a date."},
		{Name: "travel__get_flight_status", Description: "Get the status of a flight by its number."},
		{Name: "weather__get_forecast", Description: "Get the weather forecast for a city."},
	}
	for _, c := range []struct {
		checkin string // the fourth tool's description
		flagged bool
	}{
		{"Cancel a booked flight.", true},
		{"Check in for a booked flight and get the boarding pass.", false},
		{"Online check-in for a booked flight.", false},
		{"Do the checkin for a booked flight.", false},
	} {
		snap, err := catalog.NewSnapshot(append(slices.Clone(tools), catalog.Tool{Name: "travel__flight_desk", Description: c.checkin}))
		if err != nil {
			t.Fatal(err)
		}
		e := newEngine(t, snap, search.Config{})
		q := "check me in for my flight"
		res, err := e.Search(context.Background(), search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 5, Debug: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) == 0 {
			t.Fatalf("%q: no results", q)
		}
		if got := strings.Contains(res.References[0].Explanation, `does "check in"`); got != c.flagged {
			t.Errorf("flight desk %q: %q unserved as \"check in\" = %v, want %v (top %s: %s)", c.checkin, q, got, c.flagged, res.References[0].Name, res.References[0].Explanation)
		}
	}
}

// TestCommandVerbs: a software command used as a verb ("mkdir",
// "screenshot") is served by a tool that names what it does — its action
// or its object ("directory" for mkdir: fallback.VerbSynonyms), also
// after a support verb in its name ("take_screenshot") — whatever the
// request's object; a tool that only reads or makes other things does
// not serve it.
func TestCommandVerbs(t *testing.T) {
	tools := []catalog.Tool{
		{Name: "notes__create_note", Description: "Create a note with a title and tags."},
		{Name: "web__fetch_url", Description: "Fetch a web page and return its text."},
		{Name: "weather__get_forecast", Description: "Get the weather forecast for a city."},
	}
	for _, c := range []struct {
		tool    catalog.Tool // the fourth tool
		query   string
		flagged bool
	}{
		{catalog.Tool{Name: "browser__take_screenshot", Description: "Take a screenshot of the current page."}, "take a screenshot of the website example.org", false},
		{catalog.Tool{Name: "browser__navigate", Description: "Navigate to a URL in the browser."}, "take a screenshot of the web page example.org", true},
		{catalog.Tool{Name: "fs__create_directory", Description: "Create a new directory."}, "mkdir a new logs directory for the notes", false},
		{catalog.Tool{Name: "fs__create_file", Description: "Create a new file."}, "mkdir a new logs directory for the notes", true},
	} {
		snap, err := catalog.NewSnapshot(append(slices.Clone(tools), c.tool))
		if err != nil {
			t.Fatal(err)
		}
		e := newEngine(t, snap, search.Config{})
		res, err := e.Search(context.Background(), search.Request{Query: c.query, Mode: search.ModeKeyword, MaxResults: 5, Debug: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) == 0 {
			t.Fatalf("%q: no results", c.query)
		}
		top := res.References[0]
		if got := strings.Contains(top.Explanation, "unserved action"); got != c.flagged {
			t.Errorf("with %s, %q: unserved = %v, want %v (top %s: %s)", c.tool.Name, c.query, got, c.flagged, top.Name, top.Explanation)
		}
	}
}

// TestUnservedPast: a request about the past (a past question, or
// "historical") is not served by tools that report the present or the
// future; it is by a tool that keeps the past (slack__get_channel_history,
// git__log's "most recent commits"), and a request in the present is not
// about the past.
func TestUnservedPast(t *testing.T) {
	searchExample(t, []unservedCase{
		{"what was the temperature in London last July", true},
		{"historical weather Chicago July 4 2019", true},
		{"did it rain in Paris on 14 July 2019", true},
		{"what is the temperature in London right now", false},
		{"what did alice post in #general this morning", false},
		{"what were the last five commits on main", false},
		{"what was the weather in Paris on 14 July 2019 and what is the current forecast", false}, // it asks for the present too
	}, func(t *testing.T, mode string, c unservedCase, res search.Result) {
		top := res.References[0]
		if got := strings.Contains(top.Explanation, "asks about the past"); got != c.flagged {
			t.Errorf("%s %q: unserved past = %v, want %v (top %s %.3f: %s)", mode, c.query, got, c.flagged, top.Name, top.Score, top.Explanation)
		}
		if c.flagged && !res.Metadata.NoConfidentMatch {
			t.Errorf("%s %q: not flagged no_confident_match", mode, c.query)
		}
	})
}

// TestOwnActionCoverage: a request that opens with the top tool's own
// action and names what it acts on is not discounted for the names
// ("geocode 221B Baker Street London"); a verb that is only a word of the
// top tool's name ("email" in email__read_email, which reads) is no own
// action, and its names still count against the search in keyword mode.
// Since a request's verb reorders the best three (requestRead), "email
// Maria the agenda for Monday" finds email__send_email first in keyword
// mode, which does the verb, and is confident.
func TestOwnActionCoverage(t *testing.T) {
	cases := []struct {
		query, top string
		mode       string // "" for both modes
		flagged    bool
	}{
		{"geocode 221B Baker Street London", "maps__geocode", "", false},
		{"email Maria the agenda for Monday", "email__send_email", "keyword", false},
	}
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	searchEachExample(t, queries, func(_ search.Mode, name string, i int, res search.Result) {
		c := cases[i]
		if c.mode != "" && c.mode != name {
			return
		}
		if len(res.References) == 0 {
			t.Fatalf("%s %q: no results", name, c.query)
		}
		top := res.References[0]
		if top.Name != c.top || res.Metadata.NoConfidentMatch != c.flagged {
			t.Errorf("%s %q: top %s %.3f, no_confident_match %v; want %s, %v (%s)", name, c.query, top.Name, top.Score, res.Metadata.NoConfidentMatch, c.top, c.flagged, top.Explanation)
		}
	})
}

// TestCoverageVerbs: a request's verb that the example catalog says
// otherwise ("remove" → delete, "ping" → send: fallback.VerbSynonyms) counts as a
// word the catalog knows in the calibrated score's coverage, so a right
// first tool is confident; a light synonym does not count ("print" →
// read), and a near miss said in a synonym is still flagged by the
// no-match rules ("cancel my flight": the calendar tools delete events).
func TestCoverageVerbs(t *testing.T) {
	topAndFlag(t, []topCase{
		{"remove the team lunch from my calendar", "calendar__delete_event", false},
		{"ping the team on slack about the outage", "slack__send_message", false},
		{"print the quarterly report pdf", "", true},
		{"cancel my flight to Denver", "", true},
	})
}

// TestLetKnowCoverage: in a request framed "let X know ...", the frame,
// whom to tell and the message are no words the example catalog must
// know (fallback.freeTextWords), so a right first tool is confident in
// both modes.
func TestLetKnowCoverage(t *testing.T) {
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for _, q := range []string{"let everyone in #releases know v2.8 is live", "let the team in #design know the mockups are ready"} {
			res, err := e.Search(context.Background(), search.Request{Query: q, Mode: m.mode, MaxResults: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != "slack__send_message" || res.Metadata.NoConfidentMatch {
				t.Errorf("%s %q: %+v, no_confident_match %v; want slack__send_message, confident", m.name, q, res.References, res.Metadata.NoConfidentMatch)
			}
		}
	}
}

// TestAcronymObject: a word in capitals after the verb ("an SMS") is the
// request's object, not an argument value, so the unserved object reads
// it: an e-mail tool that sends does not send an SMS. Requests whose
// acronym the catalog serves stay confident.
func TestAcronymObject(t *testing.T) {
	searchExample(t, []unservedCase{
		{"Send an SMS to +1 415 555 0134 saying I'm running ten minutes late.", true},
		{"email the PDF report to bob@example.com", false},
		{"send a DM to alice on slack saying hi", false},
		// A short form is in the tool that has its full words (ownsWord):
		// "PR" in github__add_issue_comment's "pull request", "DM" in
		// slack__send_message's "direct message".
		{"Leave a comment on PR 12 in acme/api saying ship it", false},
		{"comment on the PR for the login fix", false},
		{"send a DM to dana saying hi", false},
		{"delete PR 9 in acme/web", true}, // the tools that delete have no pull request
	}, flaggedBy("the unserved object", "lack its object"))
}

// TestRescheduleFrame: a request that moves a thing in time (a move,
// push, shift or bump verb with a time after it) is read as keyword
// search reads it, by both the coverage and the unserved action: its
// verb and times are understood as reschedule and the event's time
// (fallback.Reschedules), and a tool that updates events serves it,
// whatever the catalog calls what is moved. Without a time the verb is
// its own ("push my local commits to origin").
func TestRescheduleFrame(t *testing.T) {
	topAndFlag(t, []topCase{
		{"push my dentist appointment on Friday to 4pm", "calendar__update_event", false},
		{"shift my dentist appointment on Thursday to 4pm", "calendar__update_event", false},
		{"push the standup an hour later tomorrow", "calendar__update_event", false},
		{"move the dentist appointment to Friday at 3", "calendar__update_event", false}, // a time after "to" is no place
		{"push my local commits to origin", "", true},
		{"push my branch to origin tomorrow morning", "", true}, // no top tool updates events
		// A change of status is a transition (fallback.VerbSynonyms).
		{"change jira issue status to In Progress", "jira__transition_issue", false},
	})
}

// TestDataFrameServed: a request on a database's data (fallback.DataFrame)
// is served by a tool that runs its SQL statement (doesData), in both
// the ranking and the unserved action: "select" and "count" are done by
// a tool that runs queries, whatever its name's verb. A spreadsheet's
// rows are no database's.
func TestDataFrameServed(t *testing.T) {
	topAndFlag(t, []topCase{
		{"select the five oldest rows from the invoices table", "postgres__query", false},
		{"count the rows in the payments table from last week", "postgres__query", false},
		{"how many rows in the invoices table are unpaid", "postgres__query", false},
		{"delete the empty rows in my Excel spreadsheet", "", true},
	})
}

// TestKeywordListThing: a keyword list (no article, preposition or
// pronoun) whose first word is the top tool's thing, named in its name
// after its verb and followed by another word of the tool, opens with no
// verb (namesTopThing); a keyword list that opens with a verb the best
// tools do not do is still flagged.
func TestKeywordListThing(t *testing.T) {
	topAndFlag(t, []topCase{
		{"file size permissions modified date", "filesystem__get_file_info", false},
		{"slack message search keyword outage", "slack__search_messages", false},
		{"merge pull request github", "", true},
		{"mkdir create new folder", "", true},
	})
}

// topCase is a request, the first tool it must find on the example
// catalog ("" when any) and whether the search is flagged
// no_confident_match (topAndFlag).
type topCase struct {
	query   string
	top     string
	flagged bool
}

// topAndFlag searches each case in every ranking mode on the example
// catalog and checks its first tool and its flag.
func topAndFlag(t *testing.T, cases []topCase) {
	t.Helper()
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for _, c := range cases {
			res, err := e.Search(context.Background(), search.Request{Query: c.query, Mode: m.mode, MaxResults: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || c.top != "" && res.References[0].Name != c.top || res.Metadata.NoConfidentMatch != c.flagged {
				t.Errorf("%s %q: %+v, no_confident_match %v; want top %q, flagged %v", m.name, c.query, res.References, res.Metadata.NoConfidentMatch, c.top, c.flagged)
			}
		}
	}
}

// TestNamedThingAtATime: a request that names the top tool's thing (a
// word of its name, or a value of a kind it takes by name: a #channel)
// and a time the catalog does not know is calibrated without the time
// (fallback.Result.WhenCoverage, namesThing), in every mode; a near miss
// whose top tool has only a word of its description ("count", "index")
// keeps the time counted and stays flagged, and so does a recurrence
// ("every week"), which the tool would have to keep.
func TestNamedThingAtATime(t *testing.T) {
	topAndFlag(t, []topCase{
		{"what was said in #general yesterday", "slack__get_channel_history", false},
		{"what came up in #standup lately", "slack__get_channel_history", false},
		{"anything posted in #deploys recently", "slack__get_channel_history", false},
		{"is the air in Quito bad this evening", "weather__get_air_quality", false},
		{"what's the wave count in Nice today", "", true},
		{"what's the bloom index in Kyoto today", "", true},
		{"make the Tuesday sync repeat every week, event 9xq2", "", true},
	})
}

// TestObjectInFile: what a request changes inside a file it names after
// "in" is the file's content, which a tool doing the verb to files
// serves whatever its words (inFileServed); a directory is no such
// place, and the object stays unserved.
func TestObjectInFile(t *testing.T) {
	topAndFlag(t, []topCase{
		{"change the timeout from 30 to 60 in settings.yaml", "filesystem__edit_file", false},
		{"replace the version 1.2 with 1.3 in package.json", "filesystem__edit_file", false},
		{"change the timeout to 60 in ~/config", "", true},
	})
}

// TestDropDeletes: "drop" a thing is to delete or remove it
// (fallback.VerbSynonyms), so a tool that deletes does what was asked.
func TestDropDeletes(t *testing.T) {
	topAndFlag(t, []topCase{
		{"drop event 8hq2 from the calendar", "calendar__delete_event", false},
		{"drop note n-5521 from my workspace", "notes__delete_note", false},
	})
}

// TestEverydayConditions: a request in everyday words for a condition a
// weather tool reports (fallback's everydayWords) finds that tool and is
// confident, in every mode; the catalog knows none of its words else.
func TestEverydayConditions(t *testing.T) {
	topAndFlag(t, []topCase{
		{"will it snow in Chicago on Sunday", "weather__get_forecast", false},
		{"how smoggy is Beijing", "weather__get_air_quality", false},
		{"do I need an umbrella in Oslo today", "weather__get_forecast", false},
	})
}

// TestEverydayPlainWords: the everyday words people use for what the
// catalog's tools say plainly (fallback's everydayWords, the fourteenth
// session's entries: a coat for the weather, getting soaked for a
// forecast, a drive or a walk for a route, a diary for the calendar, a
// spot for a place) find those tools and are confident, in every mode;
// each was flagged before, the catalog knowing no word of its ask. A
// word of another sense out of a place's or the weather's context, a
// thing worn that is not asked about as worn (bought, ordered), or a
// verb no tool does, makes no confident match.
func TestEverydayPlainWords(t *testing.T) {
	topAndFlag(t, []topCase{
		{"do I need a jacket in Dublin this evening", "weather__get_current_weather", false},
		{"will we get soaked at the match in Cardiff on Sunday", "weather__get_forecast", false},
		{"add dentist at 3pm Friday to my diary", "calendar__create_event", false},
		{"any good brunch spots near Kreuzberg in Berlin", "maps__search_places", false},
		{"buy a winter jacket online", "", true},
		{"test drive a Tesla in Austin", "", true},
		{"walk me through setting up the repo", "", true},
		// a thing worn is the weather's only when asked about wearing it (wornAt)
		{"how much is a winter coat at Zara in Madrid", "", true},
		{"is the new jacket I ordered from Uniqlo shipped yet", "", true},
	})
}

// TestPhraseCoverage: a phrase that reads as its plain words ("how big"
// as size, "how far" as distance: verbSynonyms' phrases) is understood
// as it reads, and its word counts as known in coverage when the catalog
// knows one of those words, as a frame's does (fallback's framed): the
// request is confident, in every mode.
func TestPhraseCoverage(t *testing.T) {
	topAndFlag(t, []topCase{
		{"How big is /srv/exports/q3-ledger.parquet, and when was it written?", "filesystem__get_file_info", false},
		{"how far is Braga from Porto by road", "", false},
	})
}

// TestEverydayOtherSense: an everyday word of another common sense
// (fallback's everydayWords otherSense: "hot", "cold", "freezing",
// "warning", "advisory", "hazy") reads as its weather name only in a
// request about the weather (a place, a weather word, a day): a near miss
// in that other sense is no confident weather match in any mode, while
// the same words about the weather still find the weather tools.
func TestEverydayOtherSense(t *testing.T) {
	snap := loadSnapshot(t, "testdata/eval/example/catalog.json")
	for _, m := range rankingModes(t) {
		e := m.engine(snap)
		for _, q := range []string{
			"show me the compiler warnings from the last build",
			"list the open warnings in the sentry project",
			"my laptop keeps freezing, what can I do",
			"is the deploy hot or cold",
			"cold storage pricing for S3",
			"hot reload the dev server",
			"a warning about deprecated APIs in the build log",
			"list the security advisories for our npm dependencies",
			"my phone screen looks hazy after the update",
			"why is my GPU running so hot",
			// a plain everyday word that is not the weather's (weatherNames)
			"check the mail for a warning from the security team",
			"any advisories in my mail about the payroll system",
			"any tickets about the hot reload warning",
		} {
			res, err := e.Search(context.Background(), search.Request{Query: q, Mode: m.mode, MaxResults: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) > 0 && strings.HasPrefix(res.References[0].Name, "weather__") && !res.Metadata.NoConfidentMatch {
				t.Errorf("%s %q: confident %s", m.name, q, res.References[0].Name)
			}
		}
	}
	topAndFlag(t, []topCase{
		{"is it freezing outside", "weather__get_current_weather", false},
		{"how cold will it be in Oslo tomorrow", "weather__get_forecast", false},
		{"is it going to be chilly", "weather__get_current_weather", false}, // the weather's "it" (weatherIt), no place
	})
}

// TestDataInTable: a request on data that names a table as its place is
// served by the tool that runs its statement, whatever its object's words
// (the table's data); a request on rows or a table of other software is
// still flagged.
func TestDataInTable(t *testing.T) {
	topAndFlag(t, []topCase{
		{"set status = 'paid' for order 5521 in the orders table", "postgres__execute", false},
		{"insert a new customer named Ada into the customers table", "postgres__execute", false},
		{"delete the empty rows in my Excel spreadsheet", "", true},
		{"update the pivot table in the quarterly workbook", "", true},
	})
}

// TestPhrasalAction: an action verb and its particle that
// fallback.VerbSynonyms has as a phrase are one verb (openingAction,
// phrasalAction): "call off" cancels, so calendar__delete_event does it
// ("call" alone is no tool's action, and the request was flagged); a
// near miss said with the phrase is still flagged.
func TestPhrasalAction(t *testing.T) {
	topAndFlag(t, []topCase{
		{"call off event e77 on the team calendar", "calendar__delete_event", false},
		{"please call off my event with id 5tt", "calendar__delete_event", false},
		{"call off the slack reminder", "", true},
	})
}

// TestUnservedWhen: a request whose only words the top tool has are a
// time's, and one of whose content words the catalog does not know,
// asks about something no tool has (unservedwhen.go): the weather
// forecast says "tomorrow", and nothing of the moon or of sunrise. A
// request in everyday words for the weather ("umbrella", "snow") is
// still served.
func TestUnservedWhen(t *testing.T) {
	topAndFlag(t, []topCase{
		{"when is moonrise in Oslo tomorrow", "", true},
		{"when does the sun come up in Lisbon tomorrow", "", true},
		{"do I need an umbrella in Oslo tomorrow", "weather__get_forecast", false},
		{"will it snow in Chicago tomorrow", "weather__get_forecast", false},
		{"what's the weather in Paris tomorrow", "weather__get_forecast", false},
	})
}

// TestObjectEndsAtSo: "so" ends a request's object (fallback's
// objectEnds): what follows says what the change is for, and is no object
// a top tool must have ("Overwrite ~/plans/week.md so it only holds the
// heading ...": filesystem__write_file has no "heading").
func TestObjectEndsAtSo(t *testing.T) {
	topAndFlag(t, []topCase{
		{`Overwrite ~/plans/week.md so it only holds the heading "Week 48"`, "filesystem__write_file", false},
	})
}

// TestUnservedPlace: a top tool that does the request's verb does not
// serve its object when the object's head is a thing the tool acts in
// (unservedplace.go: the thing of an identifier it takes, the place its
// description names after "in", "on", "across"), not one of its name;
// "new" serves no object. The same thing after a preposition is the
// request's place too, and the tool serves it.
func TestUnservedPlace(t *testing.T) {
	obj := json.RawMessage(`{"type":"object","properties":{"board_id":{"type":"string"},"title":{"type":"string"}}}`)
	flagsOn(t, []catalog.Tool{
		{Name: "kanban__create_card", Description: "Create a new card on a board, with a title and a due date.", InputSchema: obj},
		{Name: "kanban__archive_card", Description: "Archive a card of a board.", InputSchema: obj},
		{Name: "kanban__create_label", Description: "Create a new colored label for cards.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "kanban__list_cards", Description: "List the cards in a board's column.", InputSchema: obj},
	}, []unservedCase{
		{"create a new board called Roadmap", true}, // create_card creates on a board, create_label a new label
		{"archive the whole board", true},           // archive_card takes the board's id: it archives cards
		{"create a new card called Launch on the Roadmap board", false},
		{"archive the launch card on the roadmap board", false},
		{"create a new label called urgent", false},
	})
	flaggedExample(t, []unservedCase{
		{"set up a new calendar named Chores", true},                // calendar__create_event takes a calendar's id
		{"remove my work calendar", true},                           // so does calendar__delete_event
		{"create a brand new github repository for the docs", true}, // create_issue, create_pull_request: "in a GitHub repository"
		{"add a new event to my work calendar", false},
		{"remove the standup event from my calendar", false},
		{"update my work calendar: move the dentist to 4pm", false}, // what changes follows the colon
		{"open a new pull request in acme/docs from docs-fix into main", false},
	})
}

// TestVerbObject: a top tool that does the request's verb to another
// thing (its description's frame: "Add a comment to ...") does not serve
// the request, nor one that makes the thing the request names by its
// identifier as the place of its object.
func TestVerbObject(t *testing.T) {
	obj := json.RawMessage(`{"type":"object","properties":{"ticket_id":{"type":"string"},"body":{"type":"string"}}}`)
	flagsOn(t, []catalog.Tool{
		{Name: "tracker__add_comment", Description: "Add a comment to a ticket.", InputSchema: obj},
		{Name: "tracker__create_ticket", Description: "Create a new ticket in a project, with a title and tags.", InputSchema: json.RawMessage(`{"type":"object","properties":{"project":{"type":"string"},"title":{"type":"string"},"tags":{"type":"array"}}}`)},
		{Name: "tracker__get_ticket", Description: "Get a ticket with its title, tags, state and comments.", InputSchema: obj},
		{Name: "tracker__close_ticket", Description: "Close a ticket.", InputSchema: obj},
	}, []unservedCase{
		{"add the tag urgent to ticket 77", true}, // add_comment adds comments, create_ticket makes tickets
		{"add a comment to ticket 77", false},
		{"create a new ticket in the ops project with the tag urgent", false},
	})
	flagsOn(t, []catalog.Tool{
		{Name: "car__set_navigation", Description: "Set the navigation destination of the car.", InputSchema: json.RawMessage(`{"type":"object","properties":{"destination":{"type":"string"}}}`)},
		{Name: "car__play_radio", Description: "Play a radio station at a volume.", InputSchema: json.RawMessage(`{"type":"object","properties":{"station":{"type":"string"},"level":{"type":"integer"}}}`)},
		{Name: "car__get_status", Description: "Get the car's fuel level and tire pressure, read directly from its sensors.", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}, []unservedCase{
		{"set the navigation volume to 5", true},             // set_navigation sets a destination: the volume is no word of it
		{"set navigation directly to 12 Main Street", false}, // an adverb, no thing
		{"set the navigation destination to 12 Main Street", false},
	})
	flagsOn(t, []catalog.Tool{
		{Name: "helpdesk__close_ticket", Description: "Part of a ticketing system to create, view and manage support tickets. Close a ticket.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"ticket_id": {"type": "integer", "description": "ID of the ticket to be closed. "}}, "required": ["ticket_id"]}`)},
		{Name: "helpdesk__create_ticket", Description: "Part of a ticketing system to create, view and manage support tickets. Create a ticket in the system and queue it.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"title": {"type": "string", "description": "Title of the ticket."}, "description": {"type": "string", "description": "Description of the ticket. Defaults to an empty string.", "default": ""}, "priority": {"type": "integer", "description": "Priority of the ticket, from 1 to 5. Defaults to 1. 5 is the highest priority. ", "default": 1}}, "required": ["title"]}`)},
		{Name: "helpdesk__edit_ticket", Description: "Part of a ticketing system to create, view and manage support tickets. Modify the details of an existing ticket.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"ticket_id": {"type": "integer", "description": "ID of the ticket to be changed."}, "updates": {"type": "object", "description": "Dictionary containing the fields to be updated.", "properties": {"title": {"type": "string", "description": "[Optional] New title for the ticket."}, "description": {"type": "string", "description": "[Optional] New description for the ticket."}, "status": {"type": "string", "description": "[Optional] New status for the ticket."}, "priority": {"type": "integer", "description": "[Optional] New priority for the ticket."}}}}, "required": ["ticket_id", "updates"]}`)},
		{Name: "helpdesk__get_ticket", Description: "Part of a ticketing system to create, view and manage support tickets. Get a specific ticket by its ID.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"ticket_id": {"type": "integer", "description": "ID of the ticket to retrieve. "}}, "required": ["ticket_id"]}`)},
		{Name: "helpdesk__get_user_tickets", Description: "Part of a ticketing system to create, view and manage support tickets. Get all tickets created by the current user, optionally filtered by status.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"status": {"type": "string", "description": "Status to filter tickets by. If None, return all tickets. ", "default": "None"}}, "required": []}`)},
		{Name: "helpdesk__resolve_ticket", Description: "Part of a ticketing system to create, view and manage support tickets. Resolve a ticket with a resolution.", InputSchema: json.RawMessage(`{"type": "object", "properties": {"ticket_id": {"type": "integer", "description": "ID of the ticket to be resolved."}, "resolution": {"type": "string", "description": "Resolution details for the ticket. "}}, "required": ["ticket_id", "resolution"]}`)},
	}, []unservedCase{
		{"Change the priority of ticket 4471 to high.", false}, // "of" names the thing's owner: edit_ticket modifies the details of a ticket, and its priority is one
	})
	flaggedExample(t, []unservedCase{
		{"add the wontfix label to issue 88 in acme/api", true},
		{"Add the label p1-blocker to issue #12 in acme/web", true}, // the name of the label is no word of the catalog: its thing is "label"
		{"add a comment to issue 88 in acme/api saying it is fixed", false},
		{"add a new event to my work calendar", false},
		{"write text to a new file on disk", false}, // no file named by an identifier: write_file creates one
		{"change my calendar time zone to Berlin", true},
		{"update the body of note n_88 with the new agenda", false}, // an attribute after "of" is not read: "body" is the note's content
		{"add the attendees dana and li to event 9kd2", false},      // update_event takes the event's id and has attendees (placeChanged)
		{"change the title of event 8fk2 to Standup", false},
		{"update the attendees of event 8fk2 to dana and li", false},
	})
}

// TestVerbObjectElsewhere: a tool that puts its thing in one place ("Move
// a document to the trash") does not serve a request that puts it in
// another it has no word of (elsewhere); the same place, or a tool that
// names the request's place, does.
func TestVerbObjectElsewhere(t *testing.T) {
	doc := json.RawMessage(`{"type":"object","properties":{"doc_id":{"type":"string"}}}`)
	flagsOn(t, []catalog.Tool{
		{Name: "docs__trash_document", Description: "Move a document to the trash. It can be restored for 30 days.", InputSchema: doc},
		{Name: "docs__get_document", Description: "Get a document with its title and text.", InputSchema: doc},
		{Name: "docs__create_document", Description: "Create a document with a title and text.", InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"text":{"type":"string"}}}`)},
	}, []unservedCase{
		{"move document d_12 into the Projects shelf", true}, // trash_document moves documents to the trash only
		{"move document d_12 to the trash", false},
		{"move the budget document to the trash", false},
	})
}

// TestVersionInOneStep: a long one-imperative request with a version
// number is one sentence (severalSentences), read by the unserved action.
func TestVersionInOneStep(t *testing.T) {
	flaggedExample(t, []unservedCase{
		{"Publish version 1.2.0 of acme/web with the changelog as its release notes", true},
		{"Send a Slack message to #releases saying that version 1.2.0 is out now for everyone", false},
	})
}

// TestTicketNamesIssueKey: a word right before a value that names the
// value's kind ("ticket OPS-12") is served by a tool that takes values
// of that kind, whatever word the tool uses for them (kindLabels: the Jira
// tools say "issue"); a request whose verb no tool does stays flagged.
func TestTicketNamesIssueKey(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Comment on ticket PAY-33 that QA passed", "jira__add_comment", false},
		{"Close ticket OPS-12", "jira__transition_issue", false},
		{"Move ticket OPS-77 to In Review", "jira__transition_issue", false},
		{"Assign ticket OPS-9 to me", "", true},
		{"Create an empty directory /data/exports/2026", "", true},
	})
}

// TestBeginVerbsMake: a verb of beginning with a new thing as its object
// ("start a new branch", "raise an issue") makes it (beginVerbs), and
// "off" after the object ends it ("off main": where the branch starts).
func TestBeginVerbsMake(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Start a new branch hotfix/login-crash off main in ~/code/web", "git__create_branch", false},
		{"Raise an issue on acme/cli titled 'crash on empty config'", "github__create_issue", false},
		{"Start a new note titled 'Trip ideas' with Kyoto and Seoul", "notes__create_note", false},
		{"Start a 25-minute focus timer", "", true},
		{"start a zoom call with the design team now", "", true},
	})
}

// TestTaskStepMessageText: a step's message text ("... and answer that
// the transfer goes out Monday") is no word of the object a top tool
// must have (unservedTask reads the step's phrase, fallback.Clause.Phrase):
// email__reply_to_email answers, and the request is served.
func TestTaskStepMessageText(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Dig up the email from the landlord about the deposit (rent@flats.co) and answer that the transfer goes out Monday", "email__read_email", false},
	})
}

// TestDataRunnerServes: a request on a database's data is served by the
// tool among the 3 best that runs its statement, even where that tool
// shares no other word with the request and the rules' candidates
// (servingTop) would leave it out: postgres__execute names no column.
func TestDataRunnerServes(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Add a nullable column last_login_ip to the users table", "", false},
		{"delete the empty rows in my Excel spreadsheet", "", true},
	})
}

// TestCountedPullReads: "pull" with a count in its object retrieves
// records, a read (countedRead), as a request's verb, a later step's or
// a task's step's;
// without a count it is git's pull, which no tool does.
func TestCountedPullReads(t *testing.T) {
	topAndFlag(t, []topCase{
		{"Show the schema of the invoices table and then pull the five biggest unpaid invoices", "", false},
		{"Pull the 20 newest signups from the users table", "", false},
		{"Pull the ten largest refunds from the payments table and then email them to finance@acme.io", "", false}, // two steps (unservedTask)
		{"pull the latest changes from origin", "", true},
	})
}
