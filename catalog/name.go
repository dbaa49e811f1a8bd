package catalog

import "strings"

// HostPrefix is the prefix MCP hosts put before a server's tools when they
// merge several servers into one list: Claude Code names the Slack server's
// send_message "mcp__slack__send_message".
const HostPrefix = "mcp" + NamespaceSeparator

// SplitName returns the server a tool name carries and the rest of the
// name, as hosts write names:
//
//	mcp__slack__send_message    slack, send_message   (Claude Code and other MCP hosts)
//	slack__send_message         slack, send_message   (NamespaceSeparator; a longer rest keeps its "__")
//	slack.send_message          slack, send_message   (dotted APIs, e.g. BFCL's MathUtils.multiply)
//	slack/send_message          slack, send_message
//	send_message                "", send_message
//
// HostPrefix is matched ignoring case, and only when another separator
// follows ("mcp__tool" is the tool "tool" of server "mcp"). "." and "/"
// split only a name without "__", at their first occurrence, and only
// between two non-empty parts. It is the one rule by which a tool without a
// Server gets one (Normalize), so the server is indexed, matched by
// server:NAME and +/- terms, and named by queries.
func SplitName(name string) (server, rest string) {
	if len(name) > len(HostPrefix) && strings.EqualFold(name[:len(HostPrefix)], HostPrefix) {
		if s, r, ok := strings.Cut(name[len(HostPrefix):], NamespaceSeparator); ok && s != "" {
			return s, r
		}
	}
	if s, r, ok := strings.Cut(name, NamespaceSeparator); ok {
		return s, r
	}
	if i := strings.IndexAny(name, "./"); i > 0 && i < len(name)-1 {
		return name[:i], name[i+1:]
	}
	return "", name
}
