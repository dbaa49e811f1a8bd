package search_test

import "testing"

// TestSubjectNoAction: a description's sentence that opens with its
// subject before an auxiliary ("Files are returned decoded as text", of
// github__get_file_contents) names no action of the tool
// (fallback.ToolActions), so "file my tax return" is done by no top tool.
func TestSubjectNoAction(t *testing.T) {
	topAndFlag(t, []topCase{
		{"file my 2025 tax return", "", true},
	})
}
