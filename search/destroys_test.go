package search_test

import (
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestDestroysUnasked: a tool that destroys (calendar__delete_event) is
// not first for a request that asks no action it does (destroys.go);
// it stays first when the request asks it to, in its own words or a
// synonym ("nuke", "call off"), or opens with a verb nobody knows.
func TestDestroysUnasked(t *testing.T) {
	firstTools(t, []firstCase{
		{"add carol to the weekly sync event", search.ModeDefault, "calendar__update_event"},
		{"add carol to the weekly sync event", search.ModeKeyword, "calendar__update_event"},
		{"put a dentist appointment on my calendar for March 3 at 9am", search.ModeKeyword, "calendar__create_event"},
		// asked: the destroying tool stays first
		{"Nuke note n-77", search.ModeDefault, "notes__delete_note"},
		{"Call off event 9f3kq2 on my primary calendar", search.ModeDefault, "calendar__delete_event"},
		{"Call off event 9f3kq2 on my primary calendar", search.ModeKeyword, "calendar__delete_event"},
		{"delete the standup event tomorrow", search.ModeKeyword, "calendar__delete_event"},
		// a verb that neither list knows may destroy
		{"Scratch tomorrow's 1:1 off my schedule, event 0oq8tlm2x", search.ModeDefault, "calendar__delete_event"},
	})
}
