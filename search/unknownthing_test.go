package search_test

import "testing"

// TestMadeUnknown: a thing made whose head no tool has, of a place a tool
// has ("a read replica of the production database"), is served only by
// the words of the object's own phrase (madeUnknown): postgres__execute,
// which creates and has the database, does not make the replica. A thing
// made in a place (a calendar, a note) is the place's thing, and a thing a
// tool has keeps its tool.
func TestMadeUnknown(t *testing.T) {
	topAndFlag(t, []topCase{
		{"create a read replica of the production database", "", true},
		{"spin up a read replica of the orders database", "", true},
		{"create a calendar appointment for the dentist on Friday at 9am", "calendar__create_event", false},
		{"create a note of the meeting with Lee", "notes__create_note", false},
	})
}
