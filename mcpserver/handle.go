package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// A search handle is what stateless mode keeps instead of a session: the
// engine session id under which a tool_search recorded its search (package
// search's session store, with its bounds, idle TTL and LRU eviction), minted
// by the server, returned with the search result, and passed back by the
// model as an ordinary argument of call_tool (crediting the call to the
// search that found the tool, when the sidecar learns from use) or of the
// next tool_search (one conversation, one engine session). "mcp-h-" and 32
// hex digits: unguessable, and apart from session mode's ids ("mcp-").
const handlePrefix = "mcp-h-"

// newHandle mints a search handle.
func newHandle() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return handlePrefix + hex.EncodeToString(b[:]), nil
}

// validHandle reports whether h has a minted handle's form (whether the
// engine still knows it is the engine's business: an expired handle only
// teaches nothing).
func validHandle(h string) bool {
	rest, ok := strings.CutPrefix(h, handlePrefix)
	if !ok || len(rest) != 32 {
		return false
	}
	_, err := hex.DecodeString(rest)
	return err == nil
}
