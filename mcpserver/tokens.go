package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Scope by authorization: Config.TokenScopes maps bearer tokens to scopes,
// so one endpoint serves several agents, each with its own tool list (MCP
// 2026-07-28 lets tools/list vary by the request's authorization alone).
// A request carrying one of these tokens sees that token's scope (its
// fields replace the default's, as a connection's headers do) and may not
// set a scope of its own in headers or query parameters.

// ParseTokenScopes reads a token → scope file (the sidecar's
// --mcp-token-scopes), a JSON object keyed by bearer token:
//
//	{"TOKEN_A": {"visible_tools": ["github:*"], "always_loaded": ["github__create_issue"]},
//	 "TOKEN_B": {"visible_tools": ["slack:*"]}}
//
// Unknown keys, an empty token, a malformed scope entry and a duplicate
// token are errors (wrapping ErrInvalidScope for the scope's own errors).
func ParseTokenScopes(data []byte) (map[string]Scope, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw map[string]struct {
		Visible      []string `json:"visible_tools"`
		AlwaysLoaded []string `json:"always_loaded"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("token scopes: %w; want {\"TOKEN\": {\"visible_tools\": [...], \"always_loaded\": [...]}, ...}", err)
	}
	out := make(map[string]Scope, len(raw))
	for token, r := range raw {
		t := strings.TrimSpace(token)
		if t == "" || t != token {
			return nil, errors.New("token scopes: a token is empty or has surrounding spaces")
		}
		sc := Scope{Visible: r.Visible, AlwaysLoaded: r.AlwaysLoaded}
		if err := sc.validate(); err != nil {
			return nil, fmt.Errorf("token scopes: the scope of token %s…: %w", t[:min(4, len(t))], err)
		}
		out[token] = sc
	}
	return out, nil
}

// scopedToken is one token of Config.TokenScopes, by digest.
type scopedToken struct {
	digest [sha256.Size]byte
	scope  Scope
}

// caller is who a request is, by its bearer token: the token's digest, and
// its scope when it is a scoped token.
type caller struct {
	digest [sha256.Size]byte
	scope  *Scope
}

// authorize checks the request's bearer token, in constant time over
// digests (neither the token nor which token matched leaks by timing):
// with neither AuthToken nor TokenScopes set, every request is
// authorized; otherwise the token must be AuthToken or a scoped token.
func (s *Server) authorize(r *http.Request) (caller, bool) {
	if s.cfg.AuthToken == "" && len(s.scoped) == 0 {
		return caller{}, true
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return caller{}, false
	}
	c := caller{digest: sha256.Sum256([]byte(strings.TrimSpace(token)))}
	match := s.cfg.AuthToken != "" && subtle.ConstantTimeCompare(c.digest[:], s.token[:]) == 1
	for i := range s.scoped {
		if subtle.ConstantTimeCompare(c.digest[:], s.scoped[i].digest[:]) == 1 {
			match, c.scope = true, &s.scoped[i].scope
		}
	}
	return c, match
}

// hasScopeParams reports whether r sets a scope in headers or query
// parameters.
func hasScopeParams(r *http.Request) bool {
	q := r.URL.Query()
	return len(r.Header.Values(HeaderVisibleTools)) > 0 || len(r.Header.Values(HeaderAlwaysLoaded)) > 0 ||
		len(q[QueryVisibleTools]) > 0 || len(q[QueryAlwaysLoaded]) > 0
}
