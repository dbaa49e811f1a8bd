package mcp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/safefile"
	"gopkg.in/yaml.v3"
)

// ServerConfig is one MCP server to read tools from: a command run as a
// child process speaking MCP over stdio, or the URL of a streamable HTTP
// endpoint. Set exactly one of Command and URL. It is a plain value.
type ServerConfig struct {
	// Name is the server's namespace: its tool "echo" becomes NAME__echo in
	// the catalog. Letters, digits, '-' and '_' (no "__"), at most
	// catalog.MaxServerRunes.
	Name string
	// Command is the program and its arguments (stdio servers).
	Command []string
	// Env holds KEY=VALUE pairs added to the child's environment, which is
	// otherwise the sidecar's own; they override the sidecar's and EnvFile's.
	Env []string
	// EnvFile, if not "", is a file of KEY=VALUE lines (blank lines and
	// "#" comments skipped) added to the child's environment; it is read
	// again at every start, so a rotated secret takes effect on restart.
	EnvFile string
	// Dir is the child's working directory; "" means the sidecar's.
	Dir string
	// URL is the streamable HTTP endpoint (http or https).
	URL string
	// Headers are sent with every HTTP request.
	Headers map[string]string
	// HeadersFile, if not "", is a file of "Name: value" lines sent as
	// headers, read at every connect.
	HeadersFile string
	// BearerTokenFile, if not "", holds a token sent as
	// "Authorization: Bearer TOKEN", read at every connect.
	BearerTokenFile string
}

// IsHTTP reports whether the server is reached over streamable HTTP.
func (c ServerConfig) IsHTTP() bool { return c.URL != "" }

// Transport names the server's transport for logs and status: "stdio" or
// "http".
func (c ServerConfig) Transport() string {
	if c.IsHTTP() {
		return "http"
	}
	return "stdio"
}

// Validate reports what is wrong with c, naming the server; files it names
// must be readable.
func (c ServerConfig) Validate() error {
	if err := checkServerName(c.Name); err != nil {
		return err
	}
	switch {
	case len(c.Command) == 0 && c.URL == "":
		return fmt.Errorf("mcp server %q: give a command (stdio) or an http(s) URL", c.Name)
	case len(c.Command) > 0 && c.URL != "":
		return fmt.Errorf("mcp server %q: give a command or a URL, not both", c.Name)
	}
	if c.IsHTTP() {
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("mcp server %q: URL %q is not an http:// or https:// URL with a host", c.Name, c.URL)
		}
		if c.EnvFile != "" || len(c.Env) > 0 || c.Dir != "" {
			return fmt.Errorf("mcp server %q: env, env_file and dir are for stdio servers; an HTTP server takes headers", c.Name)
		}
		for k := range c.Headers {
			if !validHeaderName(k) {
				return fmt.Errorf("mcp server %q: header name %q is not a valid HTTP header name", c.Name, k)
			}
		}
	} else {
		if strings.TrimSpace(c.Command[0]) == "" {
			return fmt.Errorf("mcp server %q: the command is empty", c.Name)
		}
		if c.HeadersFile != "" || c.BearerTokenFile != "" || len(c.Headers) > 0 {
			return fmt.Errorf("mcp server %q: headers and bearer tokens are for HTTP servers; a stdio server takes env", c.Name)
		}
		for _, kv := range c.Env {
			if k, _, ok := strings.Cut(kv, "="); !ok || !validEnvName(k) {
				return fmt.Errorf("mcp server %q: environment entry %q is not KEY=VALUE", c.Name, kv)
			}
		}
	}
	for _, f := range []string{c.EnvFile, c.HeadersFile, c.BearerTokenFile} {
		if f == "" {
			continue
		}
		if _, err := readSmallFile(f); err != nil {
			return fmt.Errorf("mcp server %q: %w", c.Name, err)
		}
	}
	if c.EnvFile != "" {
		if _, err := ReadEnvFile(c.EnvFile); err != nil {
			return fmt.Errorf("mcp server %q: %w", c.Name, err)
		}
	}
	if c.HeadersFile != "" {
		if _, err := ReadHeadersFile(c.HeadersFile); err != nil {
			return fmt.Errorf("mcp server %q: %w", c.Name, err)
		}
	}
	if c.BearerTokenFile != "" {
		if _, err := readToken(c.BearerTokenFile); err != nil {
			return fmt.Errorf("mcp server %q: %w", c.Name, err)
		}
	}
	return nil
}

// checkServerName reports a name that cannot be a namespace.
func checkServerName(name string) error {
	const fix = "use letters, digits, '-' and '_', such as github or my-tools"
	switch {
	case name == "":
		return fmt.Errorf("mcp server name is empty; %s", fix)
	case utf8.RuneCountInString(name) > catalog.MaxServerRunes:
		return fmt.Errorf("mcp server name %q is over %d characters", name, catalog.MaxServerRunes)
	case strings.Contains(name, catalog.NamespaceSeparator):
		return fmt.Errorf("mcp server name %q contains %q, the namespace separator; %s", name, catalog.NamespaceSeparator, fix)
	}
	for _, r := range name {
		if !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return fmt.Errorf("mcp server name %q contains %q; %s", name, r, fix)
		}
	}
	return nil
}

// CheckNames reports two servers with the same name.
func CheckNames(servers []ServerConfig) error {
	seen := map[string]bool{}
	for _, s := range servers {
		if seen[s.Name] {
			return fmt.Errorf("mcp server %q is configured twice; give each server its own name", s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// ParseSpec parses the sidecar's --mcp flag, NAME=SPEC, where SPEC is an
// http:// or https:// URL (a streamable HTTP server) or a command line (a
// stdio server), split into words as a shell does (single and double
// quotes, backslash escapes; no expansions). Leading KEY=VALUE words of the
// command are environment variables for it, as in a shell:
//
//	everything=npx -y @modelcontextprotocol/server-everything
//	fs=DEBUG=1 mcp-server-filesystem '/data/my files'
//	remote=https://tools.example.com/mcp
func ParseSpec(arg string) (ServerConfig, error) {
	name, spec, ok := strings.Cut(arg, "=")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok || spec == "" {
		return ServerConfig{}, fmt.Errorf("--mcp %q: want NAME=COMMAND or NAME=https://host/mcp", arg)
	}
	c := ServerConfig{Name: name}
	if strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://") {
		c.URL = spec
	} else {
		words, err := SplitCommand(spec)
		if err != nil {
			return ServerConfig{}, fmt.Errorf("--mcp %s: %w", name, err)
		}
		for len(words) > 0 {
			k, _, ok := strings.Cut(words[0], "=")
			if !ok || !validEnvName(k) {
				break
			}
			c.Env = append(c.Env, words[0])
			words = words[1:]
		}
		c.Command = words
	}
	if err := c.Validate(); err != nil {
		return ServerConfig{}, err
	}
	return c, nil
}

// SplitCommand splits a command line into words as a POSIX shell does
// for quoting: single quotes keep everything literally, double quotes keep
// everything but backslash escapes of '"', '\\', '$' and '`', and a
// backslash outside quotes escapes the next character. There are no
// expansions, pipes or redirections.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote in the command")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote in the command")
			}
			inWord = true
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("the command ends with a lone backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("the command is empty")
	}
	return words, nil
}

// validEnvName reports whether k is a POSIX environment variable name.
func validEnvName(k string) bool {
	if k == "" || (k[0] >= '0' && k[0] <= '9') {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// validHeaderName reports whether k is an HTTP header field name (a token).
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// ReadEnvFile reads KEY=VALUE lines; blank lines and lines starting with
// "#" are skipped, an optional "export " prefix is dropped, and a value in
// matching single or double quotes is unquoted (no escapes, no expansion).
func ReadEnvFile(path string) ([]string, error) {
	data, err := readSmallFile(path)
	if err != nil {
		return nil, err
	}
	ls, err := lines(path, data)
	if err != nil {
		return nil, err
	}
	var env []string
	for _, l := range ls {
		i, line := l.n, strings.TrimPrefix(l.text, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !validEnvName(k) {
			return nil, fmt.Errorf("%s: line %d is not KEY=VALUE", path, i+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

// ReadHeadersFile reads "Name: value" lines; blank lines and lines starting
// with "#" are skipped.
func ReadHeadersFile(path string) (map[string]string, error) {
	data, err := readSmallFile(path)
	if err != nil {
		return nil, err
	}
	ls, err := lines(path, data)
	if err != nil {
		return nil, err
	}
	h := map[string]string{}
	for _, l := range ls {
		i, line := l.n, l.text
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if !ok || !validHeaderName(k) {
			return nil, fmt.Errorf("%s: line %d is not \"Name: value\"", path, i+1)
		}
		h[k] = strings.TrimSpace(v)
	}
	return h, nil
}

// readToken reads a bearer token file: its content, trimmed.
func readToken(path string) (string, error) {
	data, err := readSmallFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" || strings.ContainsAny(tok, "\r\n") {
		return "", fmt.Errorf("%s: want one non-empty line holding the bearer token", path)
	}
	return tok, nil
}

// numbered is a line of a config file and its 0-based number.
type numbered struct {
	n    int
	text string
}

// lines returns the meaningful lines of a small config file in file order:
// blank lines and "#" comments are left out.
func lines(path string, data []byte) ([]numbered, error) {
	var out []numbered
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 0; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, numbered{n, line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// fileConfig is the YAML config file (--mcp-config).
type fileConfig struct {
	Servers []fileServer `yaml:"servers"`
}

type fileServer struct {
	Name            string            `yaml:"name"`
	Command         yaml.Node         `yaml:"command"`
	Args            []string          `yaml:"args"`
	Env             map[string]string `yaml:"env"`
	EnvFile         string            `yaml:"env_file"`
	Dir             string            `yaml:"dir"`
	URL             string            `yaml:"url"`
	Headers         map[string]string `yaml:"headers"`
	HeadersFile     string            `yaml:"headers_file"`
	BearerTokenFile string            `yaml:"bearer_token_file"`
}

// ParseConfig parses a YAML config file listing servers, one entry each:
//
//	servers:
//	  - name: everything
//	    command: npx -y @modelcontextprotocol/server-everything   # or a list of words
//	    env: {LOG_LEVEL: debug}
//	    env_file: /etc/mcp/everything.env
//	    dir: /srv/everything
//	  - name: remote
//	    url: https://tools.example.com/mcp
//	    headers: {X-Team: search}
//	    bearer_token_file: /var/run/secrets/remote-token
//
// A string command is split as ParseSpec splits one; "args" are appended.
// Relative file paths are used as they are (relative to the sidecar's
// working directory). Unknown keys are errors. file only labels errors.
func ParseConfig(data []byte, file string) ([]ServerConfig, error) {
	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("%s: %w (want servers: [{name: ..., command: ...} or {name: ..., url: ...}])", file, err)
	}
	out := make([]ServerConfig, 0, len(fc.Servers))
	for i, s := range fc.Servers {
		c := ServerConfig{Name: strings.TrimSpace(s.Name), EnvFile: s.EnvFile, Dir: s.Dir, URL: strings.TrimSpace(s.URL),
			Headers: s.Headers, HeadersFile: s.HeadersFile, BearerTokenFile: s.BearerTokenFile}
		switch s.Command.Kind {
		case 0:
		case yaml.ScalarNode:
			words, err := SplitCommand(s.Command.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: servers[%d] (%q): %w", file, i, c.Name, err)
			}
			c.Command = words
		case yaml.SequenceNode:
			if err := s.Command.Decode(&c.Command); err != nil {
				return nil, fmt.Errorf("%s: servers[%d] (%q): command: %w", file, i, c.Name, err)
			}
		default:
			return nil, fmt.Errorf("%s: servers[%d] (%q): command is neither a string nor a list of words", file, i, c.Name)
		}
		if len(c.Command) > 0 || len(s.Args) > 0 {
			c.Command = append(c.Command, s.Args...)
		}
		for k, v := range s.Env {
			c.Env = append(c.Env, k+"="+v)
		}
		slices.Sort(c.Env)
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("%s: servers[%d]: %w", file, i, err)
		}
		out = append(out, c)
	}
	if err := CheckNames(out); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// maxConfigFileBytes bounds an environment, headers or token file: a few
// lines each; a larger file is not one of them.
const maxConfigFileBytes = 1 << 20

// readSmallFile reads a configuration file of at most maxConfigFileBytes,
// a regular file only: a FIFO or a device is refused by name, never
// waited on.
func readSmallFile(path string) ([]byte, error) {
	return safefile.ReadFile(path, maxConfigFileBytes)
}
