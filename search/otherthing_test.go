package search_test

import "testing"

// TestOthersThing: an object whose head names another server than the
// top tool's ("an email", done by the calendar's create) is not served by
// that tool's words (othersThing); the server's own tools, or a thing the
// tool does make, keep it.
func TestOthersThing(t *testing.T) {
	topAndFlag(t, []topCase{
		{"schedule an email to the team for 8am tomorrow", "", true},
		{"schedule a meeting with the design team for 9am on Monday", "", false},
		{"send an email to bob@example.com about the offsite", "email__send_email", false},
		{"create a calendar event for the email review on Friday at 3pm", "calendar__create_event", false},
	})
}
