package catalog

import "testing"

func TestSplitName(t *testing.T) {
	tests := []struct{ name, server, rest string }{
		{"mcp__slack__send_message", "slack", "send_message"},
		{"MCP__Slack__send_message", "Slack", "send_message"},
		{"mcp__google-calendar__list_events", "google-calendar", "list_events"},
		{"mcp__tool", "mcp", "tool"},
		{"slack__send_message", "slack", "send_message"},
		{"a__b__c", "a", "b__c"},
		{"MathUtils.multiplyNumbers", "MathUtils", "multiplyNumbers"},
		{"slack/send_message", "slack", "send_message"},
		{"slack.api/send", "slack", "api/send"},
		{"send_message", "", "send_message"},
		{".hidden", "", ".hidden"},
		{"trailing.", "", "trailing."},
		{"__x", "", "x"},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server, rest := SplitName(tt.name)
			if server != tt.server || rest != tt.rest {
				t.Errorf("SplitName(%q) = %q, %q; want %q, %q", tt.name, server, rest, tt.server, tt.rest)
			}
		})
	}
}

func TestNormalizeServerFromName(t *testing.T) {
	for name, want := range map[string]string{
		"mcp__slack__send_message": "slack",
		"jira__create_issue":       "jira",
		"MathUtils.multiply":       "MathUtils",
		"fs/read_file":             "fs",
		"plain":                    "",
	} {
		if got := Normalize(Tool{Name: name}).Server; got != want {
			t.Errorf("Normalize(%q).Server = %q, want %q", name, got, want)
		}
	}
	if got := Normalize(Tool{Name: "mcp__slack__x", Server: "chat"}).Server; got != "chat" {
		t.Errorf("a given Server is kept: got %q", got)
	}
}
