package mcpserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/mcpserver"
)

func TestParseTokenScopes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    map[string]mcpserver.Scope
		wantErr string
	}{
		{"two tokens", `{"a1": {"visible_tools": ["github:*"], "always_loaded": ["github__create_issue"]}, "b2": {"visible_tools": ["slack:*"]}}`,
			map[string]mcpserver.Scope{"a1": {Visible: []string{"github:*"}, AlwaysLoaded: []string{"github__create_issue"}}, "b2": {Visible: []string{"slack:*"}}}, ""},
		{"unknown key", `{"a1": {"visible": ["x"]}}`, nil, "unknown field"},
		{"empty token", `{"": {}}`, nil, "empty"},
		{"bad pattern", `{"a1": {"visible_tools": ["a*b"]}}`, nil, "'*' may only end"},
		{"not an object", `[1]`, nil, "want {"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mcpserver.ParseTokenScopes([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				if strings.Contains(tc.name, "pattern") && !errors.Is(err, mcpserver.ErrInvalidScope) {
					t.Errorf("err = %v, want ErrInvalidScope", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// With token scopes, each token's requests see its scope, in both modes; a
// scoped token may not send scope headers, a session opened with one token
// is not served to another, and unknown tokens are refused.
func TestTokenScopes(t *testing.T) {
	f := start(t, mcpserver.Config{DeferralThreshold: 1, AuthToken: "admin", TokenScopes: map[string]mcpserver.Scope{
		"weather-agent": {Visible: []string{"weather:*"}, AlwaysLoaded: []string{"weather__get_current"}},
		"up-agent":      {Visible: []string{"up:*"}},
	}})
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

	modern := listFresh(t, f.url, bearer("weather-agent"))
	if diff := cmp.Diff([]string{"tool_search", "call_tool", "read_output", "weather__get_current"}, toolNames(modern)); diff != "" {
		t.Errorf("stateless list of weather-agent (-want +got):\n%s", diff)
	}
	if modern.CacheScope != "private" {
		t.Errorf("cacheScope = %q, want private", modern.CacheScope)
	}
	c := connectVersion(t, f.url, bearer("up-agent"), mcpserver.StatelessProtocolVersion)
	if txt, _ := c.call(t, "call_tool", map[string]any{"name": "up__echo", "arguments": map[string]any{"message": "x"}}); txt != "Echo: x" {
		t.Errorf("up-agent call_tool up__echo = %q", txt)
	}
	if txt, isErr := c.call(t, "call_tool", map[string]any{"name": "weather__get_current"}); !isErr || !strings.Contains(txt, "Search first") {
		t.Errorf("up-agent call_tool weather__get_current = %q, want refused", txt)
	}
	old := connect(t, f.url, bearer("weather-agent"))
	if diff := cmp.Diff([]string{"tool_search", "weather__get_current"}, old.names(t)); diff != "" {
		t.Errorf("session list of weather-agent (-want +got):\n%s", diff)
	}
	admin := connect(t, f.url, bearer("admin"))
	if names := admin.names(t); len(names) != 1 {
		t.Errorf("admin's session list = %v, want tool_search alone (the default scope)", names)
	}

	post := func(h http.Header, sessionID string) (int, string) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`
		req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = h.Clone()
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if sessionID != "" {
			req.Header.Set("Mcp-Session-Id", sessionID)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	scoped := bearer("weather-agent")
	scoped.Set(mcpserver.HeaderVisibleTools, "up:*")
	if code, body := post(scoped, ""); code != http.StatusBadRequest || !strings.Contains(body, "--mcp-token-scopes") {
		t.Errorf("scope header with a scoped token: %d %q, want 400", code, body)
	}
	if code, _ := post(bearer("nope"), ""); code != http.StatusUnauthorized {
		t.Errorf("unknown token: %d, want 401", code)
	}
	if code, body := post(bearer("up-agent"), old.ID()); code != http.StatusForbidden || !strings.Contains(body, "another bearer token") {
		t.Errorf("another token on weather-agent's session: %d %q, want 403", code, body)
	}
	if _, err := old.ListTools(context.Background(), &mcp.ListToolsParams{}); err != nil {
		t.Errorf("the session's own token: %v", err)
	}
}
