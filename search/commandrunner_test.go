package search_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// TestCommandRunner: a request that names the command it wants run is
// served by a top tool that runs commands, whatever its verb
// (commandrunner.go); without the command, the verb is read as before.
func TestCommandRunner(t *testing.T) {
	flagsOn(t, []catalog.Tool{
		{Name: "shell__execute", Description: "Executes the exact system-level command given on the local pc, such as 'taskkill /im app.exe' or 'shutdown /r'.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"The system command to execute."}}}`)},
		{Name: "files__read_file", Description: "Read the contents of a file on the pc.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		{Name: "tickets__close_ticket", Description: "Close a support ticket.", InputSchema: json.RawMessage(`{"type":"object","properties":{"ticket_id":{"type":"integer"}}}`)},
		{Name: "browser__open_page", Description: "Open a web page in Firefox.", InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`)},
	}, []unservedCase{
		{"close firefox using the taskkill command", false},
		{"close firefox", true},
		{"shutdown the pc, using the exact command shutdown /s /t 0", false}, // the command's values are its own: "/s" is no path to check
	})
}
