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
		{Name: "shell__execute", Description: "Executes a system-level command on the local machine, such as 'taskkill /im app.exe'.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"The system command to execute."}}}`)},
		{Name: "tickets__close_ticket", Description: "Close a support ticket.", InputSchema: json.RawMessage(`{"type":"object","properties":{"ticket_id":{"type":"integer"}}}`)},
		{Name: "browser__open_page", Description: "Open a web page in Firefox.", InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`)},
	}, []unservedCase{
		{"close firefox using the taskkill command", false},
		{"close firefox", true},
	})
}
