package search_test

import "testing"

// TestValuesPlaced: values put in a place whose head no tool has ("the
// current sprint", "a watcher", "the printer") are checked as any object
// is (valuesPlaced): a top tool doing the verb must have a word of the
// object; a place a tool has, or a later word it has, keeps the tool.
func TestValuesPlaced(t *testing.T) {
	topAndFlag(t, []topCase{
		{"add PAY-301 to this sprint", "", true},
		{"add Dana as a watcher on PAY-301", "", true},
		{"print ~/notes/todo.txt on the printer upstairs", "", true},
		{"append 'call the plumber' to my house to-do note", "notes__update_note", false},
		{"move report.pdf into the archive folder", "filesystem__move_file", false},
		{"transition OPS-8 to review", "jira__transition_issue", false},
	})
}
