package fallback

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsearch/toolsearch/analysis"
)

// TestWordMatches checks each ranking word of a query against one tool:
// in the tool (itself or a stem variant), known elsewhere, or unknown;
// stop words and -terms are left out.
func TestWordMatches(t *testing.T) {
	ix := NewIndex(testDocs)
	id, _ := ix.Lookup("slack__send_message")
	got := ix.WordMatches(mustParse(t, "forward the messages to the github team -weather"), id)
	want := []WordMatch{
		{Word: "forward", Weight: 1},
		{Word: "messages", Weight: 1, Known: true, InTool: true, Tools: 1},
		{Word: "github", Weight: 1, Known: true, Tools: 2},
		{Word: "team", Weight: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WordMatches (-want +got):\n%s", diff)
	}
	if got := ix.WordMatches(mustParse(t, "send"), -1); got != nil {
		t.Errorf("WordMatches of an unknown tool ID = %v, want nil", got)
	}
}

// TestHasWord checks one word against one tool's text, with stem variants.
func TestHasWord(t *testing.T) {
	ix := NewIndex(testDocs)
	id, _ := ix.Lookup("github__close_issue")
	for w, want := range map[string]bool{"close": true, "closing": true, "issues": true, "create": false, "the": false, "": false} {
		if got := ix.HasWord(id, w); got != want {
			t.Errorf("HasWord(github__close_issue, %q) = %v, want %v", w, got, want)
		}
	}
	if ix.HasWord(ix.Len(), "close") {
		t.Error("HasWord of an unknown tool ID = true")
	}
}

func TestArgumentWords(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"forward this email to my accountant", nil},
		{"delete the #random slack channel", []string{"random"}},
		{"assign OPS-88 to me", []string{"88", "ops"}},
		{"send 'build is green' to #deploys", []string{"build", "deploys", "green", "is"}},
		{"Invite Dana to the standup. Book room 4", []string{"4", "dana"}},
		{"email bob@acme.io the report.pdf", []string{"acme", "bob", "io", "pdf", "report"}},
		{"read the \"release notes\" file", []string{"notes", "release"}},
		{"send “build is green” to #deploys", []string{"build", "deploys", "green", "is"}},
		{"reply ‘on my way’ to Sam", []string{"my", "on", "sam", "way"}},
		{"find songs from '19. I hear the album Reincarnation is nice", []string{"19", "reincarnation"}}, // an elision, no quote
		{"Send an SMS to Sam", []string{"sam"}},                                                          // a word in capitals is the thing asked for as often as a name
		{"move it into the DATA project", nil},
		{"", nil},
	} {
		got := slices.Sorted(maps.Keys(argumentWords(c.raw)))
		if !slices.Equal(got, c.want) {
			t.Errorf("argumentWords(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestRequestOpening(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want Opening
	}{
		{"cancel my flight to Oslo", Opening{Verb: "cancel", Object: []string{"my", "flight"}, End: "to", Place: []string{"oslo"}}},
		{"please archive the #old-project channel", Opening{Verb: "archive", Object: []string{"the", "old", "project", "channel"}}},
		{"Can you help me convert 150 Euros to dollars?", Opening{Verb: "convert", Object: []string{"150", "euros"}, End: "to", Place: []string{"dollars"}}},
		{"I'd like to forward this email", Opening{Verb: "forward", Object: []string{"this", "email"}}},
		{"Let's archive the old channel", Opening{Verb: "archive", Object: []string{"the", "old", "channel"}}},
		{"please,archive the channel", Opening{Verb: "archive", Object: []string{"the", "channel"}}},
		{"transition OPS-8 to review", Opening{Verb: "transition", Object: []string{"ops", "8"}, End: "to", Place: []string{"review"}}},
		{"overwrite todo.txt so it holds one line", Opening{Verb: "overwrite", Object: []string{"todo", "txt"}, End: "so", Place: []string{"it", "holds", "one", "line"}}}, // "so" opens a purpose or a result
		{"comment on OPS-12 that the fix is deployed", Opening{Verb: "comment", Text: []string{"the", "fix", "is", "deployed"}}},
		{"jot down a note: call the plumber", Opening{Verb: "jot", Object: []string{"down", "a", "note"}, Text: []string{"call", "the", "plumber"}}},
		{"add a :tada: reaction to the announcement", Opening{Verb: "add", Object: []string{"a", "tada", "reaction"}, End: "to", Place: []string{"the", "announcement"}}},
		{"delete that message", Opening{Verb: "delete", Object: []string{"that", "message"}}},
		{"reply that I'm on my way", Opening{Verb: "reply", Text: []string{"i", "m", "on", "my", "way"}}},
		{"confirm that the fix is deployed", Opening{Verb: "confirm", Text: []string{"the", "fix", "is", "deployed"}}},
		{"tell bob that", Opening{Verb: "tell", Object: []string{"bob"}}},
		{"E-file my tax return", Opening{Verb: "file", Object: []string{"my", "tax", "return"}}},                                                                                // a prefix joined by a hyphen
		{"T-Mobile bill for May", Opening{Verb: "mobile", Object: []string{"bill"}, End: "for", Place: []string{"may"}}},                                                        // no verb of the search's lists: no rule reads it
		{"OPS-12 to review", Opening{Verb: "ops", Object: []string{"12"}, VerbValue: true, End: "to", Place: []string{"review"}}},                                               // the verb's token is a value
		{"zip up the logs into logs.zip", Opening{Verb: "zip", Object: []string{"up", "the", "logs"}, End: "into", Place: []string{"logs", "zip"}}},                             // a later value of the same word
		{"add the bug label to issue #45 in acme/web, then close it", Opening{Verb: "add", Object: []string{"the", "bug", "label"}, End: "to", Place: []string{"issue", "45"}}}, // the place ends at the next preposition
		{"move it to the archive, then tell bob", Opening{Verb: "move", Object: []string{"it"}, End: "to", Place: []string{"the", "archive"}}},                                  // or at a clause's end
		{"start a branch hotfix off main", Opening{Verb: "start", Object: []string{"a", "branch", "hotfix"}, End: "off", Place: []string{"main"}}},                              // "off" after the object: where it starts (afterObjectEnd)
		{"call off the offsite", Opening{Verb: "call", Object: []string{"off", "the", "offsite"}}},                                                                              // right after the verb: its particle
		{"what's in the downloads folder", Opening{}},
		{"cast of the movie Inception", Opening{}}, // a noun before "of"
		{"please, record of my workouts", Opening{}},
		{"cancel, of course", Opening{Verb: "cancel"}}, // "of" in the next clause
		{"is it windy in Chicago", Opening{}},
		{"please", Opening{}},
		{"", Opening{}},
	} {
		if diff := cmp.Diff(c.want, RequestOpening(c.raw)); diff != "" {
			t.Errorf("RequestOpening(%q) (-want +got):\n%s", c.raw, diff)
		}
		if verb, value := RequestVerb(c.raw); verb != c.want.Verb || value != c.want.VerbValue {
			t.Errorf("RequestVerb(%q) = %q, %v, want %q, %v", c.raw, verb, value, c.want.Verb, c.want.VerbValue)
		}
	}
}

// TestOpeningParticle: a light verb, an optional object pronoun and a
// particle that takes no object of its own open a phrasal verb.
func TestOpeningParticle(t *testing.T) {
	for raw, want := range map[string]string{
		"check me in for my flight":          "in",
		"please check in for the 9am flight": "in",
		"take it down.":                      "down",
		"look in the drawer":                 "",
		"get back the deposit":               "",
		"look up OPS-12":                     "", // "up" is no particle here
		"look back at last week's commits":   "", // nor "back" and "over": a light verb with them still reads
		"check over the diff":                "",
		"check the forecast":                 "",
		"":                                   "",
	} {
		if got := OpeningParticle(raw); got != want {
			t.Errorf("OpeningParticle(%q) = %q, want %q", raw, got, want)
		}
	}
	for c := range RequestClauses("find the booking and check me in") {
		if c.First == "check" && c.Particle() != "in" {
			t.Errorf("Clause(%q).Particle() = %q, want in", c.First, c.Particle())
		}
	}
}

// TestValueKinds: a value's form says what kind of thing it is; quoted
// text, numbers, names, units and domains have no kind.
func TestValueKinds(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []Value
	}{
		{"delete /tmp/old-report.csv", []Value{{"/tmp/old-report.csv", KindPath, false}}},
		{"commit ~/src/app and docs/setup.md", []Value{{"~/src/app", KindPath, false}, {"docs/setup.md", KindPath, false}}},
		{"zip the logs into logs.zip.", []Value{{"logs.zip", KindFile, false}}},
		{"email bob@example.com the link https://go.dev/doc", []Value{{"bob@example.com", KindEmail, false}, {"https://go.dev/doc", KindURL, false}}},
		{"post in #general, then close OPS-12 in acme/widgets", []Value{{"#general", KindChannel, false}, {"OPS-12", KindIssue, false}, {"acme/widgets", KindRepo, false}}},
		{"find every *.tf file under ~/infra, skipping **old** ones", []Value{{"*.tf", KindPattern, false}, {"~/infra", KindPath, false}}},
		{"give it a :-1: and a :eyes:", []Value{{"-1", KindEmoji, false}, {"eyes", KindEmoji, false}}}, // a code's name whole
		{"save 'notes.txt' to the drive", nil},                               // quoted text
		{"buy tacoshack.dev and install Node.js", nil},                       // a domain, a framework
		{"thrown up at 40 m/s from Washington D.C. in 3/4 of the time", nil}, // a unit, a place, a number
		{"look up COVID-19 cases and pull request #88", []Value{{"COVID-19", KindIssue, false}}},
		// A colour's hex code is no channel.
		{"convert the color #00ff00 to rgb, then #abcdef and #f00, and post in #cafe", []Value{{"#cafe", KindChannel, false}}},
		// Words or codes joined by a slash are no owner/name pair.
		{"email the Q1/Q2 report and the TCP/IP notes to bob and/or alice", nil},
		{"clone Microsoft/TypeScript", []Value{{"Microsoft/TypeScript", KindRepo, false}}},
		{"lat/long and lat/lng of the Eiffel Tower", nil}, // short forms joined by a slash
		// A value after "about", "for", "as" or "with" is the request's
		// topic, purpose, format or instrument, up to the next preposition
		// or comma.
		{"encode the text as UTF-8 and hash it with SHA-256", []Value{{"UTF-8", KindIssue, true}, {"SHA-256", KindIssue, true}}},
		{"add a note about the SHA-256 checksum to #ops", []Value{{"SHA-256", KindIssue, true}, {"#ops", KindChannel, false}}},
		{"create a branch for OPS-12, then push it to acme/api", []Value{{"OPS-12", KindIssue, true}, {"acme/api", KindRepo, false}}},
		// A phone number, over several tokens; a date, a range or a
		// number alone is none.
		{"text +49 170 1234567 that i'm on my way", []Value{{"+49 170 1234567", KindPhone, false}}},
		{"send a text to +1 555 0100, then call 555-0199 or (415) 555-0100.", []Value{{"+1 555 0100", KindPhone, false}, {"555-0199", KindPhone, false}, {"(415) 555-0100", KindPhone, false}}},
		{"call +14155550100 about OPS-3", []Value{{"+14155550100", KindPhone, false}, {"OPS-3", KindIssue, true}}},
		{"events on 2019-07-14 for 10-20 people, +5 points, 1234567", nil},
		{"hotels priced 300-1000 a night, 150-1200 dollars or 100-2000 ms", nil}, // ranges, not local numbers
		{"call 212-5551 or 555-0100", []Value{{"212-5551", KindPhone, false}, {"555-0100", KindPhone, false}}},
		// A message's text says the values it holds, up to a clause break
		// or the sentence's end; "that" before a noun points at the object.
		{"send a message to #ops saying call me at +1 415 555 0100", []Value{{"#ops", KindChannel, false}, {"+1 415 555 0100", KindPhone, true}}},
		{"reply that the repo acme/api is archived, then close OPS-12", []Value{{"acme/api", KindRepo, true}, {"OPS-12", KindIssue, false}}},
		{"delete that file /tmp/old.csv", []Value{{"/tmp/old.csv", KindPath, false}}},
		// Coordinates, in one token or two; a price or a version alone is none.
		{"my phone says 48.8584, 2.2945 - what street is that", []Value{{"48.8584, 2.2945", KindCoordinates, false}}},
		{"Which street is 40.7484,-73.9857 on?", []Value{{"40.7484,-73.9857", KindCoordinates, false}}},
		{"pay 12.50, then upgrade to 1.2.3 or 95.5, 200.1", nil},
		// Without their outer brackets, as a value of one token is.
		{"what is at [40.7484,-73.9857] and (48.8584, 2.2945)?", []Value{{"40.7484,-73.9857", KindCoordinates, false}, {"48.8584, 2.2945", KindCoordinates, false}}},
		{"call me (+49 170 1234567) or at (555-0199).", []Value{{"+49 170 1234567", KindPhone, false}, {"555-0199", KindPhone, false}}},
		// Unclosed parentheses, however many, are no part of the value.
		{"pin ((48.8584, 2.2945 and ((415) 555-0100", []Value{{"48.8584, 2.2945", KindCoordinates, false}, {"(415) 555-0100", KindPhone, false}}},
	} {
		if diff := cmp.Diff(c.want, ValueKinds(c.raw)); diff != "" {
			t.Errorf("ValueKinds(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

func TestToolActions(t *testing.T) {
	for _, c := range []struct {
		name, desc string
		want       []string
	}{
		{"create_pull_request", "Open a new pull request in a GitHub repository to merge a head branch.", []string{"create", "pull", "request", "open"}},
		{"move_file", "Move or rename a file or directory. Fails if the destination exists.", []string{"move", "file", "move", "rename", "fails"}},
		{"http_request", "Make an HTTP request. Use it to call a REST API.", []string{"http", "request", "make", "an", "http", "http", "request", "use", "call", "rest", "api"}},
		{"execute", "Execute a SQL statement (INSERT, UPDATE).", []string{"execute", "execute", "sql", "insert", "update"}},
		{"rotateflipimage", "", []string{"rotateflipimage"}},
		{"rm", "This tool belongs to the file system. Tool description: Remove a file. Args: path: the file.", []string{"rm", "this", "tool", "remove", "args", "path", "the"}}, // a label's colon starts a sentence
		{"run_sql", "Runs SQL (CREATE_TABLE, DROP).", []string{"run", "sql", "runs", "sql", "create", "table", "drop"}},                                                         // capitals as analysis.Words splits them
		{"get_file_contents", "Get the contents of a file. Files are returned decoded as text.", []string{"get", "file", "contents", "get"}},                                    // a sentence's subject before an auxiliary is no action
	} {
		n, d := ToolActions(c.name, c.desc)
		if diff := cmp.Diff(c.want, append(n, d...)); diff != "" {
			t.Errorf("ToolActions(%q, %q) (-want +got):\n%s", c.name, c.desc, diff)
		}
	}
}

// TestToolActionsLongText: a long description is read up to the last
// space before toolActionsScan bytes, or, without one, up to the last
// rune that starts there (never half a rune).
func TestToolActionsLongText(t *testing.T) {
	for _, c := range []struct{ long, prefix string }{
		{"Delete a file. " + strings.Repeat("word ", 400), "Delete a file. " + strings.Repeat("word ", 197)},
		{strings.Repeat("删除", 400), strings.Repeat("删除", 166) + "删"}, // 999 bytes: the 1,000th starts no rune
	} {
		_, got := ToolActions("x", c.long)
		_, want := ToolActions("x", c.prefix)
		if diff := cmp.Diff(want, got); diff != "" || len(got) == 0 {
			t.Errorf("ToolActions of %d bytes (-its prefix +got):\n%s", len(c.long), diff)
		}
	}
}

func TestRequestClauses(t *testing.T) {
	type clause struct {
		First              string
		Preamble, Question bool
		Words              []string
	}
	for _, c := range []struct {
		raw  string
		want []clause
	}{
		{"I'm moving to Denver next month. Forward my mail, transfer my electricity account and cancel my internet.", []clause{
			{Words: []string{"to", "denver", "next", "month"}}, // a statement
			{First: "forward", Words: []string{"my", "mail"}},
			{First: "transfer", Words: []string{"my", "electricity", "account"}},
			{First: "cancel", Words: []string{"my", "internet"}},
		}},
		{"Freeze my credit with Equifax, Experian and TransUnion, then file a report.", []clause{
			{First: "freeze", Words: []string{"my", "credit", "with", "equifax"}},
			{}, // names
			{Words: []string{"union"}},
			{First: "file", Words: []string{"a", "report"}},
		}},
		{"I'd like to vote by mail. Can you provide the forms? What is the deadline?", []clause{
			{First: "vote", Preamble: true, Words: []string{"by", "mail"}},
			{First: "provide", Preamble: true, Words: []string{"the", "forms"}},
			{First: "what", Question: true, Words: []string{"is", "the", "deadline"}},
		}},
		{"Let's verify 'Draft.txt' and 'Final.txt' are identical", []clause{
			{First: "verify", Preamble: true, Words: []string{"draft", "txt"}},
			{Words: []string{"txt", "are", "identical"}}, // quoted text
		}},
		{"add a line 'TODO: rotate keys, and renew certs' to my note, then archive it", []clause{
			{First: "add", Words: []string{"a", "line", "todo", "rotate", "keys", "and", "renew", "certs", "to", "my", "note"}}, // quoted text splits no clause
			{First: "archive", Words: []string{"it"}},
		}},
		{"I'm at home. Copy of my passport, then book a flight", []clause{
			{Words: []string{"home"}},                 // a statement
			{Words: []string{"of", "my", "passport"}}, // a noun before "of"
			{First: "book", Words: []string{"a", "flight"}},
		}},
		{"Which of my events are tomorrow?", []clause{
			{First: "which", Question: true, Words: []string{"of", "my", "events", "are", "tomorrow"}}, // a question word stays one
		}},
		{"play songs from '19 and then add them to my playlist", []clause{ // an elision, no quote: the clauses split
			{First: "play", Words: []string{"songs", "from", "19"}},
			{First: "add", Words: []string{"them", "to", "my", "playlist"}},
		}},
		{"I'm planning a movie night. Additionally, provide the latest versions of Go, and lastly fetch the trailers.", []clause{
			{Words: []string{"a", "movie", "night"}},                                                     // a statement
			{First: "provide", Preamble: true, Words: []string{"the", "latest", "versions", "of", "go"}}, // "Additionally," opens it
			{First: "fetch", Preamble: true, Words: []string{"the", "trailers"}},
		}},
		{"find the contract in slack and e-sign it", []clause{ // a prefix joined by a hyphen, as RequestOpening reads it
			{First: "find", Words: []string{"the", "contract", "in", "slack"}},
			{First: "sign", Words: []string{"it"}},
		}},
		{"please", nil},
		{"", nil},
	} {
		var got []clause
		for cl := range RequestClauses(c.raw) {
			got = append(got, clause{cl.First, cl.Preamble, cl.Question, cl.Words()})
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("RequestClauses(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
	// A clause break word chains a clause; a comma or a colon alone does not.
	var chained []bool
	for cl := range RequestClauses("find the log and delete it, then email bob. archive it, add a note: fix it") {
		chained = append(chained, cl.Chained)
	}
	if want := []bool{false, true, true, false, false, false}; !slices.Equal(chained, want) {
		t.Errorf("RequestClauses: Chained %v, want %v", chained, want)
	}
	// The caller may stop early.
	n := 0
	for range RequestClauses("book a table, call a cab, and pay the bill") {
		n++
		break
	}
	if n != 1 {
		t.Errorf("RequestClauses yielded %d clauses after a break, want 1", n)
	}
}

// TestNamedObjects: a capitalized name after a/an/my/our/your that ends
// its noun phrase is a thing asked for; one that qualifies a noun, starts a
// sentence, is quoted, technical or all capitals is not.
func TestNamedObjects(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"Can you get me a Lyft from the Ferry Building to Oakland airport?", []string{"lyft"}},
		{"show me my resting heart rate from my Fitbit for the past week", []string{"fitbit"}},
		{"call an Uber", []string{"uber"}},
		{"sync my Garmin watch", nil},                        // qualifies a noun
		{"find me a Fender guitar", nil},                     // qualifies a noun
		{"create a PR from feature-x", nil},                  // all capitals
		{"search for a 'Mockingbird'", nil},                  // quoted
		{"email Maria the agenda", nil},                      // no determiner
		{"My Fitbit died. Sync it.", nil},                    // starts the sentence
		{"text my Mom, then call a Didi.", []string{"didi"}}, // a person by kinship: no service
		{"email my Boss the slides", nil},
		{"call our Landlord", nil},
		{"Create A Calendar Event For My Dentist", nil}, // Title Case: every word is capitalized
		{"My Fitbit died. Call A Lyft.", nil},
		{"Fitbit died. My Garmin? A Lyft", []string{"garmin", "lyft"}}, // a determiner that starts a sentence
		// A name after a preposition of means (namedMeans) is the service the request is done on.
		{"open a merge request on GitLab for them", []string{"git", "lab"}},
		{"page the on-call team through Opsgenie", []string{"opsgenie"}},
		{"send it to the team via Telegram.", []string{"telegram"}},
		{"book a sync with Priya on Friday at 10", nil},            // a person after "with", a time after "on"
		{"post the weekly summary in #ops on Sundays", nil},        // days
		{"open an issue in acme/web: login broken on Safari", nil}, // a message's text after a colon
		{"file a bug for a crash on Android 14", nil},              // the name qualifies a value
		{"forecast for Lisbon", nil},                               // a place
	} {
		if diff := cmp.Diff(c.want, NamedObjects(c.raw)); diff != "" {
			t.Errorf("NamedObjects(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestNamedQualifiers: a name after a determiner or a preposition of
// means followed by one lowercase noun that ends the phrase qualifies it;
// a name that ends its phrase is NamedObjects', and several capitalized
// words that end it are read by neither (a common noun's phrase in Title
// Case).
func TestNamedQualifiers(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []NamedPhrase
	}{
		{"add them to our Mailchimp audience", []NamedPhrase{{Name: []string{"mailchimp"}, Head: "audience"}}},
		{"sync my Garmin watch", []NamedPhrase{{Name: []string{"garmin"}, Head: "watch"}}},
		{"confirm my Zeta Corp order, please", []NamedPhrase{{Name: []string{"zeta", "corp"}, Head: "order"}}},
		{"call a Lyft", nil},                           // NamedObjects'
		{"train a Random Forest Model on it", nil},     // Title Case
		{"sync my Garmin watch 2 days ago", nil},       // the noun does not end the phrase
		{"create a 'Sprint retro' meeting", nil},       // quoted
		{"open an issue: crash on Safari mobile", nil}, // a message's text
		{"where is my October invoice?", nil},          // a month: a time (timeName)
		{"skip our Friday standup", nil},               // a day after a determiner
	} {
		if diff := cmp.Diff(c.want, NamedQualifiers(c.raw)); diff != "" {
			t.Errorf("NamedQualifiers(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
	if got := NamedObjects("train a Random Forest Model on it"); got != nil {
		t.Errorf("NamedObjects read a Title Case phrase as a name: %v", got)
	}
}

func TestValueKind(t *testing.T) {
	for text, want := range map[string]string{
		"#general": "channel", "#dev-ops,": "channel", "(#eng)": "channel",
		"sarah@example.com": "email", "<legal@acme.co.uk>": "email",
		"https://example.com/x": "url", "www.acme.io": "url",
		"#42": "", "#": "", "C#": "", "@alice": "", "acme/api": "", "OPS-12": "issue", "OPS-12:": "issue", "general": "",
		"*.tf": "glob pattern", "report-*.pdf,": "glob pattern", "**urgent**": "", "3*4": "",
		"report.txt": "file", "src/app.ts": "file", "~/Downloads": "directory folder", "/var/log/": "directory folder",
		// A chat id (chatID), not another code of capitals and digits.
		"C02RELEASE": "channel", "C024BE91L.": "channel", "U05KJ8PQ3": "user", "W0123ABCD": "user",
		"C12H22O11": "", "W003247135": "", "B08N5WG761": "", "CA107308006SI": "", "NCT04280705": "", "CENTURY21": "", "U0ABC": "",
	} {
		if got, _ := valueKind(text); strings.Join(got, " ") != want {
			t.Errorf("valueKind(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestValueKindRanks: a #channel the catalog does not know finds the tools
// with a channel; the value's kind is no query word of its own (coverage).
func TestValueKindRanks(t *testing.T) {
	ix := NewIndex(testDocs)
	res := ix.Keyword(mustParse(t, "send it to #zorblax"), Options{Limit: 3})
	var names []string
	for _, h := range res.Hits {
		names = append(names, ix.Document(h.ID).Name)
	}
	if diff := cmp.Diff([]string{"slack__send_message", "slack__list_channels"}, names); diff != "" {
		t.Errorf("send it to #zorblax (-want +got):\n%s", diff)
	}
	if res.Coverage != 1 {
		t.Errorf("send it to #zorblax: Coverage %.3f, want 1 (an unknown channel is left out, its kind is no word of the query)", res.Coverage)
	}
}

func TestLocativeNames(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"is it going to rain in Seattle this weekend", []string{"seattle"}},
		{"driving time from Boston to Palo Alto if I leave at 5pm", []string{"boston", "palo", "alto"}},
		{"what's the weather near Union Square, Portland", []string{"union", "square", "portland"}}, // a comma goes on to the next name
		{"AQI in Delhi today", []string{"delhi"}},
		{"convert 250 dollars to USD", nil},                            // all capitals
		{"play it on Spotify", nil},                                    // not a locative preposition
		{"search for 'Blinding Lights' in 'Main Street'", nil},         // quoted
		{"the forecast in. Denver", nil},                               // starts a sentence
		{"Forecast In Denver", nil},                                    // Title Case
		{"send the report to Maria and Lee", []string{"maria", "lee"}}, // "and" joins a list of names
		{"how do I get from Union Square to the Golden Gate Bridge by bike", []string{"union", "square", "golden", "gate", "bridge"}}, // "the" after the preposition
		{"offices in Lyon, Grenoble and Annecy, then the drive", []string{"lyon", "grenoble", "annecy"}},
		{"in Leeds; Bristol is next", []string{"leeds"}},          // a semicolon ends the list
		{"go to the shop and Buy milk", nil},                      // "the" keeps no name of its own
		{"near Berlin and book the Marriott", []string{"berlin"}}, // "and" then a lowercase word ends the list
		{"move the file to #ops-archive", nil},                    // technical
	} {
		got := slices.Sorted(maps.Keys(locativeNames(c.raw)))
		want := slices.Sorted(slices.Values(c.want))
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("locativeNames(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestRequestNames: the names in no locative place (others) are the
// capitalized words inside a sentence that are not after a locative
// preposition, nor after a servicePrepositions word, its "the" or a name
// after one; not quoted, not technical, not all capitals.
func TestRequestNames(t *testing.T) {
	for _, c := range []struct {
		raw           string
		names, others []string
	}{
		{"find where Priya talked about the budget in Slack", []string{"slack"}, []string{"priya"}},
		{"lat/long of the Eiffel Tower", nil, []string{"eiffel", "tower"}},
		{"let my manager know on Slack", nil, nil},                    // the service
		{"page the on-call engineer through Opsgenie", nil, nil},      // the service, as namedMeans reads it
		{"book a tee time at Pebble Beach", nil, nil},                 // the venue, every word of it
		{"earthquake alerts for the Bay Area", nil, nil},              // what it is for
		{"what is on Thursday 3 December", nil, []string{"december"}}, // a number ends the name after "on"
		{"read 'Main Street' and USD rates from Lisbon", []string{"lisbon"}, nil},
		{"Forecast Of Denver", nil, nil}, // Title Case
	} {
		names, others := requestNames(c.raw)
		for _, g := range []struct {
			what      string
			got, want []string
		}{{"names", slices.Sorted(maps.Keys(names)), c.names}, {"others", slices.Sorted(maps.Keys(others)), c.others}} {
			if diff := cmp.Diff(slices.Sorted(slices.Values(g.want)), g.got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("requestNames(%q) %s (-want +got):\n%s", c.raw, g.what, diff)
			}
		}
	}
}

func TestFreeTextWords(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"message #frontend that the build is broken", []string{"that", "the", "build", "is", "broken"}},
		{"take a note: wifi password is on the fridge", []string{"wifi", "password", "is", "on", "the", "fridge"}},
		{"reply to Tom saying sounds good. Then archive it", []string{"saying", "sounds", "good"}},                                           // up to the sentence's end
		{"reply saying I'm back on the 14th, and forward anything urgent to Lee", []string{"saying", "i", "m", "back", "on", "the", "14th"}}, // a clause after a comma is the next ask
		{"delete that message", nil},                   // "that" a determiner
		{"what's the weather in Denver that day", nil}, // a question
		{"post 'standup in 5' in #eng", nil},           // quoted text is left alone (fuzzy quotes its corrections)
		{"note:", nil},
		{"let everyone in #releases know v2.8 is live. Thanks", []string{"let", "everyone", "in", "releases", "know", "v2", "8", "is", "live"}},
		{"please let the team know the build is green", []string{"let", "the", "team", "know", "build", "is", "green"}},
		{"let me know the forecast", nil}, // a question
		{"let's ship it, I know", nil},
		{"I'm running late. Can you let #standup know I'll join soon? Thanks", []string{"let", "standup", "know", "i", "ll", "join", "soon"}}, // anywhere, as the expansion reads it
		{"I'm off sick. Let my manager know on Slack, decline my meetings", []string{"let", "my", "manager", "know", "on", "slack"}},          // the message ends at a comma
	} {
		got := slices.Sorted(maps.Keys(freeTextWords(c.raw)))
		want := slices.Sorted(slices.Values(c.want))
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("freeTextWords(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestCoverageArguments: an argument value by its form (a path, a URL, a
// #channel, a number) that the catalog does not know is left out of
// Result.Coverage, unless the catalog knows its kind (then it is one known
// word); an unknown plain word is not. Result.WordCoverage counts
// every word.
func TestCoverageArguments(t *testing.T) {
	ix := NewIndex(testDocs)
	for _, c := range []struct {
		q                   string
		coverage, everyWord float64 // Coverage, WordCoverage
	}{
		{"send messages", 1, 1},
		{"send messages to #zorblax", 1, 2.0 / 3},
		{"send messages to https://zorblax.example/qux", 1, 1.0 / 3}, // https, zorblax, example, qux
		{"send zorblax messages", 2.0 / 3, 2.0 / 3},
		{"send Zorblax messages", 2.0 / 3, 2.0 / 3},       // a capitalized name counts: the verb's object weighs in full
		{"send messages to Zorblax", 1, 2.0 / 3},          // a name after "to" is an argument value
		{"send messages on Zorblax", 2.0 / 3, 2.0 / 3},    // after "on" it may be the service asked for
		{"send messages for Zorblax", 2.0 / 3, 2.0 / 3},   // after "for" too (servicePrepositions)
		{"send messages about Zorblax", 2 / 2.5, 2.0 / 3}, // a name in no locative place weighs otherNameWeight
		{"messages of the Zorblax Qux", 1 / 2.0, 1.0 / 3}, // every word of a name of several
		{"Send Messages To Zorblax", 2.0 / 3, 2.0 / 3},    // Title Case: no names
		{"zorblax in #qux", 0.5, 0},                       // a value of a kind the catalog knows (a channel) is understood
		{"zorblax ~/qux/quux", 0, 0},                      // the catalog knows no path
		{"send messages *.zorblax", 1, 2.0 / 3},           // a glob pattern is a value by its form
	} {
		res := ix.Keyword(mustParse(t, c.q), Options{Limit: 5})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 || math.Abs(res.WordCoverage-c.everyWord) > 1e-9 {
			t.Errorf("%q: Coverage %.3f, WordCoverage %.3f; want %.3f, %.3f", c.q, res.Coverage, res.WordCoverage, c.coverage, c.everyWord)
		}
	}
	// The unknown words of a message's text (freeTextWords) are left out
	// of Coverage, not of WordCoverage.
	for _, c := range []struct {
		q        string
		coverage float64
	}{
		{"send messages saying zorblax qux", 1},
		{"send messages: zorblax qux", 1},
		{"send messages saying hi. zorblax qux", 0.5}, // the text ends with its sentence
		{"send messages with zorblax qux", 0.5},
	} {
		res := ix.Keyword(mustParse(t, c.q), Options{Limit: 5})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 || res.WordCoverage > c.coverage {
			t.Errorf("%q: Coverage %.3f, WordCoverage %.3f; want %.3f and no more", c.q, res.Coverage, res.WordCoverage, c.coverage)
		}
	}
	// So are the unknown words of quoted text (a title or a name the
	// caller passes).
	for _, c := range []struct {
		q        string
		coverage float64
	}{
		{"send messages 'zorblax qux'", 1},
		{"send messages “zorblax qux”", 1},
		{"send messages 'zorblax qux", 0.5}, // a quote that does not close is no quote
	} {
		res := ix.Keyword(mustParse(t, c.q), Options{Limit: 5})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 {
			t.Errorf("%q: Coverage %.3f, want %.3f", c.q, res.Coverage, c.coverage)
		}
	}
}

// TestWhenCoverage: Result.WhenCoverage leaves out the unknown words of
// a time that say when ("today", "this morning", "Thursday", "10am"),
// which Result.Coverage counts; not a time after "every" (a recurrence)
// or after an article or a possessive (a thing's name), nor a time the
// catalog knows.
func TestWhenCoverage(t *testing.T) {
	ix := NewIndex(testDocs)
	for _, c := range []struct {
		q              string
		coverage, when float64 // Coverage, WhenCoverage
	}{
		{"send messages", 1, 1},
		{"send zorblax messages", 2.0 / 3, 2.0 / 3},
		{"send zorblax messages today", 0.5, 2.0 / 3},
		{"send zorblax messages tomorrow at 10am", 0.5, 2.0 / 3}, // a clock time is a value already
		{"send zorblax messages every week", 0.4, 0.4},           // a recurrence: the tool must repeat
		{"send the monday zorblax messages", 0.5, 0.5},           // a thing's name
		{"send zorblax messages on thursday morning", 0.4, 2.0 / 3},
	} {
		res := ix.Keyword(mustParse(t, c.q), Options{Limit: 5})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 || math.Abs(res.WhenCoverage-c.when) > 1e-9 {
			t.Errorf("%q: Coverage %.3f, WhenCoverage %.3f; want %.3f, %.3f", c.q, res.Coverage, res.WhenCoverage, c.coverage, c.when)
		}
	}
}

// TestClausePhrase: a clause's phrase ends where a message's text starts
// ("that" opening a clause, "saying"), not at a "that" that points at the
// object.
func TestClausePhrase(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"find the email and reply that we accept the terms", nil},
		{"find the email and reply saying the invoice is paid", nil},
		{"find the thread and comment on OPS-12 saying it shipped", []string{"on", "ops", "12"}},
		{"find the note and delete that note from my workspace", []string{"that", "note", "from", "my", "workspace"}},
		{"find the log and delete it", []string{"it"}},
	} {
		var got []string
		for cl := range RequestClauses(c.raw) {
			got = cl.Phrase() // the last clause's
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Phrase of %q's last clause (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestClauseGoverned: a condition clause governs the step after it, in
// the next clause or, without a comma, at its first later word that is a
// step's verb, chained as the condition is.
func TestClauseGoverned(t *testing.T) {
	verb := func(w string) bool { return w == "book" || w == "deploy" }
	for _, c := range []struct {
		raw   string
		first string // "" when the condition holds no step
		words []string
	}{
		{"get the forecast and if it's dry book a tee time", "book", []string{"a", "tee", "time"}},
		{"run the tests and once they pass deploy it", "deploy", []string{"it"}},
		{"check the forecast and, if it's sunny, book me a lesson", "", nil}, // the step is the next clause
		{"get the forecast and if book is cheap", "", nil},                   // the condition's own first word is no step
	} {
		var cond []Clause
		for cl := range RequestClauses(c.raw) {
			if cl.Condition() {
				cond = append(cond, cl)
			}
		}
		if len(cond) != 1 || !cond[0].Chained {
			t.Fatalf("RequestClauses(%q): %d chained conditions, want 1", c.raw, len(cond))
		}
		g, ok := cond[0].Governed(verb)
		if ok != (c.first != "") || g.First != c.first || !slices.Equal(g.Words(), c.words) || ok && !g.Chained {
			t.Errorf("Governed of %q = %q %q chained %v, %v; want %q %q", c.raw, g.First, g.Words(), g.Chained, ok, c.first, c.words)
		}
	}
}

// FuzzRequestClauses: RequestOpening, RequestClauses, OwnQuestion,
// NamedObjects, NamedQualifiers, locativeNames, freeTextWords, OpeningParticle and ValueKinds never panic
// on any text and give only its words (its values, of their kind); an
// opening's verb is neither preamble nor question word, and RequestVerb,
// which reads only up to it, gives the same verb; every clause is
// yielded once, in order, and a caller that stops after k clauses gets k;
// HasClauseBreak is true of every text with a chained clause.
func FuzzRequestClauses(f *testing.F) {
	for _, s := range []string{
		"I'm moving to Denver next month. Forward my mail, transfer my electricity account and cancel my internet.",
		"", " ", ".", ",,, and then also", "please", "and", "'", "“", "let’s", "Let's, verify", ":tada:", "note:",
		"请 帮我 取消 航班, 然后 预订 酒店", "Отмени мой рейс и закажи такси", "\xff\xfe and \xc3", "a\u00a0b\u2028c",
		"📅 book a table 🍽️, then call a cab 🚕", "\"unterminated and 'quote", "OPS-12, #general and /tmp/x.txt.",
		"delete that message", "reply that", "that that that", "cast of", "record of, then of", "please order\u00a0of", "archive that: it", "walking directions to the park",
		"Make line-based edits. Use it to call a REST API (INSERT, UPDATE).", "Move or rename a file. use", "make",
		"Ünïcode ÀÉ ΣΩ. ЖУК or DŽ" + strings.Repeat("é", 600) + " X", "say ' and ' then 'x: y.' and \" \" ok",
		"E-file my tax return", "e-please do it", "Has my state tax refund been issued yet?", "is my", "do our, x",
		"get me a Lyft", "My Fitbit? A 'Lyft' my", "add them to our Mailchimp audience", "on Sundays via Telegram. using X", "on GitLab: a Y z", "call A Didi, a Zeta Corp order. an Über",
		"check me in", "check in, and", "please take it down. and check", "delete /tmp/a.csv ~/x ./y a/b x@y.z #c OPS-1 www.q https://z",
		"/ ~/ ./ @. #. a/ /b .md x.md/ -1 AB- #1", "find every *.tf file, then (report-*.pdf) and src/**/*.ts", "give it a :-1: or :_a_:", "add the bug label to issue #45 in acme/web, then move it to: x",
		"find it and e-sign it", "get x and if it's dry book a y", "x, if y, z", "reply that that", "and if",
		"text +49 170 1234567, then call (415) 555-0100.", "what is at 48.8584, 2.2945?", "go to [40.7484,-73.9857]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		words := map[string]bool{}
		for _, w := range analysis.Words().Analyze(raw) {
			words[w] = true
		}
		op := RequestOpening(raw)
		if verb, value := RequestVerb(raw); verb != op.Verb || value != op.VerbValue {
			t.Errorf("RequestVerb(%q) = %q, %v; RequestOpening has %q, %v", raw, verb, value, op.Verb, op.VerbValue)
		}
		if op.Verb != "" && (openingPreamble[op.Verb] || questionWords[op.Verb]) {
			t.Errorf("RequestOpening(%q).Verb = %q, a preamble or question word", raw, op.Verb)
		}
		for _, w := range append(append(append([]string{op.Verb, op.End}, op.Object...), op.Text...), op.Place...) {
			if w != "" && !words[w] {
				t.Errorf("RequestOpening(%q) has %q, not a word of the text", raw, w)
			}
		}
		if op.End != "" && (!objectEnds[op.End] && op.End != afterObjectEnd || len(op.Object) == 0) || op.End == "" && len(op.Place) > 0 {
			t.Errorf("RequestOpening(%q): End %q after Object %q, Place %q", raw, op.End, op.Object, op.Place)
		}
		for _, w := range OwnQuestion(raw) {
			if !words[w] {
				t.Errorf("OwnQuestion(%q) has %q, not a word of the text", raw, w)
			}
		}
		for _, w := range NamedObjects(raw) {
			if !words[w] {
				t.Errorf("NamedObjects(%q) has %q, not a word of the text", raw, w)
			}
		}
		for _, n := range NamedQualifiers(raw) {
			for _, w := range append(n.Name, n.Head) {
				if !words[w] || len(n.Name) == 0 {
					t.Errorf("NamedQualifiers(%q) has %+v: %q not a word of the text", raw, n, w)
				}
			}
		}
		names, others := requestNames(raw)
		for w := range locativeNames(raw) {
			if !words[w] || !names[w] {
				t.Errorf("locativeNames(%q) has %q, not a word of the text or not of requestNames", raw, w)
			}
		}
		for w := range others {
			if !words[w] || names[w] {
				t.Errorf("requestNames(%q): other name %q, not a word of the text or a locative name too", raw, w)
			}
		}
		for w := range freeTextWords(raw) {
			if !words[w] {
				t.Errorf("freeTextWords(%q) has %q, not a word of the text", raw, w)
			}
		}
		if p := OpeningParticle(raw); p != "" && (!phrasalParticles[p] || !words[p]) {
			t.Errorf("OpeningParticle(%q) = %q, no particle of the text", raw, p)
		}
		for _, v := range ValueKinds(raw) {
			kind, core := formKind(v.Text), spanCore(v.Text)
			if g := globCore(v.Text); g != "" {
				kind, core = KindPattern, g // a glob pattern keeps its "*", which spanCore cuts
			} else if toks := strings.Fields(v.Text); len(toks) > 0 && phoneLength(toks) == len(toks) {
				kind = KindPhone
			} else if kind == "" && len(toks) > 0 && coordinatesLength(toks) == len(toks) {
				kind = KindCoordinates
			} else if kind == "" && strings.Contains(raw, ":"+v.Text+":") && emojiCode(":"+v.Text+":") {
				kind = KindEmoji // its Text is the code's name, without the colons
			}
			if v.Text == "" || !strings.Contains(raw, v.Text) || kind != v.Kind || v.Text != core {
				t.Errorf("ValueKinds(%q) has %+v: not a value of the text of its kind", raw, v)
			}
		}
		var all []Clause
		for c := range RequestClauses(raw) {
			for _, w := range c.Object() {
				if !words[w] {
					t.Errorf("RequestClauses(%q): Object has %q, not a word of the text", raw, w)
				}
			}
			if c.First != "" && !words[c.First] {
				t.Errorf("RequestClauses(%q): First %q is not a word of the text", raw, c.First)
			}
			if c.Question && !questionWords[c.First] {
				t.Errorf("RequestClauses(%q): %q is no question word", raw, c.First)
			}
			if c.Chained && !HasClauseBreak(raw) {
				t.Errorf("RequestClauses(%q): a chained clause, but HasClauseBreak is false", raw)
			}
			ws := c.Words()
			if p := c.Phrase(); len(p) > len(ws) || !slices.Equal(p, ws[:len(p)]) {
				t.Errorf("RequestClauses(%q): Phrase %q is no prefix of Words %q", raw, p, ws)
			}
			if g, ok := c.Governed(func(w string) bool { return w != "" }); ok && (g.Chained != c.Chained || !words[g.First]) {
				t.Errorf("RequestClauses(%q): Governed %q (chained %v) of %q (chained %v)", raw, g.First, g.Chained, c.First, c.Chained)
			}
			all = append(all, c)
		}
		if len(all) > len(strings.Fields(raw)) {
			t.Errorf("RequestClauses(%q): %d clauses of %d tokens", raw, len(all), len(strings.Fields(raw)))
		}
		for k := 1; k < min(len(all), 4); k++ {
			n := 0
			for c := range RequestClauses(raw) {
				if c.First != all[n].First {
					t.Errorf("RequestClauses(%q): clause %d opens %q, then %q", raw, n, all[n].First, c.First)
				}
				if n++; n == k {
					break
				}
			}
			if n != k {
				t.Errorf("RequestClauses(%q): stopped after %d clauses, got %d", raw, k, n)
			}
		}
		n, d := ToolActions(raw, raw)
		for _, w := range append(n, d...) {
			if w == "" || w != strings.ToLower(w) {
				t.Errorf("ToolActions(%q) has %q: want lowercase words", raw, w)
			}
		}
	})
}

// TestClauseObject: a clause's object is its words after First up to a
// preposition or a message's text.
func TestClauseObject(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"Forward my calls to my office line until 5pm.", []string{"my", "calls"}},
		{"Please enroll me in it", []string{"me"}},
		{"tell the team that the fix is out", []string{"the", "team"}},
		{"archive it", []string{"it"}},
		{"book", nil},
		{"Find him a driving school near Columbus", []string{"him", "a", "driving", "school"}}, // "near" and the other prepositions of place and time (objectEnds)
		{"walk my dog while I'm at work", []string{"my", "dog"}},
		{"move the files between the folders", []string{"the", "files"}},
	} {
		var got []string
		for cl := range RequestClauses(c.raw) {
			got = cl.Object()
			break
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("RequestClauses(%q)'s first Object() (-want +got):\n%s", c.raw, diff)
		}
	}
}

func TestOwnQuestion(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"Has my state tax refund been issued yet?", []string{"state", "tax", "refund"}},
		{"is our order for the party shipped?", []string{"order"}},
		{"does my calendar have anything on friday?", []string{"calendar"}},
		{"what is my balance?", nil},
		{"has the refund been issued?", nil},
		{"is my", nil},
		{"Is my jira issue OPS-12 closed?", []string{"jira", "issue"}},                                           // a value ends the subject
		{"Is my calendar free tomorrow afternoon?", []string{"calendar"}},                                        // a time phrase, then the predicate
		{"Is my air quality good today?", []string{"air", "quality"}},                                            // the same
		{"Has my package arrived?", []string{"package"}},                                                         // a predicate ends a question of state
		{"Does my health insurance cover acupuncture?", []string{"health", "insurance", "cover", "acupuncture"}}, // not a do-question
		{"is my invoice", []string{"invoice"}},
	} {
		if diff := cmp.Diff(c.want, OwnQuestion(c.raw)); diff != "" {
			t.Errorf("OwnQuestion(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
}

// TestHasClauseBreak: a clause break word in any case, with a comma or
// semicolon around it; not inside another word or in other punctuation.
func TestHasClauseBreak(t *testing.T) {
	for raw, want := range map[string]bool{
		"find the log and delete it": true, "find the log, Then, delete it": true, "post it ;also ping bob": true,
		"find the android logs": false, "band then-and-now": false, "": false, "and.": false,
	} {
		if got := HasClauseBreak(raw); got != want {
			t.Errorf("HasClauseBreak(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestCoverageVerbs: a word the catalog does not know counts as known in
// Result.Coverage when Options.CoverageVerbs gives a plain verb for it
// that the catalog knows; the hits do not change.
func TestCoverageVerbs(t *testing.T) {
	ix := NewIndex(testDocs)
	verbs := func(w string) []string {
		switch w {
		case "zorblax":
			return []string{"qux", "send"} // "send" is known
		case "quxify":
			return []string{"qux"} // unknown too
		}
		return nil
	}
	for _, c := range []struct {
		q        string
		coverage float64 // with CoverageVerbs; without it 0.5
	}{
		{"zorblax messages", 1},
		{"quxify messages", 0.5},
		{"messages zorblax", 1}, // any word, not only the first
	} {
		q := mustParse(t, c.q)
		plain := ix.Keyword(q, Options{Limit: 5})
		res := ix.Keyword(q, Options{Limit: 5, CoverageVerbs: verbs})
		if math.Abs(plain.Coverage-0.5) > 1e-9 || math.Abs(res.Coverage-c.coverage) > 1e-9 {
			t.Errorf("%q: Coverage %.3f without CoverageVerbs, %.3f with; want 0.5, %.3f", c.q, plain.Coverage, res.Coverage, c.coverage)
		}
		if !slices.Equal(plain.Hits, res.Hits) || res.WordCoverage != plain.WordCoverage {
			t.Errorf("%q: CoverageVerbs changed the hits or WordCoverage", c.q)
		}
	}
}

// TestLetKnowOneRule: the coverage (letKnow, over a raw request's tokens)
// and the verb expansion (requestExpansions, over its words) read the same
// "let X know" frames.
func TestLetKnowOneRule(t *testing.T) {
	for _, raw := range []string{
		"let the team in #design know the mockups are ready",
		"please let everyone in #releases know v2.8 is live",
		"I'm running late. Can you let #standup know I'll join soon?",
		"could you let the whole of the platform team over there know",
		"let the whole of the platform team over there now know",
		"let me know the forecast",
		"let us know",
		"let's ship it, I know",
		"let the team decide",
		"let",
		"know let",
	} {
		let, know := letKnow(strings.Fields(raw))
		var ws []planWord
		for _, w := range analysis.Words().Analyze(raw) {
			ws = append(ws, planWord{word: w, hasTerms: true})
		}
		expanded := slices.ContainsFunc(requestExpansions(ws, nil), func(v verbExpansion) bool { return v.key == "let _ know" })
		if framed := know > let; framed != expanded {
			t.Errorf("%q: letKnow framed %v (%d, %d), the expansion %v", raw, framed, let, know, expanded)
		}
	}
}

// TestCutVerbPrefix: a prefix a hyphen joins to a verb is cut in one
// place, and the request's opening and its first clause read the same
// verb after it.
func TestCutVerbPrefix(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"e-file my tax return", "file"}, {"co-sign the lease", "sign"}, {"re-send the invite", "send"},
		{"e-please do it", "e"}, {"x-ray my arm", "ray"}, {"follow-up with bob", "follow"},
	} {
		tok := strings.Fields(c.raw)[0]
		if got := cutVerbPrefix(tok, analysis.Words().Analyze(tok)); got[0] != c.want {
			t.Errorf("cutVerbPrefix(%q) = %q, want %q first", tok, got, c.want)
		}
		var first string
		for cl := range RequestClauses(c.raw) {
			first = cl.First
			break
		}
		if op := RequestOpening(c.raw); op.Verb != first {
			t.Errorf("%q: RequestOpening's verb %q, RequestClauses' first %q", c.raw, op.Verb, first)
		}
	}
}

// TestReschedules: a verb that moves a thing in time, with a time after
// it, opens the reschedule frame; the same verb without a time, or
// another verb, does not.
func TestReschedules(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{"push my dentist appointment on Friday to 4pm", true},
		{"push the standup an hour later", true},
		{"move my 2pm meeting to thursday", true},
		{"push my local commits to origin", false},
		{"cancel the standup tomorrow", false},
		{"push", false},
	} {
		if got := Reschedules(analysis.Words().Analyze(c.raw)); got != c.want {
			t.Errorf("Reschedules(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
}

// TestTimeFrame: a request that moves a thing in time, or books one,
// with a time after its verb, opens that frame; without a time, or with
// another verb, none.
func TestTimeFrame(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"push my dentist appointment on Friday to 4pm", RescheduleKey},
		{"book a 30 minute sync with Priya tomorrow at 10", BookKey},
		{"schedule a review on wednesday", BookKey},
		{"book a table for two", ""},
		{"push my local commits to origin", ""},
		{"cancel the standup tomorrow", ""},
		{"book", ""},
		{"", ""},
	} {
		if got := TimeFrame(analysis.Words().Analyze(c.raw)); got != c.want {
			t.Errorf("TimeFrame(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// TestFramedCoverage: in a request that moves a thing in time, the verb
// and the times the frame reads count as known to a catalog that knows
// the frame's plain words (CoverageVerbs), and the hits do not change.
func TestFramedCoverage(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "calendar__update_event", Server: "calendar", Description: "Change a calendar event: its time or title."},
		{Name: "files__move_file", Server: "files", Description: "Move a file."},
	})
	q := mustParse(t, "push my dentist appointment on friday")
	plain := ix.Keyword(q, Options{Limit: 5, Expand: true})
	res := ix.Keyword(q, Options{Limit: 5, Expand: true, CoverageVerbs: VerbSynonyms})
	if plain.Coverage != 0 || math.Abs(res.Coverage-0.5) > 1e-9 {
		t.Errorf("Coverage %.3f without CoverageVerbs, %.3f with; want 0, 0.5 (push and friday of four words)", plain.Coverage, res.Coverage)
	}
	if !slices.Equal(plain.Hits, res.Hits) {
		t.Errorf("CoverageVerbs changed the hits")
	}
}
