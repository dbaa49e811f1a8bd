package search_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/search"
)

// TestQuestionReads checks that a question is answered by a tool that
// reads, not by one that writes (question.go): "what's on my calendar
// tomorrow" matched the calendar tools by "calendar" alone and put the
// one with the shortest description, calendar__delete_event, first. A
// request that asks how to do something is no such question, and the
// best hit keeps its score.
func TestQuestionReads(t *testing.T) {
	firstTools(t, []firstCase{
		{"what's on my calendar tomorrow", search.ModeDefault, "calendar__list_events"},
		{"what's on my calendar tomorrow", search.ModeKeyword, "calendar__list_events"},
		{"which pull requests are still open on acme/api", search.ModeDefault, "github__list_pull_requests"},
		{"who committed last to ~/src/api and when", search.ModeDefault, "git__log"},
		{"how do I create a new jira ticket", search.ModeDefault, "jira__create_issue"},
		// "why" is a question word as any (fallback.WhWord, the one list):
		// github__add_issue_comment and calendar__delete_event came first.
		{"why was issue 45 closed in acme/api", search.ModeDefault, "github__get_issue"},
		{"why is my calendar empty on Friday", search.ModeDefault, "calendar__list_events"},
	})
}

// TestYesNoQuestionReads: a question answered yes or no (yesNoOpener:
// "is", "did", "any" ...) is a question too, answered by a tool that
// reads; "is it possible to send ..." asks for the action (askingWords).
func TestYesNoQuestionReads(t *testing.T) {
	firstTools(t, []firstCase{
		{"Is there anything on my calendar Friday afternoon?", search.ModeDefault, "calendar__list_events"},
		{"Is there anything on my calendar Friday afternoon?", search.ModeKeyword, "calendar__list_events"},
		{"Any new messages in #ops since this morning?", search.ModeKeyword, "slack__get_channel_history"},
		// asking for the action (askingWords): the tool that writes
		{"Is it possible to post a message in #general?", search.ModeDefault, "slack__send_message"},
		{"Is it possible to post a message in #general?", search.ModeKeyword, "slack__send_message"},
	})
}

// TestVerbReads checks that a request that opens with an action verb is
// answered by a tool that does it (question.go, requestRead): a tool
// among the best three whose name or first sentence does the verb
// outranks the ones that do not when their scores are close ("move my
// 2pm meeting to 4pm" put calendar__find_free_time first, "jot down a
// note" notes__delete_note, "stage README.md" git__diff).
func TestVerbReads(t *testing.T) {
	firstTools(t, []firstCase{
		{"move my 2pm meeting to 4pm", search.ModeDefault, "calendar__update_event"},
		{"add a dentist appointment on March 3 at 10am to my calendar", search.ModeDefault, "calendar__create_event"},
		{"jot down a note: call the plumber Monday", search.ModeDefault, "notes__create_note"},
		{"stage README.md", search.ModeDefault, "git__add"},
		{"file a github issue about the broken login page in acme/webapp", search.ModeDefault, "github__create_issue"},
		{"push my 3pm call to tomorrow", search.ModeKeyword, "calendar__update_event"},
		{"send a message to #general", search.ModeDefault, "slack__send_message"}, // the best does the verb: nothing moves
		// A booking at a time (fallback.TimeFrame) over calendar__find_free_time's
		// usage note ("Use it to schedule a meeting before creating the event"): frameFactor.
		{"book a meeting with Omar on Thursday at 11", search.ModeDefault, "calendar__create_event"},
		{"schedule a call with Ana tomorrow at 4pm", search.ModeKeyword, "calendar__create_event"},
	})
}

// TestStatementReads: a request on a database's data is done by the tool
// that runs its SQL statement (doesStatement), however well the tools
// that list and describe tables match its table.
func TestStatementReads(t *testing.T) {
	firstTools(t, []firstCase{
		{"insert rows into a postgres table", search.ModeDefault, "postgres__execute"},
		{"change the price of item 12 to 9.99 in the items table", search.ModeKeyword, "postgres__execute"},
		{"select the five oldest rows from the invoices table", search.ModeDefault, "postgres__query"},
		{"count the rows in the payments table from last week", search.ModeDefault, "postgres__query"},
		// "mark … as" sets a value: an UPDATE (statementVerbs).
		{"Mark each row in invoices with due_date before 2023-06-01 as overdue", search.ModeDefault, "postgres__execute"},
		{"Mark each row in invoices with due_date before 2023-06-01 as overdue", search.ModeKeyword, "postgres__execute"},
		// An SQL statement written in the request is a value (fallback's inlineStatement).
		{"why is this so slow: SELECT * FROM events WHERE owner_id = 7 ORDER BY starts_at", search.ModeDefault, "postgres__explain_query"},
		{"why is this so slow: SELECT * FROM events WHERE owner_id = 7 ORDER BY starts_at", search.ModeKeyword, "postgres__explain_query"},
	})
}

// TestQuestionRegex: a regex pattern is no request in words, so the
// question rule does not read it: a pattern's alternatives match the
// same tools in the same order whichever comes first, a question word
// or not.
func TestQuestionRegex(t *testing.T) {
	e := newSemanticEngine(t, loadSnapshot(t, exampleCatalog))
	var got [][]string
	for _, q := range []string{"when|delete_event|list_events", "delete_event|list_events|when"} {
		res, err := e.Search(context.Background(), search.Request{Query: q, Mode: search.ModeRegex, MaxResults: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) < 2 {
			t.Fatalf("%q: %v; want several tools: the test tests nothing", q, names(res))
		}
		got = append(got, names(res))
	}
	if diff := cmp.Diff(got[1], got[0]); diff != "" {
		t.Errorf("regex order depends on a question word first (-without +with):\n%s", diff)
	}
}

// firstCase is a request, the mode it is searched in, and the first tool
// it must find (firstTools, firstToolsOn).
type firstCase struct {
	query string
	mode  search.Mode
	want  string
}

// firstTools searches each case on the example catalog (the semantic
// engine) and checks its first tool.
func firstTools(t *testing.T, tests []firstCase) {
	t.Helper()
	firstToolsOn(t, newSemanticEngine(t, loadSnapshot(t, exampleCatalog)), tests)
}

// firstToolsOn searches each case with e and checks its first tool.
func firstToolsOn(t *testing.T, e *search.Engine, tests []firstCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.query+"/"+string(tt.mode), func(t *testing.T) {
			res, err := e.Search(context.Background(), search.Request{Query: tt.query, Mode: tt.mode, Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != tt.want {
				t.Errorf("%q: %v, want %s first", tt.query, names(res), tt.want)
			}
		})
	}
}

// TestVerbBesideLearnedHits: the verb rule runs beside hits learning
// lifted (requestRead, doesVerb). Sessions that looked for github issues
// about the login page used github__search_issues, and sessions that
// opened issues used github__create_issue: "file a github issue about the
// broken login page" shares more words with the first, whose lift puts
// it first; the request's verb, which github__create_issue does (and
// its learned queries say), puts that first again, and takes the first's
// lift back (takeBackLifts). A learned tool whose
// learned queries say the verb is not demoted for its own text's
// silence: "log the login page crash as a github issue" after sessions
// that did so with github__create_issue stays with it.
func TestVerbBesideLearnedHits(t *testing.T) {
	e := exampleLearningEngine(t)
	learnFrom(t, e, "search github issues for login page bugs", "github__search_issues", 2)
	learnFrom(t, e, "file a github issue in acme/api about a crash", "github__create_issue", 3)
	const q = "file a github issue about the broken login page in acme/webapp"
	res := search1(t, e, search.Request{Query: q, MaxResults: 5, Debug: true})
	if len(res.References) < 2 || res.References[0].Name != "github__create_issue" {
		for _, r := range res.References {
			t.Log(r.Name, r.Explanation)
		}
		t.Fatalf("%q: %v; want github__create_issue first (it does the verb)", q, names(res))
	}
	// The verb rule takes the demoted tool's lift back (takeBackLifts):
	// its explanation still says learning lifted it before.
	if !slices.ContainsFunc(res.References, func(r search.Reference) bool {
		return r.Name == "github__search_issues" && strings.Contains(r.Explanation, "learned: ")
	}) {
		t.Fatalf("%q: %v; want github__search_issues lifted by learning: the test tests nothing", q, names(res))
	}
}

// The verb rule demotes a best that does the request's verb only by its
// learned queries when a tool below it does the verb by its own text and
// by learned queries that resemble the request more (saidBetter): "book a
// meeting with Lee on Friday at 2" and calendar__create_event over
// calendar__find_free_time, which the sessions that booked a meeting used
// first (the example pool's replay).
func TestVerbBesideLearnedDoers(t *testing.T) {
	e := exampleLearningEngine(t)
	req := search.Request{Query: "book a meeting with Lee on Friday at 2", Mode: search.ModeKeyword, MaxResults: 5}
	if got := names(search1(t, e, req)); len(got) == 0 || got[0] != "calendar__create_event" {
		t.Fatalf("without learning, first = %v; want calendar__create_event", got)
	}
	for i, s := range []struct {
		query string
		tools []string
	}{
		{"put a dentist appointment on my calendar for March 3 at 9am", []string{"calendar__create_event"}},
		{"schedule a meeting with alice tomorrow at 3pm", []string{"calendar__create_event"}},
		{"when are Ana, Ben and Chris all free for an hour next week", []string{"calendar__find_free_time"}},
		{"when are both Sam and I free next week", []string{"calendar__find_free_time"}},
		{"when is everyone free for a call next week", []string{"calendar__find_free_time"}},
		{"Maya and Tom both need to be in a 30-minute sync on Friday. Could you find a slot when maya@acme.com and tom@acme.com are free and book it?", []string{"calendar__find_free_time", "calendar__create_event"}},
		{"Our offsite is next week. Could you find a time when dana, li and I are all free on Thursday and put a planning meeting there?", []string{"calendar__find_free_time", "calendar__create_event"}},
		{"can you find an hour next tuesday when jo@acme.com and I are both free and book a 1:1 then", []string{"calendar__find_free_time", "calendar__create_event"}},
		{"set up a 30 minute call with Sam on Tuesday", []string{"calendar__find_free_time", "calendar__create_event"}},
	} {
		learnSession(t, e, fmt.Sprintf("cal-%d", i), s.query, s.tools...)
	}
	if got := names(search1(t, e, req)); got[0] != "calendar__create_event" {
		t.Errorf("after learning, %q ranks %v; want calendar__create_event first", req.Query, got)
	}
}

// TestStatementBesideLearnedHits: the data rule (doesStatement) runs
// beside hits learning lifted as the verb rule does: sessions that asked
// for the users table's columns lift postgres__describe_table for "how
// many signups were there yesterday in the users table", and the tool
// that runs its SELECT, postgres__query (lifted too, by sessions that
// counted signups), comes first.
func TestStatementBesideLearnedHits(t *testing.T) {
	e := exampleLearningEngine(t)
	learnFrom(t, e, "what columns does the users table have", "postgres__describe_table", 4)
	learnFrom(t, e, "how many customers signed up in March? they are in the signups table", "postgres__query", 2)
	const q = "how many signups were there yesterday in the users table"
	res := search1(t, e, search.Request{Query: q, MaxResults: 5, Debug: true})
	if !isLifted(res, "postgres__describe_table") {
		t.Fatalf("%q: %v; want postgres__describe_table lifted by learning: the test tests nothing", q, names(res))
	}
	if res.References[0].Name != "postgres__query" {
		t.Fatalf("%q: %v; want postgres__query first (it runs the statement)", q, names(res))
	}
}

// TestStatementDepth: a request on data reads statementDepth hits for the
// tool that runs its statement: in the default mode the tools that list
// and describe tables filled the best 3 of "Set plan = 'pro' for customer
// 981 in the accounts table", and postgres__execute was below them.
func TestStatementDepth(t *testing.T) {
	firstTools(t, []firstCase{
		{"Set plan = 'pro' for customer 981 in the accounts table", search.ModeDefault, "postgres__execute"},
	})
}

// TestScheduleQuestion: a question about the speaker's own time ("what am
// I doing on Saturday") is read as one about their calendar
// (fallback's scheduleQuestion): its only other words are times, which the
// weather tools share.
func TestScheduleQuestion(t *testing.T) {
	firstTools(t, []firstCase{
		{"what am I doing on Saturday", search.ModeDefault, "calendar__list_events"},
		{"what am I doing on Saturday", search.ModeKeyword, "calendar__list_events"},
		{"What have I got on between 10 and 4 on Monday 7 December?", search.ModeDefault, "calendar__list_events"},
		{"What have I got on between 10 and 4 on Monday 7 December?", search.ModeKeyword, "calendar__list_events"},
	})
}
