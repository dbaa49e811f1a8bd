package search

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
)

// TestToolActions: what a tool does is said by its name and the leading
// verbs of its description's sentences, not by every word of it.
func TestToolActions(t *testing.T) {
	for _, c := range []struct {
		tool   catalog.Tool
		has    []string
		hasNot []string
	}{
		{catalog.Tool{Name: "github__create_pull_request", Description: "Open a new pull request in a GitHub repository to merge a head branch into a base branch."},
			[]string{"create", "open"}, []string{"merge", "github", "pull", "request"}}, // "Open a new pull request": it opens them
		{catalog.Tool{Name: "notes__delete_note", Description: "Move a note to the trash. It can be restored from the trash for 30 days."},
			[]string{"delete", "move"}, []string{"restored", "restore", "trash", "it"}}, // "It can ...": a subject before an auxiliary, no action (fallback.ToolActions)
		{catalog.Tool{Name: "github__get_file_contents", Description: "Get the contents of a file. Files are returned decoded as text."},
			[]string{"get"}, []string{"files", "returned"}},
		{catalog.Tool{Name: "filesystem__move_file", Description: "Move or rename a file or directory. Fails if the destination already exists."},
			[]string{"move", "rename", "fails"}, []string{"destination"}},
		{catalog.Tool{Name: "fetch__http_request", Description: "Make an HTTP request with any method. Use it to call a REST API."},
			[]string{"make", "http", "request", "use", "call", "rest", "api"}, []string{"method"}},
		{catalog.Tool{Name: "postgres__execute", Description: "Execute a SQL statement that changes the database (INSERT, UPDATE, DELETE)."},
			[]string{"execute", "sql", "insert", "update", "delete"}, []string{"changes", "database"}},
		{catalog.Tool{Name: "vimeo__getvideofromuser", Description: "vimeo__getvideofromuser Get all videos credited to a user."},
			[]string{"getvideofromuser", "get"}, []string{"videos", "vimeo"}},
		{catalog.Tool{Name: "weather.get_forecast", Description: "Get the forecast."}, []string{"get"}, []string{"weather", "forecast"}},
		{catalog.Tool{Name: "twitter__get_post_retweets", Description: "Retweets of a post."}, []string{"get", "retweets"}, []string{"post"}},
		{catalog.Tool{Name: "jira__add_comment", Description: "Add a comment to a Jira issue."}, []string{"add", "comment"}, []string{"jira", "issue"}},
		// A word of the name that a description opening with a light verb reads is read.
		{catalog.Tool{Name: "binance_smart_chain__block", Description: "Get full data from a specific block on the Binance Smart Chain!"},
			[]string{"get"}, []string{"block", "data"}},
		{catalog.Tool{Name: "jira__block_issue", Description: "Block an issue until another is done."}, []string{"block", "issue"}, nil},
		// A support verb's object is what the tool does: it takes screenshots, it makes calls.
		{catalog.Tool{Name: "browser__take_screenshot", Description: "Take a screenshot of the current page."}, []string{"take", "screenshot"}, []string{"page"}},
		{catalog.Tool{Name: "playwright__playwright_screenshot", Description: "Take a screenshot of the current page."}, []string{"take", "screenshot"}, []string{"page"}},
		// What the light verb reads ends at a comma or a word that chains another verb.
		{catalog.Tool{Name: "fs__delete_file", Description: "Locate a file and delete it."}, []string{"delete", "locate"}, []string{"file"}},
		{catalog.Tool{Name: "email__send_draft", Description: "Get a draft, then send it."}, []string{"send", "get"}, []string{"draft"}},
		// "and" or "or" before a verb ends what a light verb reads.
		{catalog.Tool{Name: "word-document-server__search_and_replace", Description: "Search for text and replace all occurrences."},
			[]string{"search", "replace"}, []string{"text", "occurrences"}},
		{catalog.Tool{Name: "counter__get_count_and_increase_by_one", Description: "get count and increase by one"}, []string{"get", "increase"}, []string{"count"}},
		{catalog.Tool{Name: "get_current_and_future_temperature", Description: "Gets the temperature."}, []string{"get", "gets"}, []string{"current", "future", "temperature"}},
		// A sentence that tells the caller how to set a parameter named as code is not what the tool does.
		{catalog.Tool{Name: "email__reply_to_email", Description: "Reply to an email message. Set reply_all to include every original recipient.",
			InputSchema: []byte(`{"type":"object","properties":{"message_id":{"type":"string"},"reply_all":{"type":"boolean"}}}`)},
			[]string{"reply"}, []string{"set"}},
		{catalog.Tool{Name: "translate", Description: "Translate text from one language to another. Set target_lang to choose.",
			InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"},"target_lang":{"type":"string"}}}`)},
			[]string{"translate"}, []string{"set"}}, // a plain word ("text") after the verb leaves the sentence
		// The server of every name form catalog.SplitName reads, and a
		// dotted API's path before its method, are not what the tool does.
		{catalog.Tool{Name: "slack/send_message", Description: "Send a message."}, []string{"send", "message"}, []string{"slack"}},
		{catalog.Tool{Name: "mcp__slack__send_message", Description: "Send a message."}, []string{"send", "message"}, []string{"slack", "mcp"}},
		{catalog.Tool{Name: "audit_api.AuditApi.purge_records", Description: "Purges old records."}, []string{"purge", "records", "purges"}, []string{"audit", "api"}},
	} {
		got := toolActions(c.tool)
		for _, w := range c.has {
			if !slices.Contains(got, w) {
				t.Errorf("toolActions(%s) = %q, want %q in it", c.tool.Name, got, w)
			}
		}
		for _, w := range c.hasNot {
			if slices.Contains(got, w) {
				t.Errorf("toolActions(%s) = %q, want no %q", c.tool.Name, got, w)
			}
		}
	}
}

// FuzzToolActions: toolActions and toolPlaces never panic on any name or
// description (every name form catalog.SplitName reads, text without
// spaces, invalid UTF-8) and give only words as analysis.Words gives them
// (toolPlaces their stems): not empty, lowercase.
func FuzzToolActions(f *testing.F) {
	for _, s := range [][2]string{
		{"word-document-server__search_and_replace", "Search for text and replace all occurrences."},
		{"mcp__slack__", ""}, {"a.b.c", "X"}, {"slack/", "/"}, {"__", "__ __"}, {"get_and", "and or"}, {"get_or_and", "Use"},
		{"查询", strings.Repeat("删除", 400)}, {"x", "\xff\xfe INSERT\xff"}, {"Make", "Make"}, {"x", "use it to"},
		{"AuditApi.get_x", "x Get CREATE_TABLE, HTTP/2. Use it to"},
		{"email__reply_to_email", "Reply to an email. Set reply_all to include everyone."}, {"x", "Set dryRun."}, {"x", "Set a_b"},
		// toolPlaces: a place's preposition at a phrase's end, before a
		// break, or twice; only articles after it; a place of its own name.
		{"calendar__create_event", "Create an event in a calendar, on the."}, {"x", "in"}, {"x", "in the (a)"}, {"x", "in on across x"},
		{"github__create_issue", "Create an issue in a GitHub repository with a title"}, {"s__in", "In IN in. On:"},
		// A sentence's subject before an auxiliary (fifteenth session).
		{"x", "Files are"}, {"x", "Files (are)."}, {"x", "are are. Is"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, desc string) {
		// A schema whose parameter names are the description's second and
		// third words, so that withoutParamSentences drops sentences.
		var props []string
		for i, w := range strings.Fields(desc) {
			if i == 1 || i == 2 {
				if b, err := json.Marshal(strings.Trim(w, ".,;:()[]\"'`")); err == nil {
					props = append(props, string(b)+":{}")
				}
			}
		}
		schema := []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
		tool := catalog.Tool{Name: name, Description: desc, InputSchema: schema}
		for _, w := range toolActions(tool) {
			if w == "" || w != strings.ToLower(w) {
				t.Errorf("toolActions(%q, %q) has %q: want lowercase words", name, desc, w)
			}
		}
		var ids [][2]string // a thing whose identifier a parameter takes: the description's last word
		if ws := fallback.Words(desc); len(ws) > 0 {
			ids = append(ids, [2]string{ws[len(ws)-1], "id"})
		}
		for _, w := range toolPlaces(tool, ids) {
			if w == "" || w != strings.ToLower(w) {
				t.Errorf("toolPlaces(%q, %q) has %q: want lowercase stems", name, desc, w)
			}
		}
	})
}

// TestCodeName: a parameter name is code with an underscore or a capital
// after a lowercase letter, read as letters, not bytes ("página" is a
// word: its "á" is no capital after "p").
func TestCodeName(t *testing.T) {
	for name, want := range map[string]bool{
		"reply_all": true, "dryRun": true, "páginaNueva": true,
		"query": false, "URL": false, "página": false, "día": false, "Ünïcode": false, "": false,
	} {
		if got := codeName(name); got != want {
			t.Errorf("codeName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestTakesVerb: a tool takes a verb when a parameter is named by the
// verb's noun (-s, -es, -ee, -ment, y → -ies), not by its bare form (a
// sort order, a file format) nor by a word that only starts with it.
func TestTakesVerb(t *testing.T) {
	schema := func(params ...string) json.RawMessage { return paramSchema(t, "string", params...) }
	st := newState(mustSnapshot(t, []catalog.Tool{
		{Name: "create_issue", Description: "Create an issue.", InputSchema: schema("title", "assignees", "labels")},
		{Name: "list_orders", Description: "List orders.", InputSchema: schema("order", "format", "startTime")},
		{Name: "send_invite", Description: "Send an invite.", InputSchema: schema("invitees", "attachments", "replies")},
	}), nil)
	for _, c := range []struct {
		tool, verb string
		want       bool
	}{
		{"create_issue", "assign", true},
		{"create_issue", "label", true},
		{"create_issue", "title", false}, // the bare form
		{"create_issue", "close", false},
		{"list_orders", "order", false}, // the bare form: a sort order
		{"list_orders", "format", false},
		{"list_orders", "start", false}, // startTime: a word that starts with it
		{"send_invite", "invite", true},
		{"send_invite", "attach", true},
		{"send_invite", "reply", true},
	} {
		id := -1
		for i, tl := range st.snap.All() {
			if tl.Name == c.tool {
				id = i
			}
		}
		if got := st.takesVerb(id, c.verb); got != c.want {
			t.Errorf("takesVerb(%s, %q) = %v, want %v", c.tool, c.verb, got, c.want)
		}
	}
}

// paramSchema returns an object's input schema whose properties are
// params, each of type typ.
func paramSchema(t testing.TB, typ string, params ...string) json.RawMessage {
	t.Helper()
	props := map[string]any{}
	for _, p := range params {
		props[p] = map[string]string{"type": typ}
	}
	b, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
