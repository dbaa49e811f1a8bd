package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"
)

// QueryLogMode says how the request log shows a search query (the sidecar's
// --log-queries). Queries may carry user data, so the log never holds more
// of a query than the mode allows, in the "query" field or anywhere else in
// the line (an error message that repeats the query is cut the same way).
type QueryLogMode int

const (
	// QueryLogPrefix (the zero value, the default) logs a query's first
	// LoggedQueryLength characters; any longer run of the query elsewhere in
	// the line (e.g. a regex parse error that repeats the pattern) is cut to
	// that length too, followed by "…".
	QueryLogPrefix QueryLogMode = iota
	// QueryLogHash logs "query_sha256", the first 16 hex digits of the
	// query's SHA-256, instead of its text: repeats of a query can be told
	// apart and counted, its text cannot be read (a short, guessable query
	// can be found by hashing guesses). Runs of the query elsewhere in the
	// line are replaced by "[query]".
	QueryLogHash
	// QueryLogOff logs nothing of the query; runs of the query elsewhere in
	// the line are replaced by "[query]".
	QueryLogOff
)

// LoggedQueryLength is how much of a query the request log shows with
// QueryLogPrefix, in characters: enough to recognise it, not the whole text.
const LoggedQueryLength = 64

// redactedRun is the shortest run of a query, in bytes, that QueryLogHash
// and QueryLogOff replace in an error message (or the whole query, when it
// is shorter): short enough to catch any meaningful piece of the query,
// long enough not to blank out common words of the message that the query
// happens to contain.
const redactedRun = 8

// ParseQueryLogMode reads a --log-queries value: "prefix" (or "true"),
// "hash", "off" (or "false").
func ParseQueryLogMode(s string) (QueryLogMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "prefix", "true", "on":
		return QueryLogPrefix, nil
	case "hash":
		return QueryLogHash, nil
	case "off", "false", "none":
		return QueryLogOff, nil
	}
	return 0, fmt.Errorf("%q: use prefix (the first %d characters), hash (a SHA-256 prefix) or off", s, LoggedQueryLength)
}

// String returns "prefix", "hash" or "off".
func (m QueryLogMode) String() string {
	switch m {
	case QueryLogHash:
		return "hash"
	case QueryLogOff:
		return "off"
	}
	return "prefix"
}

// Attr is how a request log line shows query in mode m: "query" (its
// first LoggedQueryLength characters), "query_sha256", or nothing (ok
// false). The MCP endpoint's log uses it too (mcpserver.Config.LogQuery).
func (m QueryLogMode) Attr(query string) (slog.Attr, bool) {
	switch m {
	case QueryLogPrefix:
		return slog.String("query", clip(query, LoggedQueryLength)), true
	case QueryLogHash:
		return slog.String("query_sha256", queryHash(query)), true
	}
	return slog.Attr{}, false
}

// queryHash is the first 16 hex digits of the query's SHA-256.
func queryHash(q string) string {
	h := sha256.Sum256([]byte(q))
	return hex.EncodeToString(h[:8])
}

// redact returns msg with every run of query text the mode does not allow
// cut or replaced: with QueryLogPrefix, runs longer than LoggedQueryLength
// characters keep their first LoggedQueryLength characters and "…"; with
// the other modes, runs of at least redactedRun bytes (or the whole query)
// become "[query]". Runs of the query's Go-quoted form (as %q writes it) are
// found too.
func (m QueryLogMode) redact(msg, query string) string {
	if query == "" || msg == "" {
		return msg
	}
	forms := []string{query}
	if q := strings.Trim(fmt.Sprintf("%q", query), `"`); q != query {
		forms = append(forms, q)
	}
	for _, f := range forms {
		msg = m.redactForm(msg, f)
	}
	return msg
}

func (m QueryLogMode) redactForm(msg, query string) string {
	minRun := min(redactedRun, len(query)) // bytes
	if m == QueryLogPrefix {
		minRun = LoggedQueryLength + 1 // more than LoggedQueryLength characters take at least this many bytes
	}
	if len(query) < minRun || len(msg) < minRun {
		return msg
	}
	var b strings.Builder
	last := 0
	for i := 0; i+minRun <= len(msg); {
		if !strings.Contains(query, msg[i:i+minRun]) {
			i++
			continue
		}
		j := i + minRun
		for j < len(msg) && strings.Contains(query, msg[i:j+1]) {
			j++
		}
		run := msg[i:j]
		if m == QueryLogPrefix && utf8.RuneCountInString(run) <= LoggedQueryLength {
			i++
			continue
		}
		b.WriteString(msg[last:i])
		if m == QueryLogPrefix {
			b.WriteString(clip(run, LoggedQueryLength))
		} else {
			b.WriteString("[query]")
		}
		last, i = j, j
	}
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}
