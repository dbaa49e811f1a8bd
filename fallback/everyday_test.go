package fallback

import (
	"strings"
	"testing"
)

// conditionDocs are weather tools that name what they report plainly.
var conditionDocs = []Document{
	{Name: "weather__get_current_weather", Server: "weather", Description: "Get the current weather for a location: temperature, wind and humidity."},
	{Name: "weather__get_forecast", Server: "weather", Description: "Get the weather forecast for the next days."},
	{Name: "weather__get_air_quality", Server: "weather", Description: "Get the air quality index for a location."},
	{Name: "weather__get_alerts", Server: "weather", Description: "Get active severe weather alerts for a region."},
	{Name: "email__send_email", Server: "email", Description: "Send an email to recipients."},
	{Name: "notes__create_note", Server: "notes", Description: "Create a note with a title and a body."},
}

// TestKeywordEverydayWords: with Options.Expand a request's everyday word
// for a condition (everydayWords) matches the plainer name tools use and
// counts as known in the coverage; without it the request matches nothing.
func TestKeywordEverydayWords(t *testing.T) {
	ix := NewIndex(conditionDocs)
	for _, c := range []struct{ query, want string }{
		{"will it snow in Denver on Saturday", "weather__get_forecast"},
		{"is it raining in Oslo", "weather__get_forecast"},
		{"how hot is it in Madrid", "weather__get_current_weather"},
		{"how windy is it right now", "weather__get_current_weather"},
		{"how bad is the smog in Delhi", "weather__get_air_quality"},
		{"any tornado warnings in Oklahoma", "weather__get_alerts"}, // a plural, as for short forms
		{"is there a heat advisory for Las Vegas", "weather__get_alerts"},
		{"will it hail in Denver tomorrow", "weather__get_forecast"}, // hail in a weather context (otherSense)
	} {
		t.Run(c.query, func(t *testing.T) { checkExpandedForm(t, ix, c.query, c.want, false) })
	}
}

// TestHailBooksARide: "hail" is a booking verb as well as the weather
// (otherSense, as "drive" and "cold"), so "hail a cab" outside a weather
// context matches no weather tool through "weather forecast".
func TestHailBooksARide(t *testing.T) {
	ix := NewIndex(conditionDocs)
	for _, query := range []string{"hail a cab to the airport", "hail me a taxi"} {
		if got := names(ix, ix.Keyword(mustParse(t, query), Options{Limit: 3, Expand: true})); len(got) > 0 {
			t.Errorf("Keyword(%q, Expand) = %v, want no weather tool", query, got)
		}
	}
}

// TestEverydayWordsTable: every entry maps a lowercase word to plainer
// words, and no word is both a short form and an everyday word (one table
// decides a word's reading).
func TestEverydayWordsTable(t *testing.T) {
	for k, e := range everydayWords {
		forms := e.forms
		if _, dup := shortForms[k]; dup {
			t.Errorf("everydayWords[%q] is a short form too", k)
		}
		if len(forms) == 0 || k != strings.ToLower(k) || strings.Contains(k, " ") {
			t.Errorf("everydayWords[%q] = %v", k, forms)
		}
		for _, f := range forms {
			if f == k || f != strings.ToLower(strings.TrimSpace(f)) {
				t.Errorf("everydayWords[%q] has %q", k, f)
			}
		}
	}
}

// TestMentionReadsAsMessages: what someone mentions is in their messages
// (mentionWords), so a tool that searches messages leads a tool that
// finds free time, for a request with no word of a message tool.
func TestMentionReadsAsMessages(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "slack__search_messages", Server: "slack", Description: "Search messages across the workspace by text, channel and author."},
		{Name: "calendar__find_free_time", Server: "calendar", Description: "Find time slots when all the given people are free."},
		{Name: "notes__search_notes", Server: "notes", Description: "Full-text search over notes by keywords."},
	})
	for _, query := range []string{
		"did anyone mention the budget this week",
		"find where anyone is mentioning the budget",
	} {
		firstExpanded(t, ix, mustParse(t, query), "slack__search_messages")
	}
}

// TestTrackerWordsReadAsIssues: a ticket or a bug of a tracker is what
// its tools call an issue (trackerWords), so the tool that searches
// issues is found for a request that says neither "issue" nor "search";
// a tool that says "tickets" itself keeps its own word's match.
func TestTrackerWordsReadAsIssues(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "tracker__search_issues", Server: "tracker", Description: "Search issues in a project with a query and return their key, summary and status."},
		{Name: "tracker__get_project", Server: "tracker", Description: "Get a project's lead and its workflow statuses."},
	})
	for _, query := range []string{
		"which PAY tickets are still waiting for review",
		"bugs in project MOB that nobody picked up",
	} {
		firstExpanded(t, ix, mustParse(t, query), "tracker__search_issues")
	}
	ix = NewIndex([]Document{
		{Name: "tracker__search_issues", Server: "tracker", Description: "Search issues in a project with a query and return their key, summary and status."},
		{Name: "events__buy_tickets", Server: "events", Description: "Buy tickets for a concert or a game."},
	})
	firstExpanded(t, ix, mustParse(t, "buy two tickets for the concert on Friday"), "events__buy_tickets")
}

// TestCountWordsAreValues: a number written as a word counts in the
// coverage as its digits do (countWords: a value the catalog does not
// know says nothing of whether it serves the request).
func TestCountWordsAreValues(t *testing.T) {
	ix := NewIndex([]Document{
		{Name: "maps__distance_matrix", Server: "maps", Description: "Compute travel distances and times between several origins and destinations."},
		{Name: "maps__get_directions", Server: "maps", Description: "Get directions between two places."},
	})
	for _, c := range []struct{ words, digits string }{
		{"distances between these four depots and three stores", "distances between these 4 depots and 3 stores"},
		{"travel times for a dozen origins", "travel times for 12 origins"},
	} {
		w := ix.Keyword(mustParse(t, c.words), Options{Limit: 3})
		d := ix.Keyword(mustParse(t, c.digits), Options{Limit: 3})
		if w.Coverage != d.Coverage {
			t.Errorf("coverage of %q = %v, of %q = %v: want the same", c.words, w.Coverage, c.digits, d.Coverage)
		}
	}
}
