package search_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

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

// TestValuesPlacedName: a place named by a bare word ("to Blocked") is a
// name the tool takes, no kind of place no tool has (placeDeterminers);
// the same word after a determiner is one.
func TestValuesPlacedName(t *testing.T) {
	issue := json.RawMessage(`{"type":"object","properties":{"issue_key":{"type":"string"},"column":{"type":"string"}}}`)
	flagsOn(t, []catalog.Tool{
		{Name: "board__move_issue", Description: "Move an issue to a column of the board.", InputSchema: issue},
		{Name: "board__get_issue", Description: "Get an issue with its title and column.", InputSchema: json.RawMessage(`{"type":"object","properties":{"issue_key":{"type":"string"}}}`)},
		{Name: "board__create_issue", Description: "Create an issue on the board with a title.", InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`)},
	}, []unservedCase{
		{"move PAY-301 to blocked", false},
		{"move PAY-301 to the blocked pile", true},
	})
}
