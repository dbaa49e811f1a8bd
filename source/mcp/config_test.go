package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	source "github.com/toolsearch/toolsearch/source/mcp"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		arg     string
		want    source.ServerConfig
		wantErr string
	}{
		{arg: "everything=npx -y @modelcontextprotocol/server-everything",
			want: source.ServerConfig{Name: "everything", Command: []string{"npx", "-y", "@modelcontextprotocol/server-everything"}}},
		{arg: `fs=DEBUG=1 LANG=C mcp-server-filesystem '/data/my files' "a \"b\"" c\ d`,
			want: source.ServerConfig{Name: "fs", Env: []string{"DEBUG=1", "LANG=C"},
				Command: []string{"mcp-server-filesystem", "/data/my files", `a "b"`, "c d"}}},
		{arg: "remote=https://tools.example.com/mcp", want: source.ServerConfig{Name: "remote", URL: "https://tools.example.com/mcp"}},
		{arg: "local=http://127.0.0.1:3001/mcp", want: source.ServerConfig{Name: "local", URL: "http://127.0.0.1:3001/mcp"}},
		{arg: "nocommand", wantErr: "want NAME=COMMAND"},
		{arg: "x=", wantErr: "want NAME=COMMAND"},
		{arg: "=cmd", wantErr: "name is empty"},
		{arg: "a__b=cmd", wantErr: "namespace separator"},
		{arg: "a b=cmd", wantErr: "contains ' '"},
		{arg: "x='unclosed", wantErr: "unterminated single quote"},
		{arg: `x="unclosed`, wantErr: "unterminated double quote"},
		{arg: "x=A=1", wantErr: "give a command"},
		{arg: "x=https://", wantErr: "not an http:// or https:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, err := source.ParseSpec(tt.arg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseSpec = %+v, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSpec (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	envFile := write("everything.env", "# comment\nexport A=1\nB='two words'\n\n")
	token := write("token", "s3cret\n")
	headers := write("headers", "X-Team: search\n# no\nX-Other:  v \n")
	yaml := `servers:
  - name: everything
    command: npx -y @modelcontextprotocol/server-everything
    env: {LOG: debug}
    env_file: ` + envFile + `
    dir: /srv
  - name: listed
    command: [node, "server.js"]
    args: [--port, "0"]
  - name: remote
    url: https://tools.example.com/mcp
    headers: {X-Api: k}
    headers_file: ` + headers + `
    bearer_token_file: ` + token + `
`
	got, err := source.ParseConfig([]byte(yaml), "mcp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []source.ServerConfig{
		{Name: "everything", Command: []string{"npx", "-y", "@modelcontextprotocol/server-everything"}, Env: []string{"LOG=debug"}, EnvFile: envFile, Dir: "/srv"},
		{Name: "listed", Command: []string{"node", "server.js", "--port", "0"}},
		{Name: "remote", URL: "https://tools.example.com/mcp", Headers: map[string]string{"X-Api": "k"}, HeadersFile: headers, BearerTokenFile: token},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseConfig (-want +got):\n%s", diff)
	}
	env, err := source.ReadEnvFile(envFile)
	if err != nil || !cmp.Equal(env, []string{"A=1", "B=two words"}) {
		t.Errorf("ReadEnvFile = %q, %v", env, err)
	}
	h, err := source.ReadHeadersFile(headers)
	if err != nil || !cmp.Equal(h, map[string]string{"X-Team": "search", "X-Other": "v"}) {
		t.Errorf("ReadHeadersFile = %v, %v", h, err)
	}
	bad := []struct{ yaml, wantErr string }{
		{"servers: [{name: a, command: x}, {name: a, command: y}]", "configured twice"},
		{"servers: [{name: a}]", "give a command"},
		{"servers: [{name: a, command: x, url: 'https://h/mcp'}]", "not both"},
		{"servers: [{name: a, command: x, bearer_token_file: /t}]", "are for HTTP servers"},
		{"servers: [{name: a, url: 'https://h/mcp', env: {A: b}}]", "are for stdio servers"},
		{"servers: [{name: a, command: x, colour: red}]", "field colour not found"},
		{"servers: [{name: a, command: x, env_file: /does/not/exist}]", "no such file"},
		{"servers: [{name: a, command: {x: 1}}]", "neither a string nor a list"},
		{"servers: 3", "cannot unmarshal"},
	}
	for _, b := range bad {
		if _, err := source.ParseConfig([]byte(b.yaml), "mcp.yaml"); err == nil || !strings.Contains(err.Error(), b.wantErr) {
			t.Errorf("ParseConfig(%s) = %v, want an error containing %q", b.yaml, err, b.wantErr)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"a=npx -y pkg", `b=X=1 cmd 'q q' "d\"q" e\ f`, "c=https://h/mcp", "=", "x='"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		c, err := source.ParseSpec(arg)
		if err != nil {
			return
		}
		if c.Name == "" || (len(c.Command) == 0) == (c.URL == "") {
			t.Fatalf("ParseSpec(%q) = %+v without error", arg, c)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("servers: [{name: a, command: x}]"))
	f.Add([]byte("servers:\n  - name: r\n    url: https://h/mcp\n    headers: {A: b}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, err := source.ParseConfig(data, "fuzz.yaml")
		if err != nil {
			return
		}
		for _, s := range servers {
			if err := s.Validate(); err != nil {
				t.Fatalf("ParseConfig returned an invalid server %+v: %v", s, err)
			}
		}
	})
}
