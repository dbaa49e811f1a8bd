package fallback

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/query"
)

// everydayDocs are tools whose text says the plain verb of an everyday
// request, beside tools that share the request's other words.
var everydayDocs = []Document{
	{Name: "notes__get_note", Server: "notes", Description: "Read a note by its title.", ParamNames: []string{"title"}, ParamDescs: []string{"what the note is called"}},
	{Name: "notes__update_note", Server: "notes", Description: "Replace the content of a note, or change its title."},
	{Name: "notes__delete_note", Server: "notes", Description: "Delete a note by its title."},
	{Name: "slack__send_message", Server: "slack", Description: "Send a message to a Slack channel."},
	{Name: "slack__get_channel_history", Server: "slack", Description: "Get the recent messages of a Slack channel."},
	{Name: "slack__list_channels", Server: "slack", Description: "List the channels of a Slack workspace."},
	{Name: "git__checkout", Server: "git", Description: "Switch the working tree to another branch."},
	{Name: "git__create_branch", Server: "git", Description: "Create a new branch."},
	{Name: "git__log", Server: "git", Description: "Show the commit history of a branch."},
	{Name: "maps__get_directions", Server: "maps", Description: "Get directions and the route between two places."},
	{Name: "maps__search_places", Server: "maps", Description: "Search for places near a location."},
	{Name: "files__move_file", Server: "files", Description: "Move a file to another folder."},
	{Name: "calendar__update_event", Server: "calendar", Description: "Change the time or title of a calendar event."},
	{Name: "calendar__delete_event", Server: "calendar", Description: "Delete a calendar event."},
	{Name: "calendar__create_event", Server: "calendar", Description: "Create a calendar event with a title and a start and end time, and invite attendees."},
	{Name: "calendar__list_events", Server: "calendar", Description: "List the events of a calendar between two dates, with their titles, times and places."},
}

func TestKeywordExpandsEverydayVerbs(t *testing.T) {
	ix := NewIndex(everydayDocs)
	tests := []struct {
		query string
		want  string // the top hit with Options.Expand
	}{
		{"bin the note called 'old wifi passwords'", "notes__delete_note"},
		{"please trash the note called groceries", "notes__delete_note"},
		{"let everyone in the releases channel know v2.8 is live", "slack__send_message"},
		{"tell the ops channel the deploy is done", "slack__send_message"},
		{"hop over to the develop branch", "git__checkout"},
		{"how long does it take to cycle from Kreuzberg to Tempelhof", "maps__get_directions"},
		{"move my 2pm meeting to 4pm", "calendar__update_event"},
		{"push the standup an hour later tomorrow", "calendar__update_event"},
		{"show me my calendar events", "calendar__list_events"},
		{"book a sync with Priya tomorrow at 10", "calendar__create_event"},
		{"I'm running late. Can you let the standup channel know I'll join soon?", "slack__send_message"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q := mustParse(t, tt.query)
			plain := ix.Keyword(q, Options{Limit: 3})
			res := ix.Keyword(q, Options{Limit: 3, Expand: true})
			if got := names(ix, res); len(got) == 0 || got[0] != tt.want {
				t.Errorf("Keyword(%q, Expand) = %v, want %s first", tt.query, got, tt.want)
			}
			if got := names(ix, plain); len(got) > 0 && got[0] == tt.want {
				t.Errorf("Keyword(%q) without Expand = %v: the test does not need the expansion", tt.query, got)
			}
			checkScores(t, ix, res)
			if res.Coverage != plain.Coverage || res.WordCoverage != plain.WordCoverage {
				t.Errorf("Keyword(%q): coverage %v/%v with Expand, %v/%v without: synonyms must not count",
					tt.query, res.Coverage, res.WordCoverage, plain.Coverage, plain.WordCoverage)
			}
		})
	}
}

// TestKeywordExpandKeepsOwnWord: a tool that has the request's own verb
// outranks one that has only its synonym.
func TestKeywordExpandKeepsOwnWord(t *testing.T) {
	docs := append([]Document{{Name: "recycle__bin_note", Server: "recycle", Description: "Put a note in the recycle bin."}}, everydayDocs...)
	ix := NewIndex(docs)
	res := ix.Keyword(mustParse(t, "bin the groceries note"), Options{Limit: 2, Expand: true})
	if diff := cmp.Diff([]string{"recycle__bin_note", "notes__delete_note"}, names(ix, res)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRequestExpansions(t *testing.T) {
	tests := []struct {
		request string
		want    []string // keys of verbSynonyms, with the word they join
	}{
		{"bin the draft", []string{"bin@bin"}},
		{"could you please bin the draft", []string{"bin@bin"}},
		{"let the team in design know the mockups are ready", []string{"let _ know@know"}},
		{"let me know the weather in Oslo", nil},
		{"let's bin the draft", []string{"bin@bin"}},
		{"tell the team the build is green", []string{"tell _@tell"}},
		{"tell me the weather", nil},
		{"look it up online", []string{"look up@look"}},
		{"call off the offsite", []string{"call off@call"}},
		{"how do I get to the museum by bike", []string{"by bike@bike"}},
		{"jot down the idea and cycle to work", []string{"jot down@jot", "cycle to@cycle"}},
		{"move my 2pm meeting to 4pm", []string{"move _ time@move", "_ time@2pm"}},
		{"please push the standup to Friday", []string{"move _ time@push", "_ time@friday"}},
		{"move report.pdf into the archive folder", nil}, // no time: a file moves
		{"show me the contents of notes.txt", []string{"show@show"}},
		{"book a sync with Priya tomorrow at 10", []string{"book _ time@book", "_ time@tomorrow"}},
		{"I'm late. Can you let the standup channel know?", []string{"let _ know@know"}},
		{"let the team decide", nil},
		{"add carol to the sync", nil},     // a plain verb matches itself
		{"set a timer", nil},               // likewise
		{"send the draft and bin it", nil}, // a single verb only opening the request
		{"what does bin mean", nil},
		{"open an issue in acme/api titled crash on startup", []string{"open an@open"}},
		{"please open a ticket for the outage", []string{"open a@open"}},
		{"open notes.md and show me what it says", nil}, // a file that exists: read
		{"open my recipes note", nil},
		// A request on a database's data: its verb as the SQL statement,
		// the table that holds the rows as SQL (statementVerbs).
		{"set status = 'shipped' for order 9912 in the orders table", []string{"update _ rows@set", "_ rows@table"}},
		{"how many rows in the invoices table are unpaid", []string{"select _ rows@many", "_ rows@table"}},
		{"insert rows into a postgres table", []string{"insert _ rows@insert", "_ rows@table"}},
		{"add a column email_verified to the users table", []string{"alter _ rows@add", "_ rows@table"}},
		{"delete the empty rows in my spreadsheet", []string{"delete _ rows@delete"}}, // the rows acted on, no container
		{"book a table for four at Nopa", nil},
		{"how big is backup.tar", []string{"how big@big"}},
		{"how long is the drive from Boston to New York", []string{"how long@long", "drive from@drive"}},
		// A message said on a tracker's item is a comment there (threadMessage).
		{"tell them on PR 912 in acme/web that the screenshots look good", []string{"tell _ thread@tell"}},
		{"let the reporter of issue 87 know it is fixed", []string{"tell _ thread@know"}},
		{"reply on ticket 4410 that the firewall change went out", []string{"tell _ thread@reply"}},
		{"tell the #ops channel that PR 912 is merged", []string{"tell _@tell"}}, // said in a channel, of the item
		{"reply to Dana that the ticket is fixed", nil},                          // the item is what is said
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			var ws []planWord
			for _, w := range analysis.Words().Analyze(tt.request) {
				ws = append(ws, planWord{word: w, hasTerms: !analysis.English.Contains(w)})
			}
			var got []string
			for _, v := range requestExpansions(ws, nil) {
				got = append(got, v.key+"@"+ws[v.at].word)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("requestExpansions(%q) (-want +got):\n%s", tt.request, diff)
			}
		})
	}
}

// firstExpanded checks that keyword search with Options.Expand finds
// want first for q.
func firstExpanded(t *testing.T, ix *Index, q query.Query, want string) {
	t.Helper()
	if got := names(ix, ix.Keyword(q, Options{Limit: 3, Expand: true})); len(got) == 0 || got[0] != want {
		t.Errorf("Keyword(%q, Expand) = %v, want %s first", q.Raw, got, want)
	}
}

// sqlDocs are a database server's tools, two of which run statements,
// beside a tool that updates something else.
var sqlDocs = []Document{
	{Name: "db__list_tables", Server: "db", Description: "List the tables in the database, with their estimated row count and size."},
	{Name: "db__describe_table", Server: "db", Description: "Describe the structure of a table: its columns and their types.", ParamNames: []string{"table"}},
	{Name: "db__query", Server: "db", Description: "Run a read-only SQL query and return the rows.", ParamNames: []string{"sql"}},
	{Name: "db__execute", Server: "db", Description: "Execute a SQL statement that changes the database (INSERT, UPDATE, DELETE) and return the number of affected rows.", ParamNames: []string{"sql"}},
	{Name: "notes__update_note", Server: "notes", Description: "Replace the content of a note."},
}

// TestKeywordDataFrame: a request on a database's data reaches the tool
// that runs its statement (SQL) over the tools that name the table it
// is in.
func TestKeywordDataFrame(t *testing.T) {
	ix := NewIndex(sqlDocs)
	for _, tt := range []struct{ query, want string }{
		{"please set status = 'shipped' for order 9912 in the orders table", "db__execute"},
		{"set the plan of account 7 to pro in the accounts table", "db__execute"},
	} {
		q := mustParse(t, tt.query)
		firstExpanded(t, ix, q, tt.want)
		if got := names(ix, ix.Keyword(q, Options{Limit: 3})); len(got) > 0 && got[0] == tt.want {
			t.Errorf("Keyword(%q) without Expand = %v: the test does not need the frame", tt.query, got)
		}
	}
}

// TestKeywordBookReserves: a booking at a time reads as reserving too, so
// a tool that reserves keeps its place beside one that creates events.
func TestKeywordBookReserves(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "calendar_event_create", Description: "Creates a new calendar event for the user and returns the details of the event."},
		{Name: "restaurants_reserve_restaurant", Description: "Make a table reservation at a restaurant for a number of guests on a date and time."},
	})
	q := mustParse(t, "book a table for four at Balthazar this Friday at 8 in the evening")
	firstExpanded(t, ix, q, "restaurants_reserve_restaurant")
}

// TestKeywordMeasureQuestion: "how long", "how big" ask a measure
// (framedPhrases): the adjective's own word ranks no higher than the
// measure's words, so a tool that says "long" for another thing does not
// lead the one that gives the time.
func TestKeywordMeasureQuestion(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "fetch__fetch_url", Description: "Fetch a URL and return its content; long pages are read in chunks."},
		{Name: "maps__get_route", Description: "Get the route between two places, with its distance and travel time."},
		{Name: "files__get_info", Description: "Get a file's size and when it was last modified."},
		{Name: "files__write_file", Description: "Write a big file in one go."},
	})
	for _, tt := range []struct{ query, want string }{
		{"how long is the trip from Boston to Denver", "maps__get_route"},
		{"how big is backup.tar", "files__get_info"},
	} {
		q := mustParse(t, tt.query)
		firstExpanded(t, ix, q, tt.want)
	}
}

// TestKeywordInlineStatement: an SQL statement written in a request is a
// value, the query the caller passes: its words ("events") rank low, and
// its keyword as SQL.
func TestKeywordInlineStatement(t *testing.T) {
	docs := append([]Document{
		{Name: "db__explain_query", Server: "db", Description: "Show the execution plan of a query to find out why it is slow.", ParamNames: []string{"sql"}},
		{Name: "calendar__list_events", Server: "calendar", Description: "List the events of a calendar for a user.", ParamNames: []string{"user_id"}},
	}, sqlDocs...)
	ix := NewIndex(docs)
	q := mustParse(t, "this is crawling: SELECT * FROM events WHERE user_id = 42. is it slow?")
	firstExpanded(t, ix, q, "db__explain_query")
	if got := names(ix, ix.Keyword(q, Options{Limit: 3})); len(got) > 0 && got[0] == "db__explain_query" {
		t.Errorf("Keyword(%q) without Expand = %v: the test does not need the statement read", q.Raw, got)
	}
}

func TestInlineStatement(t *testing.T) {
	for _, c := range []struct {
		raw      string
		from, to int
	}{
		{"why is this so slow: SELECT * FROM events WHERE user_id = 42 ORDER BY created_at", 5, 15},
		{"this is crawling: SELECT * FROM events WHERE user_id = 42. why?", 3, 10},
		{"run UPDATE orders SET status = 'shipped'", 1, 6},
		{"select the 10 newest rows from the orders table", -1, -1}, // words, not a statement
		{"run this on MySQL: SELECT 1", -1, -1},
	} {
		from, to := inlineStatement(mustParse(t, c.raw).Terms)
		if from != c.from || to != c.to {
			t.Errorf("inlineStatement(%q) = %d, %d; want %d, %d", c.raw, from, to, c.from, c.to)
		}
	}
	// A Query built by hand may hold a term without text: no panic, and
	// the statement runs on to the end.
	ts := []query.Term{{Text: "SELECT"}, {Text: "*"}, {Text: "FROM"}, {Text: ""}, {Text: "rows"}}
	if from, to := inlineStatement(ts); from != 0 || to != 4 {
		t.Errorf("inlineStatement(%v) = %d, %d; want 0, 4", ts, from, to)
	}
	ix := NewIndex(sqlDocs)
	checkScores(t, ix, ix.Keyword(query.Query{Raw: "SELECT * FROM rows", Terms: ts}, Options{Limit: 3, Expand: true}))
}

// TestDataFrame: the SQL statement a request on data asks for, from its
// verb on (stop words left out, as package search reads it).
func TestDataFrame(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"set status = 'shipped' for order 9912 in the orders table", "update _ rows"},
		{"many rows in the orders table have status 'refunded'", "select _ rows"},
		{"count the rows in the payments table", "select _ rows"},
		{"add a column email_verified to the users table", "alter _ rows"},
		{"remove the rows older than 30 days", "delete _ rows"},
		{"mark every row in accounts with last_login before 2024 as inactive", "update _ rows"},
		{"mark the ticket as done", ""},
		{"set a timer for ten minutes", ""},
		{"book a table for four", ""},
		{"table", ""},
	} {
		if got := DataFrame(analysis.Words().Analyze(c.raw)); got != c.want {
			t.Errorf("DataFrame(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestVerbSynonymsTable(t *testing.T) {
	for v, syns := range verbSynonyms {
		if len(syns) == 0 {
			t.Errorf("verbSynonyms[%q] is empty", v)
		}
	}
	for v := range verbSynonyms {
		if n := len(strings.Fields(v)); n > 2 && !frameKey(v) || n == 2 && phrases[strings.Fields(v)[0]][strings.Fields(v)[1]] != v && !frameKey(v) {
			t.Errorf("verbSynonyms[%q]: a key of more than two words must be a frame (\"let _ know\"), of two a phrase (phrases)", v)
		}
	}
	for v := range expandVerbs {
		if verbSynonyms[v] == nil {
			t.Errorf("expandVerbs has %q, which verbSynonyms lacks", v)
		}
	}
}

// TestInTable: a request names a database table as its data's place when
// it ends with a container phrase whose noun is a table.
func TestInTable(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{"please set status = 'shipped' for order 9912 in the orders table", true},
		{"insert a new user named Kim into the users table.", true},
		{"select the 10 newest rows from the orders table", true},
		{"set the table for dinner", false},
		{"update the pivot table in the quarterly workbook", false},
		{"delete the empty rows in my Excel spreadsheet", false},
		{"insert a table", false},
	} {
		if got := InTable(c.raw); got != c.want {
			t.Errorf("InTable(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
}

// TestKeywordRetrievalVerbClass: "find" in a catalog whose searching
// tools say "search" ranks near "search"'s idf (retrievalVerbs), so a
// tool named for finding something else does not lead by the verb.
func TestKeywordRetrievalVerbClass(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "calendar__find_free_time", Server: "calendar", Description: "Find time slots when all the given people are free."},
		{Name: "slack__search_messages", Server: "slack", Description: "Search messages in Slack channels."},
		{Name: "maps__search_places", Server: "maps", Description: "Search for places near a location."},
		{Name: "email__search_emails", Server: "email", Description: "Search the mailbox."},
		{Name: "notes__search_notes", Server: "notes", Description: "Search notes by their text."},
	})
	q := mustParse(t, "find where Priya talked about the budget on slack")
	firstExpanded(t, ix, q, "slack__search_messages")
	// The verb weighs as the class's commonest word (retrievalExponent 1):
	// at half the way, "find" still outweighed "slack" and "messages".
	firstExpanded(t, ix, mustParse(t, "find slack messages about time slots"), "slack__search_messages")
}

// TestKeywordQuotedText: quoted text is a value, the text the caller
// passes (quotedTerms): its words rank at formedWeight, so a tool that
// shares them does not lead the one that does the request.
func TestKeywordQuotedText(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "jira__get_issue", Server: "jira", Description: "Get a Jira issue by its key, with its summary and status.", ParamNames: []string{"issue_key"}},
		{Name: "notes__update_note", Server: "notes", Description: "Append text to a note."},
	})
	for _, query := range []string{
		"add a line 'TODO: rotate issue keys' to my checklist note",
		`add a line "rotate issue keys" to my checklist note`,
	} {
		q := mustParse(t, query)
		firstExpanded(t, ix, q, "notes__update_note")
	}
}

func TestQuotedTerms(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  []bool
	}{
		{"add 'TODO: rotate keys' to notes", []bool{false, true, true, true, false, false}},
		{"songs from '19 are nice", []bool{false, false, false, false, false}}, // an elision: never closed
		{`send "build is green" now`, []bool{false, true, false}},
		{"Marco's note", []bool{false, false}},
	} {
		q := mustParse(t, tt.query)
		if diff := cmp.Diff(tt.want, quotedTerms(q.Terms, nil)); diff != "" {
			t.Errorf("quotedTerms(%q) (-want +got):\n%s", tt.query, diff)
		}
	}
}

// TestPrintShowsText: "print" shows text when its object is text
// (printsText): a file's contents are read, not written; a document on
// the office printer is no such object.
func TestPrintShowsText(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "filesystem__read_file", Server: "filesystem", Description: "Read the complete contents of a file from the local file system."},
		{Name: "filesystem__write_file", Server: "filesystem", Description: "Create a new file or completely overwrite an existing file with new content."},
		{Name: "github__get_file_contents", Server: "github", Description: "Get the contents of a file or directory from a GitHub repository."},
	})
	firstExpanded(t, ix, mustParse(t, "Print the contents of /opt/grafana/conf/custom.ini"), "filesystem__read_file")
	for query, want := range map[string]bool{
		"print the first 20 lines of server.log":    true,
		"print the value of HOME":                   true,
		"print the quarterly report on the printer": false,
		"print my boarding pass":                    false,
	} {
		var ws []planWord
		for _, w := range strings.Fields(query)[1:] {
			ws = append(ws, planWord{word: w})
		}
		if got := printsText(ws); got != want {
			t.Errorf("printsText(%q) = %v, want %v", query, got, want)
		}
	}
}

// TestEverydaySensesAreNew: an everyday sense (everydaySenses) is no
// second entry of a plain one, and the calibrated score's coverage does
// not read it (CoverageSynonyms), while the rules do (VerbSynonyms).
func TestEverydaySensesAreNew(t *testing.T) {
	for k := range everydaySenses {
		if _, ok := plainSenses[k]; ok {
			t.Errorf("everydaySenses has %q, which plainSenses has too", k)
		}
		if CoverageSynonyms(k) != nil || len(VerbSynonyms(k)) == 0 {
			t.Errorf("%q: CoverageSynonyms %v, VerbSynonyms %v; want none, some", k, CoverageSynonyms(k), VerbSynonyms(k))
		}
	}
	if len(CoverageSynonyms("bin")) == 0 {
		t.Error("CoverageSynonyms(bin) is empty")
	}
}

// TestKeywordThreadMessage: a message said on a tracker's item
// (threadMessage) reaches the tool that comments on it over the tools
// that send chat messages and answer e-mails, and only then.
func TestKeywordThreadMessage(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "chat__send_message", Description: "Send a message to a channel or a user."},
		{Name: "mail__reply_to_email", Description: "Reply to an email message in its thread."},
		{Name: "tracker__add_comment", Description: "Add a comment to an issue.", ParamNames: []string{"issue_key", "body"}},
	})
	for _, tt := range []struct{ query, want string }{
		{"Reply on OPS-4410 that the firewall change went out at 14:05", "tracker__add_comment"},
		{"tell them on ticket 88 that it looks good to me", "tracker__add_comment"},
		{"tell #ops that the deploy is done", "chat__send_message"},
		{"reply to the last email from Dana that I agree", "mail__reply_to_email"},
	} {
		firstExpanded(t, ix, mustParse(t, tt.query), tt.want)
	}
}

// TestOpeningFramed: "open a" and "open an" rank "open" at
// expansionWeight where they open the request (openingFramed), so a
// searching tool whose example says "is:open" does not lead the one that
// creates; later in a request the phrase keeps its word's weight.
func TestOpeningFramed(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "gh__search_issues", Description: "Search issues by title with search syntax (e.g. is:open label:bug)."},
		{Name: "gh__create_issue", Description: "Create a new issue in a repository with a title, body, labels and assignees."},
		{Name: "gh__get_issue", Description: "Get an issue."},
	})
	firstExpanded(t, ix, mustParse(t, "open an issue titled 'crash on start'"), "gh__create_issue")
	ws := []planWord{{word: "pay", hasTerms: true}, {word: "rent", hasTerms: true}, {word: "and", hasTerms: false}, {word: "open", hasTerms: true}, {word: "a", hasTerms: false}, {word: "savings", hasTerms: true}, {word: "account", hasTerms: true}}
	later := false
	for _, v := range requestExpansions(ws, nil) {
		if v.key == "open a" {
			later = true
			if v.own != 0 {
				t.Errorf("requestExpansions: a later %q has own weight %v, want its word's own (0)", v.key, v.own)
			}
		}
	}
	if !later {
		t.Error(`requestExpansions: no later "open a" read, so its weight is untested`)
	}
}

// TestTimesNotWhen: a time after a recurrence's word, an article or a
// possessive does not say when (it names a thing or repeats), but a time
// phrase after a preposition of time does ("at the moment", "over the
// weekend": timePhraseAt), unless the time names a thing after it.
func TestTimesNotWhen(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string // the words that do not say when
	}{
		{"Make the Monday standup repeat every week", []string{"monday", "week"}},
		{"how windy is it in Wellington at the moment?", nil},
		{"Is it going to pour in Seattle over the weekend? Trying to decide", nil},
		{"what's in my downloads folder at the moment", nil},
		{"remind me in the morning and again at noon", nil},
		{"join me at the Monday standup", []string{"monday"}},
		{"post my morning run to the log", []string{"morning"}},
	} {
		got := timesNotWhen(c.raw)
		if len(got) != len(c.want) {
			t.Errorf("timesNotWhen(%q) = %v, want %v", c.raw, got, c.want)
			continue
		}
		for _, w := range c.want {
			if !got[w] {
				t.Errorf("timesNotWhen(%q) = %v, want %v", c.raw, got, c.want)
			}
		}
	}
}
