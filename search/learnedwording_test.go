package search_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestLearnedWording: one session's "put a dentist appointment on my
// calendar for March 3 at 9am" taught calendar__create_event; four
// sessions moved dentist appointments with calendar__update_event. In a
// keyword search for "add a dentist appointment on March 3 at 10am to my
// calendar", the learned query worded nearly as the request scores as
// create_event's own text (wordedCandidate), so it ranks first, where
// the boost alone (one session's evidence, against update_event's four
// sessions sharing "dentist appointment") left update_event first. The
// lift started from the wording does not vouch for the tool to the
// no-match rules (Learned.ByWording).
func TestLearnedWording(t *testing.T) {
	e := exampleLearningEngine(t)
	req := search.Request{Query: "add a dentist appointment on March 3 at 10am to my calendar", Mode: search.ModeKeyword, MaxResults: 5}
	if got := names(search1(t, e, req)); len(got) == 0 || got[0] != "calendar__create_event" {
		t.Fatalf("without learning, %q ranks %v; want calendar__create_event first", req.Query, got)
	}
	sessions := [][]string{
		{"put a dentist appointment on my calendar for March 3 at 9am", "calendar__create_event"},
		{"schedule a meeting with alice tomorrow at 3pm", "calendar__create_event"},
		{"set up a 30 minute call with Sam on Tuesday", "calendar__create_event"},
		{"can you find an hour next tuesday when jo@acme.com and I are both free and book a 1:1 then", "calendar__find_free_time", "calendar__create_event"},
		{"move the dentist appointment to Thursday at 4", "calendar__update_event"},
		{"push my dentist appointment on Friday to 4pm", "calendar__update_event"},
		{"move my 2pm dentist appointment to thursday at 4pm", "calendar__update_event"},
		{"shift my dentist appointment on Thursday to 4pm", "calendar__update_event", "calendar__list_events"},
		{"what's on my calendar for Friday", "calendar__list_events"},
		{"what's on my agenda tomorrow?", "calendar__list_events"},
		{"what's on my calendar next tuesday", "calendar__list_events"},
	}
	for n, s := range sessions {
		learnSession(t, e, fmt.Sprintf("s%d", n), s[0], s[1:]...)
	}
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "calendar__create_event" || !isLifted(res, "calendar__create_event") {
		t.Fatalf("after learning, %q ranks %v; want calendar__create_event first, lifted", req.Query, got)
	}
	if l := res.References[0].Learned; !l.ByWording {
		t.Errorf("the first hit's provenance %+v; want ByWording", *l)
	}
}

// TestLearnedWordingAlone: one session's "stage and commit my changes
// with the message fix typo" used git__add and git__commit, so both
// learned it: a request worded nearly as it ("commit the staged files …
// with the message 'fix typo in docs'") cannot tell them apart by it, and
// neither is scored by the wording (wordedCandidate: only a candidate
// whose closeness no other's comes near). git__commit, which the
// catalog's text ranks first, stays first; scoring git__add by the
// wording put it first.
func TestLearnedWordingAlone(t *testing.T) {
	e := exampleLearningEngine(t)
	req := search.Request{Query: "commit the staged files in ~/proj with the message 'fix typo in docs'", Mode: search.ModeKeyword, MaxResults: 5}
	if got := names(search1(t, e, req)); len(got) == 0 || got[0] != "git__commit" {
		t.Fatalf("without learning, %q ranks %v; want git__commit first", req.Query, got)
	}
	sessions := [][]string{
		{"stage and commit my changes with the message fix typo", "git__add", "git__commit"},
		{"add main.go and go.sum to the next commit", "git__add"},
		{"stage README.md and docs/setup.md in ~/proj", "git__add"},
	}
	for n, s := range sessions {
		learnSession(t, e, fmt.Sprintf("s%d", n), s[0], s[1:]...)
	}
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "git__commit" {
		t.Errorf("after learning, %q ranks %v; want git__commit first", req.Query, got)
	}
	for _, r := range res.References {
		if r.Learned != nil && r.Learned.ByWording {
			t.Errorf("%s scored by the wording; want neither tool that learned it", r.Name)
		}
	}
}

// TestLearnedWordingNeedsEvidence: the learned wording raises only a
// candidate the boost may weigh (issue 15's rules): one session that used
// weather__get_forecast after the request's very wording (a session votes
// once: its second report of the tool is refused) does not let the tool
// join a keyword answer the catalog's text does not find it in, however
// exactly its learned query is worded as the request.
func TestLearnedWordingNeedsEvidence(t *testing.T) {
	e := exampleLearningEngine(t)
	const q, tool = "add a dentist appointment on March 3 at 10am to my calendar", "weather__get_forecast"
	req := search.Request{Query: q, Mode: search.ModeKeyword, MaxResults: 10}
	if got := names(search1(t, e, req)); slices.Contains(got, tool) {
		t.Fatalf("without learning, %q ranks %v; want no %s", q, got, tool)
	}
	learnSession(t, e, "s0", q, tool)
	res := search1(t, e, req)
	if got := names(res); slices.Contains(got, tool) || len(got) == 0 || got[0] != "calendar__create_event" {
		t.Errorf("after one session, %q ranks %v; want calendar__create_event first and no %s", q, got, tool)
	}
}
