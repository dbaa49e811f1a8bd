package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/search"
)

// TestPathValueRanksPathTakers: a short request that acts on a local path
// or a file name ranks the tools whose parameters take one (boostPathTakers)
// ahead of the tools whose text shares the value's words or the request's
// other words: e-mail's draft for "save ... to greeting.txt", the database
// for "how big is backup.tar", the notes for "/srv/uploads".
func TestPathValueRanksPathTakers(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	for _, tc := range []struct{ query, want string }{
		{"save 'hello world' to greeting.txt", "filesystem__write_file"},
		{"how big is backup.tar", "filesystem__get_file_info"},
		{"What's in the /srv/uploads folder?", "filesystem__list_directory"},
		{"get src/main.go from acme/api on github", "github__get_file_contents"},
	} {
		for _, n := range []int{2, 5} { // the answer's first does not depend on max_results
			res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: search.ModeKeyword, MaxResults: n})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.References) == 0 || res.References[0].Name != tc.want {
				t.Errorf("%q (max %d): top %v, want %s first", tc.query, n, res.References, tc.want)
			}
		}
	}
}

// TestPathValueLongRequest: a request longer than pathMaxWords is a task
// whose path is often where its result goes, as livemcpbench's ("... and
// save it to /root/ppt/x.pptx"): its path lifts no tool that takes one
// over the tools of what it asks first.
func TestPathValueLongRequest(t *testing.T) {
	e := newEngine(t, loadSnapshot(t, exampleCatalog), search.Config{})
	const q = "look up the weather forecast for Lisbon this weekend and write it into ~/trip/weather.txt"
	res, err := e.Search(context.Background(), search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.References[:min(3, len(res.References))] {
		if !strings.HasPrefix(r.Name, "weather__") {
			t.Errorf("%q: %s among the 3 best, want the weather tools", q, r.Name)
		}
	}
}

// TestValueKindRanksTakers: an issue key or a URL ranks the tools that
// take one as a path does (pathKinds): "move OPS-7 into QA" found
// filesystem__move_file by its verb, "show me what
// https://example.com/changelog says" git__log by "changelog".
func TestValueKindRanksTakers(t *testing.T) {
	firstTools(t, []firstCase{
		{"move OPS-7 into QA", search.ModeKeyword, "jira__transition_issue"},
		{"move OPS-7 into QA", search.ModeDefault, "jira__transition_issue"},
		{"show me what https://example.com/changelog says", search.ModeKeyword, "fetch__fetch_url"},
		{"show me what https://example.com/changelog says", search.ModeDefault, "fetch__fetch_url"},
	})
}

// TestValueKindNumberParameter: a parameter that takes a number or a
// boolean takes no value of a kind, whatever its words (namesValueKind):
// a search tool's integer "page" is no web page, and the URL of "get the page
// of the docs at https://docs.example.com" lifts the tool that fetches one.
func TestValueKindNumberParameter(t *testing.T) {
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "web__fetch_page", Description: "Fetch a web page and return its text.",
			InputSchema: []byte(`{"type":"object","properties":{"url":{"type":"string","description":"The address of the page."}}}`)},
		{Name: "docs__search_docs", Description: "Search the product docs for a phrase.",
			InputSchema: []byte(`{"type":"object","properties":{"query":{"type":"string","description":"Words to find."},"page":{"type":"integer","description":"Result page, from 1."}}}`)},
		{Name: "docs__list_sections", Description: "List the sections of the product docs.",
			InputSchema: []byte(`{"type":"object","properties":{"page":{"type":"integer","description":"Result page, from 1."}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, snap, search.Config{})
	const q = "get the page of the docs at https://docs.example.com"
	res, err := e.Search(context.Background(), search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.References) == 0 || res.References[0].Name != "web__fetch_page" {
		t.Errorf("%q: %v, want web__fetch_page first", q, names(res))
	}
}

// TestValueKindLongRequest: an issue key or a URL is read whatever the
// request's length (pathKindsOf): unlike a path, a longer task's URL is
// what it acts on, not where its result goes.
func TestValueKindLongRequest(t *testing.T) {
	firstTools(t, []firstCase{
		{"please grab the full text of https://example.com/blog/post-42 so that I can read it here in the chat", search.ModeKeyword, "fetch__fetch_url"},
	})
}

// valueOnlyCatalog is a drive, a chat and a photo server whose tools take
// a folder, a file's path, several files' paths or none: the requests of
// TestPathKindWords are little more than a path.
func valueOnlyCatalog(t *testing.T) *catalog.Snapshot {
	t.Helper()
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "drive__list_folder", Description: "List the items stored in a folder of the drive.",
			InputSchema: []byte(`{"type":"object","properties":{"folder":{"type":"string","description":"Folder to list, e.g. /Shared/Reports."}}}`)},
		{Name: "drive__open_document", Description: "Return the text of a document stored on the drive.",
			InputSchema: []byte(`{"type":"object","properties":{"file_path":{"type":"string","description":"Path of the file to open."}}}`)},
		{Name: "drive__open_documents", Description: "Return the texts of several documents stored on the drive at once.",
			InputSchema: []byte(`{"type":"object","properties":{"file_paths":{"type":"array","items":{"type":"string"},"description":"Paths of the files to open."}}}`)},
		{Name: "drive__share_item", Description: "Share an item of the drive with other people.",
			InputSchema: []byte(`{"type":"object","properties":{"item":{"type":"string","description":"Path of the item to share."},"emails":{"type":"array","items":{"type":"string"},"description":"Whom to share it with."}}}`)},
		{Name: "chat__list_rooms", Description: "List the chat rooms you are in, with their topics and what is new in them.",
			InputSchema: []byte(`{"type":"object","properties":{"limit":{"type":"integer","description":"How many rooms."}}}`)},
		{Name: "chat__room_history", Description: "Get the latest messages said in a chat room.",
			InputSchema: []byte(`{"type":"object","properties":{"room":{"type":"string","description":"Room name."}}}`)},
		{Name: "photos__list_albums", Description: "List the photo albums of the account, newest first.",
			InputSchema: []byte(`{"type":"object","properties":{}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestPathKindWords: a short request of little more than a path has no
// keyword hit of its own, or only the tools its path's words name
// ("share" of /mnt/share): keyword search matches the path also through
// the word of what it names (fallback.PathKindWords: a folder for a path
// without an extension, a file for a file's name), so the tools that take
// that kind come first, the one whose parameter names the kind before the
// others that take a path.
func TestPathKindWords(t *testing.T) {
	firstToolsOn(t, newEngine(t, valueOnlyCatalog(t), search.Config{}), []firstCase{
		{"What's under /mnt/share/?", search.ModeKeyword, "drive__list_folder"},
		{"Anything new in ~/Pictures/2025?", search.ModeKeyword, "drive__list_folder"},
		{"What does ~/thesis/chapter-3.odt say?", search.ModeKeyword, "drive__open_document"},
	})
}

// TestPathListFits: among the tools that take a path, the one whose
// parameter takes a list (an array) fits a list of paths, and the one
// whose parameter takes a single path fits one (misfitsPath).
func TestPathListFits(t *testing.T) {
	e := newEngine(t, valueOnlyCatalog(t), search.Config{})
	for _, tc := range []struct{ query, want string }{
		{"Show me ~/thesis/intro.md, ~/thesis/methods.md and ~/thesis/results.md", "drive__open_documents"},
		{"budget-2026.xlsx and forecast.xlsx side by side", "drive__open_documents"},
		{"What does ~/thesis/chapter-3.odt say?", "drive__open_document"},
		{"What is in budget-2026.xlsx?", "drive__open_document"},
	} {
		res, err := e.Search(context.Background(), search.Request{Query: tc.query, Mode: search.ModeKeyword, MaxResults: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.References) == 0 || res.References[0].Name != tc.want {
			t.Errorf("%q: %v, want %s first", tc.query, names(res), tc.want)
		}
	}
}

// TestPathKindWordsExample: "What's in ~/Downloads?", written by three
// writers of the tenth session's pairs, had no keyword hit and took the
// Slack tools from the semantic ranking.
func TestPathKindWordsExample(t *testing.T) {
	firstTools(t, []firstCase{
		{"What's in ~/Downloads?", search.ModeDefault, "filesystem__list_directory"},
		{"What's in ~/Downloads?", search.ModeKeyword, "filesystem__list_directory"},
		{"when was data.csv created", search.ModeDefault, "filesystem__get_file_info"},
	})
}

// TestIssueKeyRanksItsGetter: an issue key is an issue's identifier
// (issueKeyRef): it lifts the tools whose parameter takes an issue's key
// (jira__get_issue, jira__transition_issue), not those whose parameters
// only say "issue" or "key" (jira__search_issues' "fields" lists "key",
// jira__create_issue's project_key), which "pull up OPS-42" ranked first.
func TestIssueKeyRanksItsGetter(t *testing.T) {
	firstTools(t, []firstCase{
		{"pull up OPS-42 and tell me its priority", search.ModeKeyword, "jira__get_issue"},
		{"pull up OPS-42 and tell me its priority", search.ModeDefault, "jira__get_issue"},
		{"what's the status of PAY-77", search.ModeKeyword, "jira__get_issue"},
	})
}

// TestCoordinatesRankTheirTakers: coordinates are a kind of value whose
// parameters take numbers (numberKinds): "what address is 51.5007,
// -0.1246" ranks maps__reverse_geocode, whose latitude and longitude are
// numbers, over maps__geocode, which "address" draws (keyword mode: in
// the default mode the semantic half still ranks maps__geocode first).
func TestCoordinatesRankTheirTakers(t *testing.T) {
	firstTools(t, []firstCase{
		{"what address is 51.5007, -0.1246", search.ModeKeyword, "maps__reverse_geocode"},
		{"which street is at 35.6586, 139.7454", search.ModeKeyword, "maps__reverse_geocode"},
	})
}

// TestOpenValueReads: "open" before a path or a file name opens a thing
// that exists: it reads ("open _" of fallback.VerbSynonyms), where "open
// a ticket" makes one.
func TestOpenValueReads(t *testing.T) {
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "helpdesk__create_ticket", Description: "Open a new support ticket for a customer problem.",
			InputSchema: []byte(`{"type":"object","properties":{"title":{"type":"string","description":"Short title."},"body":{"type":"string","description":"What happened."}}}`)},
		{Name: "docs__read_document", Description: "Read the text of a document from local storage.",
			InputSchema: []byte(`{"type":"object","properties":{"path":{"type":"string","description":"Path of the document."}}}`)},
		{Name: "docs__delete_document", Description: "Delete a document from local storage.",
			InputSchema: []byte(`{"type":"object","properties":{"path":{"type":"string","description":"Path of the document."}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	firstToolsOn(t, newEngine(t, snap, search.Config{}), []firstCase{
		{"open ~/contracts/lease-2026.pdf", search.ModeKeyword, "docs__read_document"},
		{"Open minutes-2026-03.docx", search.ModeKeyword, "docs__read_document"},
		{"open a ticket: the printer is jammed", search.ModeKeyword, "helpdesk__create_ticket"},
	})
}

// TestEmojiRanksItsTaker: an emoji's short code is a kind of value
// (pathKinds) taken by a parameter for a reaction or an emoji, read after
// "with" and after a support verb too ("put a :eyes: on …": the emoji
// says the action): slack__add_reaction over the message tools.
func TestEmojiRanksItsTaker(t *testing.T) {
	firstTools(t, []firstCase{
		{"slap a :tada: on message 1712345678.000100 in C0123ABC", search.ModeDefault, "slack__add_reaction"},
		{"slap a :tada: on message 1712345678.000100 in C0123ABC", search.ModeKeyword, "slack__add_reaction"},
		{"give message 1712345678.000100 a :+1:", search.ModeDefault, "slack__add_reaction"},
	})
}

// TestFileOfRepository: a file named with the repository that holds it
// (an owner/name pair) is read as the request's object at any length
// (actedPathKinds), a path after "into" or "as" is where the result goes,
// and without a repository a long request's path is left to pathMaxWords;
// the tool that gets a file from a repository then ranks first.
func TestFileOfRepository(t *testing.T) {
	kinds := []struct {
		raw  string
		want []string
	}{
		{"Show me the README.md of vercel/swr as it stood at tag v2.0.0, please", []string{fallback.KindFile}},
		{"Copy the whole thing from acme/platform on GitHub into ~/code/toolkit/.golangci.yml", nil},
		{"Please read the crash report in ~/reports/crash.txt and file it as a bug", nil},
	}
	for _, tt := range kinds {
		if diff := cmp.Diff(tt.want, search.ActedPathKinds(tt.raw)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.raw, diff)
		}
	}
	firstTools(t, []firstCase{
		{"Show me the README.md of vercel/swr as it stood at tag v2.0.0, please", search.ModeDefault, "github__get_file_contents"},
		{"Show me the README.md of vercel/swr as it stood at tag v2.0.0, please", search.ModeKeyword, "github__get_file_contents"},
	})
}

// TestIssueKeyNamesIssue: an issue key matches through the word of what
// it names, "issue" (fallback's valueKind), so a request that names an
// issue by its key alone finds the tool that gets an issue.
func TestIssueKeyNamesIssue(t *testing.T) {
	firstTools(t, []firstCase{
		{"Which fix version is set on PAY-2291?", search.ModeDefault, "jira__get_issue"},
		{"Which fix version is set on PAY-2291?", search.ModeKeyword, "jira__get_issue"},
		{"who is working on OPS-1402 right now", search.ModeDefault, "jira__get_issue"},
	})
}

// TestGlobPatternTakers: a glob pattern of file names ("*.rs") is a value
// of its kind (fallback.KindPattern), read at any length: keyword search
// matches it through "glob" and "pattern", and the path rule lifts the
// tools whose parameters take one.
func TestGlobPatternTakers(t *testing.T) {
	firstTools(t, []firstCase{
		{"Find every *.rs file under ~/src, skipping anything inside the target folder", search.ModeDefault, "filesystem__search_files"},
		{"Find every *.rs file under ~/src, skipping anything inside the target folder", search.ModeKeyword, "filesystem__search_files"},
	})
}
